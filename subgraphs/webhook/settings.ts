import { Env, parseBoolean, parsePositiveInt } from '../../core/config';

/** Part 3's retry intervals (seconds): 1 min, 5 min, 30 min, 2 h, 24 h after the previous attempt. */
export const DEFAULT_RETRY_SCHEDULE = [60, 300, 1800, 7200, 86400];
const MAX_RETRIES = 20;
const MAX_INTERVAL_SECONDS = 7 * 86400;
const MAX_TIMEOUT_MS = 30_000;

/** The webhook domain's own settings (CONTRACT-v1 section 4). */
export interface WebhookSettings {
  /** WEBHOOK_RETRY_SCHEDULE: seconds between attempts, one per retry (default `60,300,1800,7200,86400`). */
  retrySchedule: number[];
  /** WEBHOOK_TIMEOUT_MS (default 5000): a receiver answers 2xx within this or the attempt failed. */
  timeoutMs: number;
  /** WEBHOOK_ALLOW_PRIVATE_TARGETS (default false): allows `http://` and loopback, private or link-local targets (local work, tests). */
  allowPrivateTargets: boolean;
  /** WEBHOOK_RETENTION_DAYS (default 30): finished deliveries older than this are pruned. */
  retentionDays: number;
  /** WEBHOOK_CONCURRENCY (default 4): attempts in flight per webhook, so that a slow receiver holds back only its own deliveries. */
  concurrencyPerWebhook: number;
}

export function parseWebhookSettings(env: Env, problems: string[]): WebhookSettings {
  return {
    retrySchedule: parseSchedule(env.WEBHOOK_RETRY_SCHEDULE, problems),
    timeoutMs: Math.min(parsePositiveInt(env, 'WEBHOOK_TIMEOUT_MS', 5000, problems), MAX_TIMEOUT_MS),
    allowPrivateTargets: parseBoolean(env, 'WEBHOOK_ALLOW_PRIVATE_TARGETS', false, problems),
    retentionDays: parsePositiveInt(env, 'WEBHOOK_RETENTION_DAYS', 30, problems),
    concurrencyPerWebhook: Math.min(parsePositiveInt(env, 'WEBHOOK_CONCURRENCY', 4, problems), 64),
  };
}

/** `60,300,...`: positive whole seconds, at most 20 retries of at most a week each; unset or empty (as docker-compose passes an unset one): Part 3's. */
export function parseSchedule(raw: string | undefined, problems: string[]): number[] {
  if (raw === undefined || raw.trim() === '') return DEFAULT_RETRY_SCHEDULE;
  const values = raw.split(',').map((part) => Number(part.trim()));
  if (values.length > MAX_RETRIES || values.some((value) => !Number.isInteger(value) || value < 1 || value > MAX_INTERVAL_SECONDS)) {
    problems.push(`WEBHOOK_RETRY_SCHEDULE must be at most ${MAX_RETRIES} comma-separated whole seconds (1..${MAX_INTERVAL_SECONDS}), got "${raw}"`);
    return DEFAULT_RETRY_SCHEDULE;
  }
  return values;
}
