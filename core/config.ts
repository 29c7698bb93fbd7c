import { createHmac, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import { DEFAULT_SCRYPT_COST } from './auth/secrets';

/** Every setting an operator can change, parsed and validated in one place. */
export interface Config {
  dataDir: string;
  databaseUrl?: string;
  port: number;
  gatewayPort: number;
  /** The address the REST adapter and the gateway bind: they face clients. */
  hosts: { rest: string; gateway: string };
  gatewayUrl: string;
  /** Each domain's subgraph: its port, address (loopback unless set) and URL, and its own settings. */
  domains: Record<string, DomainConfig>;
  /** Where the gateway finds each subgraph (the domains' URLs). */
  subgraphUrls: Record<string, string>;
  publicUrl: string;
  jwtSecret: string;
  /** The credential the parts present to each other (gateway to subgraphs, adapter to gateway). */
  internalSecret: string;
  bootstrapAdmin?: { email: string; password: string };
  chatapp: { apiUrl?: string; appId?: string; appSecret?: string };
  smtpUrl?: string;
  mailFrom: string;
  logLevel: string;
  rateLimit: { standardPerHour: number; premiumPerHour: number };
  /** Express `trust proxy`: false, a hop count, or the addresses of the trusted proxies. */
  trustProxy: TrustProxy;
  /** GraphQL introspection on the gateway: off when NODE_ENV=production unless GRAPHQL_INTROSPECTION=true. */
  introspection: boolean;
  /** GraphiQL at the gateway's /graphql for browsers: on unless NODE_ENV=production, GRAPHQL_EXPLORER overrides. */
  explorer: boolean;
  /** How parts sharing a process reach each other (COLOCATED_TRANSPORT): by calling them, or over HTTP as when apart. */
  colocatedTransport: 'in-process' | 'http';
  /** How many processes `npm start` runs the platform in (WORKERS; one per core by default). */
  workers: number;
  /**
   * Live event streams (SSE): the heartbeat interval (STREAM_HEARTBEAT_SECONDS, 30), the open streams
   * of one member (STREAM_MAX_PER_MEMBER, 5) and of one process (STREAM_MAX_OPEN, 10000).
   */
  streams: { heartbeatSeconds: number; perMember: number; maxOpen: number };
  /**
   * The gateway's graphql-ws sockets, per gateway process: of one caller (GATEWAY_WS_MAX_PER_CALLER, 10)
   * and in all (GATEWAY_WS_MAX_OPEN, 10000).
   */
  gatewaySockets: { perCaller: number; maxOpen: number };
  /** scrypt's cost N for password hashes (PASSWORD_SCRYPT_COST); the OWASP recommendation 2^17 unless set. */
  passwordScryptCost: number;
  deadlines: Deadlines;
  /** Where `/metrics` listens (METRICS_PORT, 9464; METRICS_HOST, loopback): each process tree of `npm start` once, each part alone its own. */
  metrics: { port: number; host: string };
}

/**
 * How long a request may take before it answers 503 (REQUEST_TIMEOUT_MS, 30 s; also each database
 * statement's and idle transaction's limit), how long it waits for a database connection of its
 * domain's pool (DATABASE_POOL_WAIT_MS, 10 s), and how long a process stopping answers `/readyz` with
 * 503 while it still serves, before its servers drain (SHUTDOWN_DELAY_SECONDS, 0: time for a load
 * balancer to take it out).
 */
export interface Deadlines {
  requestMs: number;
  poolWaitMs: number;
  shutdownDelayMs: number;
}

export type TrustProxy = false | number | string[];

export interface DomainConfig {
  port: number;
  host: string;
  url: string;
  /** What the domain's own `settings` parser made of its variables. */
  settings: unknown;
}

/** What the configuration needs to know of a domain: its name, default port and own settings. */
export interface ConfigurableDomain {
  contract: { name: string };
  defaultPort: number;
  /** Parses the domain's own variables, pushing a message naming each bad one onto `problems`. */
  settings?: (env: Env, problems: string[]) => unknown;
}

export class ConfigError extends Error {
  constructor(problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

export type Env = Record<string, string | undefined>;

export function parsePort(env: Env, name: string, fallback: number, problems: string[]): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0 || value > 65535) {
    problems.push(`${name} must be a port number (0-65535), got "${raw}"`);
    return fallback;
  }
  return value;
}

export function parsePositiveInt(env: Env, name: string, fallback: number, problems: string[]): number {
  return parseIntegerFrom(env, name, fallback, problems, 1);
}

export function parseNonNegativeInt(env: Env, name: string, fallback: number, problems: string[]): number {
  return parseIntegerFrom(env, name, fallback, problems, 0);
}

function parseIntegerFrom(env: Env, name: string, fallback: number, problems: string[], least: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < least) {
    problems.push(`${name} must be ${least === 1 ? 'a positive' : 'a non-negative'} integer, got "${raw}"`);
    return fallback;
  }
  return value;
}

export function parseUrl(env: Env, name: string, problems: string[], protocols: string[]): string | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  try {
    const url = new URL(raw);
    if (!protocols.includes(url.protocol)) problems.push(`${name} must use ${protocols.join(' or ')}, got "${url.protocol}"`);
    return raw.replace(/\/$/, '');
  } catch {
    problems.push(`${name} must be a URL, got "${raw}"`);
    return undefined;
  }
}

/** The JWT secret: JWT_SECRET, or a random one generated once and kept under DATA_DIR. */
function jwtSecret(env: Env, dataDir: string, problems: string[]): string {
  const given = env.JWT_SECRET;
  if (given !== undefined && given !== '') {
    if (given.length < 32) problems.push('JWT_SECRET must be at least 32 characters long');
    return given;
  }
  const file = join(dataDir, 'jwt-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600, flag: 'wx' });
  return secret;
}

export function parseHost(env: Env, name: string, fallback: string, problems: string[]): string {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!isIP(raw) && !/^[a-z0-9]([a-z0-9.-]{0,251}[a-z0-9])?$/i.test(raw)) problems.push(`${name} must be an IP address or a host name, got "${raw}"`);
  return raw;
}

export function parseBoolean(env: Env, name: string, fallback: boolean, problems: string[]): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (raw !== 'true' && raw !== 'false') problems.push(`${name} must be true or false, got "${raw}"`);
  return raw === 'true';
}

const PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** A proxy address: an IP, an IP/prefix subnet, or one of express's names (loopback, linklocal, uniquelocal). */
function isProxyAddress(value: string): boolean {
  if (PROXY_NAMES.has(value) || isIP(value)) return true;
  const [address, prefix, ...rest] = value.split('/');
  const version = isIP(address);
  return rest.length === 0 && version !== 0 && /^\d{1,3}$/.test(prefix ?? '') && Number(prefix) <= (version === 4 ? 32 : 128);
}

/**
 * TRUST_PROXY: unset or `false` trusts no proxy; a number trusts that many hops in front of the part;
 * a comma-separated list trusts those addresses. `true` (trust any X-Forwarded-For) is refused.
 */
function parseTrustProxy(env: Env, problems: string[]): TrustProxy {
  const raw = env.TRUST_PROXY?.trim();
  if (!raw || raw === 'false') return false;
  if (/^\d+$/.test(raw)) return Number(raw);
  const addresses = raw.split(',').map((entry) => entry.trim()).filter(Boolean);
  const bad = addresses.filter((entry) => !isProxyAddress(entry));
  if (raw === 'true' || bad.length > 0) {
    problems.push(
      `TRUST_PROXY must be false, the number of proxies in front of the platform, or their addresses (IP, IP/prefix, loopback, linklocal, uniquelocal), got "${raw}"`,
    );
    return false;
  }
  return addresses;
}

/** INTERNAL_SECRET, or one derived from the JWT secret (which every part already shares). */
function internalSecret(env: Env, jwt: string, problems: string[]): string {
  const given = env.INTERNAL_SECRET;
  if (given !== undefined && given !== '') {
    if (given.length < 32) problems.push('INTERNAL_SECRET must be at least 32 characters long');
    return given;
  }
  return createHmac('sha256', jwt).update('loyalty-platform internal credential').digest('base64url');
}

/** `<NAME>_PORT`, `<NAME>_HOST` (loopback by default) and `<NAME>_URL` of a domain, and its own settings. */
function domainConfig(env: Env, domain: ConfigurableDomain, problems: string[]): DomainConfig {
  const prefix = domain.contract.name.toUpperCase();
  const port = parsePort(env, `${prefix}_PORT`, domain.defaultPort, problems);
  return {
    port,
    host: parseHost(env, `${prefix}_HOST`, '127.0.0.1', problems),
    url: parseUrl(env, `${prefix}_URL`, problems, ['http:', 'https:']) ?? `http://127.0.0.1:${port}/graphql`,
    settings: domain.settings?.(env, problems),
  };
}

/**
 * Reads and validates every setting of the platform and of the given domains (the registry's modules;
 * none for a part that serves no domain), reporting every bad one at once.
 */
export function loadConfig(env: Env = process.env, domains: readonly ConfigurableDomain[] = []): Config {
  const problems: string[] = [];
  const dataDir = resolve(env.DATA_DIR || '.data');
  const port = parsePort(env, 'PORT', 3000, problems);
  const gatewayPort = parsePort(env, 'GATEWAY_PORT', 4000, problems);
  const databaseUrl = parseUrl(env, 'DATABASE_URL', problems, ['postgres:', 'postgresql:']);
  const gatewayUrl = parseUrl(env, 'GATEWAY_URL', problems, ['http:', 'https:']) ?? `http://127.0.0.1:${gatewayPort}/graphql`;
  const domainConfigs = Object.fromEntries(domains.map((domain) => [domain.contract.name, domainConfig(env, domain, problems)]));
  const publicUrl = parseUrl(env, 'PUBLIC_URL', problems, ['http:', 'https:']) ?? `http://localhost:${port}`;
  const hosts = {
    // Loopback unless a deployment opens them (docker-compose sets 0.0.0.0 inside the containers).
    rest: parseHost(env, 'HOST', '127.0.0.1', problems),
    gateway: parseHost(env, 'GATEWAY_HOST', '127.0.0.1', problems),
  };

  const adminEmail = env.BOOTSTRAP_ADMIN_EMAIL || undefined;
  const adminPassword = env.BOOTSTRAP_ADMIN_PASSWORD || undefined;
  if (Boolean(adminEmail) !== Boolean(adminPassword)) {
    problems.push('BOOTSTRAP_ADMIN_EMAIL and BOOTSTRAP_ADMIN_PASSWORD must be set together');
  }
  if (adminEmail && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(adminEmail)) problems.push('BOOTSTRAP_ADMIN_EMAIL must be an e-mail address');
  if (adminPassword && adminPassword.length < 6) problems.push('BOOTSTRAP_ADMIN_PASSWORD must be at least 6 characters long');

  const chatapp = {
    apiUrl: parseUrl(env, 'CHATAPP_API_URL', problems, ['http:', 'https:']),
    appId: env.CHATAPP_APP_ID || undefined,
    appSecret: env.CHATAPP_APP_SECRET || undefined,
  };
  const smtpUrl = parseUrl(env, 'SMTP_URL', problems, ['smtp:', 'smtps:']);
  const logLevel = env.LOG_LEVEL || 'info';
  if (!['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].includes(logLevel)) {
    problems.push(`LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got "${logLevel}"`);
  }
  const rateLimit = {
    standardPerHour: parsePositiveInt(env, 'RATE_LIMIT_STANDARD_PER_HOUR', 1000, problems),
    premiumPerHour: parsePositiveInt(env, 'RATE_LIMIT_PREMIUM_PER_HOUR', 10000, problems),
  };
  const secret = jwtSecret(env, dataDir, problems);
  const internal = internalSecret(env, secret, problems);
  const trustProxy = parseTrustProxy(env, problems);
  const introspection = parseBoolean(env, 'GRAPHQL_INTROSPECTION', env.NODE_ENV !== 'production', problems);
  const explorer = parseBoolean(env, 'GRAPHQL_EXPLORER', env.NODE_ENV !== 'production', problems);
  const workers = parsePositiveInt(env, 'WORKERS', availableParallelism(), problems);
  const colocatedTransport = env.COLOCATED_TRANSPORT || 'in-process';
  if (colocatedTransport !== 'in-process' && colocatedTransport !== 'http') {
    problems.push(`COLOCATED_TRANSPORT must be in-process or http, got "${colocatedTransport}"`);
  }
  const passwordScryptCost = parsePositiveInt(env, 'PASSWORD_SCRYPT_COST', DEFAULT_SCRYPT_COST, problems);
  if (passwordScryptCost < 1024 || passwordScryptCost > 2 ** 20 || (passwordScryptCost & (passwordScryptCost - 1)) !== 0) {
    problems.push(`PASSWORD_SCRYPT_COST must be a power of two from 1024 to 1048576, got "${env.PASSWORD_SCRYPT_COST}"`);
  }
  const streams = {
    heartbeatSeconds: parsePositiveInt(env, 'STREAM_HEARTBEAT_SECONDS', 30, problems),
    perMember: parsePositiveInt(env, 'STREAM_MAX_PER_MEMBER', 5, problems),
    maxOpen: parsePositiveInt(env, 'STREAM_MAX_OPEN', 10000, problems),
  };
  const gatewaySockets = {
    perCaller: parsePositiveInt(env, 'GATEWAY_WS_MAX_PER_CALLER', 10, problems),
    maxOpen: parsePositiveInt(env, 'GATEWAY_WS_MAX_OPEN', 10000, problems),
  };
  const deadlines = {
    requestMs: parsePositiveInt(env, 'REQUEST_TIMEOUT_MS', 30_000, problems),
    poolWaitMs: parsePositiveInt(env, 'DATABASE_POOL_WAIT_MS', 10_000, problems),
    shutdownDelayMs: parseNonNegativeInt(env, 'SHUTDOWN_DELAY_SECONDS', 0, problems) * 1000,
  };
  const metrics = { port: parsePort(env, 'METRICS_PORT', 9464, problems), host: parseHost(env, 'METRICS_HOST', '127.0.0.1', problems) };
  if (problems.length > 0) throw new ConfigError(problems);

  return {
    dataDir,
    databaseUrl,
    port,
    gatewayPort,
    hosts,
    gatewayUrl,
    domains: domainConfigs,
    subgraphUrls: Object.fromEntries(Object.entries(domainConfigs).map(([name, domain]) => [name, domain.url])),
    publicUrl,
    jwtSecret: secret,
    internalSecret: internal,
    bootstrapAdmin: adminEmail && adminPassword ? { email: adminEmail, password: adminPassword } : undefined,
    chatapp,
    smtpUrl,
    mailFrom: env.MAIL_FROM || 'Loyalty Platform <no-reply@loyalty.local>',
    logLevel,
    rateLimit,
    trustProxy,
    introspection,
    explorer,
    streams,
    gatewaySockets,
    colocatedTransport: colocatedTransport === 'http' ? 'http' : 'in-process',
    workers,
    passwordScryptCost,
    deadlines,
    metrics,
  };
}
