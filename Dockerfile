# One image for every part; docker-compose.yml picks the part with the command.
FROM node:20.20-bookworm-slim
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
RUN npm install --no-audit --no-fund --omit=dev
COPY . .
ENV NODE_ENV=production DATA_DIR=/data
RUN mkdir -p /data && chown node:node /data
USER node
EXPOSE 3000 4000 4001
CMD ["npm", "start"]
