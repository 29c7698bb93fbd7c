import { Env, parsePositiveInt } from '../../core/config';

/** The analytics domain's own settings. */
export interface AnalyticsSettings {
  /** ANALYTICS_POINT_VALUE (default `0.01`): what one point costs in money, for a campaign's ROI. */
  pointValue: string;
  /** ANALYTICS_REPORT_TTL_HOURS (default 24, contract section 5): how long a report's file and download URL live. */
  reportTtlHours: number;
  /** ANALYTICS_REPORT_RETRY_LIMIT (default 3): how many more tries a report's job gets before the report is `failed`. */
  reportRetryLimit: number;
  /** ANALYTICS_REPORT_RETRY_DELAY_SECONDS (default 30): the first delay between tries, doubling each time. */
  reportRetryDelaySeconds: number;
}

/** The most tries and the longest first delay a report's job may be given (pg-boss doubles the delay each try). */
const MAX_RETRY_LIMIT = 50;
const MAX_RETRY_DELAY_SECONDS = 3600;

export function parseAnalyticsSettings(env: Env, problems: string[]): AnalyticsSettings {
  const raw = env.ANALYTICS_POINT_VALUE?.trim();
  let pointValue = '0.01';
  if (raw) {
    if (/^\d{1,9}(\.\d{1,6})?$/.test(raw) && Number(raw) > 0) pointValue = raw;
    else problems.push(`ANALYTICS_POINT_VALUE must be a positive decimal number such as 0.01, got "${raw}"`);
  }
  const reportRetryLimit = parsePositiveInt(env, 'ANALYTICS_REPORT_RETRY_LIMIT', 3, problems);
  if (reportRetryLimit > MAX_RETRY_LIMIT) problems.push(`ANALYTICS_REPORT_RETRY_LIMIT must be at most ${MAX_RETRY_LIMIT}, got "${reportRetryLimit}"`);
  const reportRetryDelaySeconds = parsePositiveInt(env, 'ANALYTICS_REPORT_RETRY_DELAY_SECONDS', 30, problems);
  if (reportRetryDelaySeconds > MAX_RETRY_DELAY_SECONDS) {
    problems.push(`ANALYTICS_REPORT_RETRY_DELAY_SECONDS must be at most ${MAX_RETRY_DELAY_SECONDS}, got "${reportRetryDelaySeconds}"`);
  }
  return { pointValue, reportTtlHours: parsePositiveInt(env, 'ANALYTICS_REPORT_TTL_HOURS', 24, problems), reportRetryLimit, reportRetryDelaySeconds };
}
