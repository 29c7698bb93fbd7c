# One image for every part; docker-compose.yml picks the part with the command.
FROM node:20.20-bookworm-slim
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
RUN npm install --no-audit --no-fund --omit=dev
COPY . .
# Inside a container the client-facing parts and /metrics listen on every interface (outside, they default
# to loopback); docker-compose.yml publishes only the REST adapter's and the gateway's ports.
ENV NODE_ENV=production DATA_DIR=/data HOST=0.0.0.0 GATEWAY_HOST=0.0.0.0 METRICS_HOST=0.0.0.0
RUN mkdir -p /data && chown node:node /data
USER node
EXPOSE 3000 4000 4001 9464
CMD ["npm", "start"]
