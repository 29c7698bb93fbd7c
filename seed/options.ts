import { DemoOptions } from './seed-demo';

const DEFAULT_MEMBERS = 1000;
const MAX_MEMBERS = 100_000;

function wholeNumber(env: NodeJS.ProcessEnv, name: string, fallback: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1 || value > max) throw new Error(`${name} must be a whole number from 1 to ${max}, not ${raw}`);
  return value;
}

/**
 * The seeder's settings from the environment, defaulting to what `npm start` serves: the gateway on
 * GATEWAY_PORT (4000), signed in as the bootstrap admin (BOOTSTRAP_ADMIN_EMAIL, BOOTSTRAP_ADMIN_PASSWORD).
 */
export function demoOptionsFromEnv(env: NodeJS.ProcessEnv, log: (line: string) => void): DemoOptions {
  const adminEmail = env.DEMO_ADMIN_EMAIL ?? env.BOOTSTRAP_ADMIN_EMAIL;
  const adminPassword = env.DEMO_ADMIN_PASSWORD ?? env.BOOTSTRAP_ADMIN_PASSWORD;
  if (!adminEmail || !adminPassword) throw new Error('set BOOTSTRAP_ADMIN_EMAIL and BOOTSTRAP_ADMIN_PASSWORD (or DEMO_ADMIN_EMAIL and DEMO_ADMIN_PASSWORD) to an admin of the platform');
  return {
    graphqlUrl: env.DEMO_GRAPHQL_URL ?? `http://127.0.0.1:${env.GATEWAY_PORT || 4000}/graphql`,
    adminEmail,
    adminPassword,
    members: wholeNumber(env, 'DEMO_MEMBERS', DEFAULT_MEMBERS, MAX_MEMBERS),
    webhookUrl: env.DEMO_WEBHOOK_URL ?? 'http://127.0.0.1:9999/demo-webhook',
    concurrency: wholeNumber(env, 'DEMO_CONCURRENCY', 12, 64),
    log,
  };
}
