import { DomainModule } from '../core/module';

const HEADER = `# Generated from subgraphs/registry.ts by \`npm run schema\`; \`npm run schema:check\` (CI) fails when it is stale.
# PostgreSQL plus each part of the platform as its own service (one image, different commands), so
# that the parts can run on separate hosts. Set JWT_SECRET (32+ characters) and POSTGRES_PASSWORD in
# the environment or an .env file next to this one:  JWT_SECRET=... POSTGRES_PASSWORD=... docker compose up
# Every part binds 0.0.0.0 inside its container (by default each binds loopback). Only the REST
# adapter and the gateway publish a port; the gateway reaches the subgraphs over the compose network,
# and they serve only callers presenting the internal credential. Every part reaches the gateway at
# GATEWAY_URL (the adapter for each request, a domain for another domain's data).`;

const passThrough = (names: readonly string[]) => names.map((name) => `      ${name}: \${${name}:-}`);

/** A part is healthy while its `/readyz` answers 200 (database reachable, not stopping); the image has node, not curl. */
const healthcheck = (port: number | string) => [
  '    healthcheck:',
  `      test: ["CMD", "node", "-e", "fetch('http://127.0.0.1:${port}/readyz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]`,
  '      interval: 5s',
  '      timeout: 3s',
  '      start_period: 60s',
  '      retries: 3',
];

/** Waits for each named service to be healthy. */
const dependsOnHealthy = (names: readonly string[]) => ['    depends_on:', ...names.flatMap((name) => [`      ${name}:`, '        condition: service_healthy'])];

/** docker-compose.yml for the registered domains, the gateway and the REST adapter. */
export function dockerCompose(modules: readonly DomainModule<any, any>[]): string {
  const names = modules.map((module) => module.contract.name);
  const domainServices = modules.flatMap((module) => {
    const name = module.contract.name;
    const prefix = name.toUpperCase();
    return [
      `  ${name}:`,
      '    <<: *platform',
      `    command: ["npm", "run", "start:part", "--", "${name}"]`,
      '    environment:',
      '      <<: *platform-env',
      `      ${prefix}_PORT: "${module.defaultPort}"`,
      `      ${prefix}_HOST: 0.0.0.0`,
      ...passThrough(module.environment ?? []),
      '    volumes:',
      `      - ${name}-data:/data`,
      // Object storage (core/storage/object-storage.ts: report files) is shared by every part: the analytics job writes, the REST adapter serves.
      '      - objects:/data/objects',
      ...healthcheck(module.defaultPort),
      ...dependsOnHealthy(['postgres']),
      '',
    ];
  });
  return [
    HEADER,
    'x-platform: &platform',
    '  build: .',
    '  restart: unless-stopped',
    '  environment: &platform-env',
    '    DATABASE_URL: postgres://loyalty:${POSTGRES_PASSWORD:?set POSTGRES_PASSWORD}@postgres:5432/loyalty',
    '    JWT_SECRET: ${JWT_SECRET:?set JWT_SECRET to 32 or more random characters}',
    '    INTERNAL_SECRET: ${INTERNAL_SECRET:-}',
    '    LOG_LEVEL: ${LOG_LEVEL:-info}',
    '    TRUST_PROXY: ${TRUST_PROXY:-false}',
    '    RATE_LIMIT_STANDARD_PER_HOUR: ${RATE_LIMIT_STANDARD_PER_HOUR:-1000}',
    '    RATE_LIMIT_PREMIUM_PER_HOUR: ${RATE_LIMIT_PREMIUM_PER_HOUR:-10000}',
    '    GRAPHQL_INTROSPECTION: ${GRAPHQL_INTROSPECTION:-false}',
    '    STREAM_HEARTBEAT_SECONDS: ${STREAM_HEARTBEAT_SECONDS:-30}',
    '    STREAM_MAX_PER_MEMBER: ${STREAM_MAX_PER_MEMBER:-5}',
    '    STREAM_MAX_OPEN: ${STREAM_MAX_OPEN:-10000}',
    '    PUBLIC_URL: ${PUBLIC_URL:-http://localhost:3000}',
    '    SHUTDOWN_DELAY_SECONDS: ${SHUTDOWN_DELAY_SECONDS:-0}',
    '    GATEWAY_URL: http://gateway:4000/graphql',
    '',
    'services:',
    '  postgres:',
    '    image: postgres:17',
    '    restart: unless-stopped',
    '    environment:',
    '      POSTGRES_USER: loyalty',
    '      POSTGRES_PASSWORD: ${POSTGRES_PASSWORD:?set POSTGRES_PASSWORD}',
    '      POSTGRES_DB: loyalty',
    '    volumes:',
    '      - postgres-data:/var/lib/postgresql/data',
    '    healthcheck:',
    '      test: ["CMD-SHELL", "pg_isready -U loyalty -d loyalty"]',
    '      interval: 5s',
    '      retries: 20',
    '',
    ...domainServices,
    '  gateway:',
    '    <<: *platform',
    '    command: ["npm", "run", "start:part", "--", "gateway"]',
    '    environment:',
    '      <<: *platform-env',
    '      GATEWAY_PORT: "4000"',
    '      GATEWAY_HOST: 0.0.0.0',
    ...modules.map((module) => `      ${module.contract.name.toUpperCase()}_URL: http://${module.contract.name}:${module.defaultPort}/graphql`),
    '    ports:',
    '      - "4000:4000"',
    ...healthcheck(4000),
    ...dependsOnHealthy(names),
    '',
    '  rest:',
    '    <<: *platform',
    '    command: ["npm", "run", "start:part", "--", "rest"]',
    '    environment:',
    '      <<: *platform-env',
    '      PORT: "3000"',
    '      HOST: 0.0.0.0',
    '    ports:',
    '      - "3000:3000"',
    '    volumes:',
    '      - rest-data:/data',
    '      - objects:/data/objects',
    ...healthcheck(3000),
    ...dependsOnHealthy(['gateway']),
    '',
    'volumes:',
    '  postgres-data:',
    ...names.map((name) => `  ${name}-data:`),
    '  rest-data:',
    '  objects:',
    '',
  ].join('\n');
}
