import { Env, parsePositiveInt, parseUrl } from '../../core/config';

/** A key longer than this is a mistake in the environment, not a key. */
const MAX_API_KEY = 512;
/** Past a day between tries the queue's retention, not the retry policy, would decide. */
const MAX_RETRY_DELAY_SECONDS = 3600;
const MAX_RETRY_LIMIT = 50;

/** The notification domain's own settings. */
export interface NotificationSettings {
  /** TRANSLATE_URL: a LibreTranslate-compatible server; without it notifications keep the languages they were given. */
  translateUrl?: string;
  /** TRANSLATE_API_KEY: sent as `api_key` when set. */
  translateApiKey?: string;
  /** TRANSLATE_RETRY_LIMIT (default 8): how many more tries a translation job gets before it is dead-lettered. */
  translateRetryLimit: number;
  /** TRANSLATE_RETRY_DELAY_SECONDS (default 30): the first delay between tries, doubling each time. */
  translateRetryDelaySeconds: number;
}

export function parseNotificationSettings(env: Env, problems: string[]): NotificationSettings {
  const translateApiKey = env.TRANSLATE_API_KEY || undefined;
  if (translateApiKey && (translateApiKey.length > MAX_API_KEY || /\s/.test(translateApiKey))) {
    problems.push(`TRANSLATE_API_KEY must be at most ${MAX_API_KEY} characters without spaces`);
  }
  const translateUrl = parseUrl(env, 'TRANSLATE_URL', problems, ['http:', 'https:']);
  if (translateApiKey && !translateUrl) problems.push('TRANSLATE_API_KEY is set without TRANSLATE_URL');
  const translateRetryLimit = parsePositiveInt(env, 'TRANSLATE_RETRY_LIMIT', 8, problems);
  if (translateRetryLimit > MAX_RETRY_LIMIT) problems.push(`TRANSLATE_RETRY_LIMIT must be at most ${MAX_RETRY_LIMIT}, got "${translateRetryLimit}"`);
  const translateRetryDelaySeconds = parsePositiveInt(env, 'TRANSLATE_RETRY_DELAY_SECONDS', 30, problems);
  if (translateRetryDelaySeconds > MAX_RETRY_DELAY_SECONDS) {
    problems.push(`TRANSLATE_RETRY_DELAY_SECONDS must be at most ${MAX_RETRY_DELAY_SECONDS}, got "${translateRetryDelaySeconds}"`);
  }
  return { translateUrl, translateApiKey, translateRetryLimit, translateRetryDelaySeconds };
}
