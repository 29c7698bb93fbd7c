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
  /** NOTIFY_RETRY_SCHEDULE (default 30,120,600,1800): seconds before each retry of a delivery a channel refused for now. */
  notifyRetrySchedule: number[];
  /**
   * NOTIFY_CHANNEL_TIMEOUT_MS (default 10000, at most 60000): how long one external delivery attempt may
   * take, every provider call in it included (chat-app token and retry, SMTP connection to end of data).
   */
  notifyChannelTimeoutMs: number;
  /** NOTIFY_BATCH_SIZE (default 500): in-app deliveries written per transaction. */
  notifyBatchSize: number;
  /** CHATAPP_NOTIFY_TEMPLATE_ID: the chat-app subscribe-message template of chatapp_mini_program sends. */
  chatappNotifyTemplateId?: string;
  /**
   * CHATAPP_NOTIFY_WEBVIEW_PAGE: a mini-program page hosting a web-view (`pages/webview/index`); a
   * message with an action_url opens it with `?url=<the tracked link>`. Unset: messages open no page.
   */
  chatappNotifyWebviewPage?: string;
  /** SMS_URL: the HTTP SMS gateway (POST JSON); without it SMS go to the local outbox. */
  smsUrl?: string;
  /** SMS_API_KEY: sent as a Bearer token to SMS_URL. */
  smsApiKey?: string;
}

const MAX_SCHEDULE = 20;
const MAX_CHANNEL_TIMEOUT_MS = 60_000;
/** A mini-program page path: segments of letters, digits, "_" and "-" (no scheme, no query: the link is added). */
const PAGE_PATH = /^[A-Za-z0-9_-]+(\/[A-Za-z0-9_-]+)*$/;
const MAX_PAGE_PATH = 128;
const MAX_RETRY_SECONDS = 7 * 86400;

function parseRetrySchedule(env: Env, problems: string[]): number[] {
  const given = env.NOTIFY_RETRY_SCHEDULE?.trim() || '30,120,600,1800';
  const parts = given.split(',').map((part) => Number(part.trim()));
  if (parts.length > MAX_SCHEDULE || parts.some((part) => !Number.isInteger(part) || part < 1 || part > MAX_RETRY_SECONDS)) {
    problems.push(`NOTIFY_RETRY_SCHEDULE must be at most ${MAX_SCHEDULE} whole numbers of seconds (1 to ${MAX_RETRY_SECONDS}) separated by commas, got "${given}"`);
    return [];
  }
  return parts;
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
  const smsApiKey = env.SMS_API_KEY || undefined;
  const smsUrl = parseUrl(env, 'SMS_URL', problems, ['http:', 'https:']);
  if (smsApiKey && !smsUrl) problems.push('SMS_API_KEY is set without SMS_URL');
  const notifyChannelTimeoutMs = parsePositiveInt(env, 'NOTIFY_CHANNEL_TIMEOUT_MS', 10_000, problems);
  if (notifyChannelTimeoutMs > MAX_CHANNEL_TIMEOUT_MS) problems.push(`NOTIFY_CHANNEL_TIMEOUT_MS must be at most ${MAX_CHANNEL_TIMEOUT_MS}, got "${notifyChannelTimeoutMs}"`);
  const chatappNotifyWebviewPage = env.CHATAPP_NOTIFY_WEBVIEW_PAGE?.trim() || undefined;
  if (chatappNotifyWebviewPage && (!PAGE_PATH.test(chatappNotifyWebviewPage) || chatappNotifyWebviewPage.length > MAX_PAGE_PATH)) {
    problems.push(`CHATAPP_NOTIFY_WEBVIEW_PAGE must be a mini-program page path such as pages/webview/index (at most ${MAX_PAGE_PATH} characters, no scheme or query), got "${chatappNotifyWebviewPage}"`);
  }
  return {
    translateUrl,
    translateApiKey,
    translateRetryLimit,
    translateRetryDelaySeconds,
    notifyRetrySchedule: parseRetrySchedule(env, problems),
    notifyChannelTimeoutMs: Math.min(notifyChannelTimeoutMs, MAX_CHANNEL_TIMEOUT_MS),
    notifyBatchSize: Math.min(parsePositiveInt(env, 'NOTIFY_BATCH_SIZE', 500, problems), 5000),
    chatappNotifyTemplateId: env.CHATAPP_NOTIFY_TEMPLATE_ID || undefined,
    chatappNotifyWebviewPage,
    smsUrl,
    smsApiKey,
  };
}
