import { AppError } from '../../../core/errors';

/** The languages a notification is translated into from English (ours; the provider's codes differ). */
export type TranslationTarget = 'th' | 'cn';
export type TranslationFormat = 'text' | 'html';

/** Translates English text. Throws AppError('UNAVAILABLE') when the provider fails or answers something unusable. */
export interface TranslationProvider {
  translate(text: string, target: TranslationTarget, format: TranslationFormat, timeoutMs: number): Promise<string>;
}

/** LibreTranslate names Chinese (simplified) `zh`; our `cn` field is that language. */
export const LIBRETRANSLATE_LANGUAGE: Record<TranslationTarget, string> = { th: 'th', cn: 'zh' };

/** An answer larger than this is not a translation of a notification (contents are at most 20,000 characters). */
const MAX_ANSWER_BYTES = 256 * 1024;

/**
 * A LibreTranslate-compatible server: `POST <url>/translate {q, source: 'en', target, format, api_key?}`
 * answers `{translatedText}`. The answer is untrusted text: read up to a byte bound, and required to be
 * a JSON string; the caller bounds its length and checks HTML before storing it.
 */
export class LibreTranslateProvider implements TranslationProvider {
  constructor(
    private readonly url: string,
    private readonly apiKey?: string,
  ) {}

  async translate(text: string, target: TranslationTarget, format: TranslationFormat, timeoutMs: number): Promise<string> {
    let status: number;
    let answer: string;
    try {
      const response = await fetch(`${this.url}/translate`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ q: text, source: 'en', target: LIBRETRANSLATE_LANGUAGE[target], format, ...(this.apiKey ? { api_key: this.apiKey } : {}) }),
        signal: AbortSignal.timeout(timeoutMs),
        redirect: 'error',
      });
      status = response.status;
      answer = await readBounded(response, MAX_ANSWER_BYTES);
    } catch (error) {
      throw new AppError('UNAVAILABLE', `The translation provider did not answer (${(error as Error).message})`);
    }
    if (status !== 200) throw new AppError('UNAVAILABLE', `The translation provider failed (HTTP ${status})`);
    let translated: unknown;
    try {
      translated = (JSON.parse(answer) as { translatedText?: unknown })?.translatedText;
    } catch {
      translated = undefined;
    }
    if (typeof translated !== 'string') throw new AppError('UNAVAILABLE', 'The translation provider answered no translatedText');
    return translated;
  }
}

/** The body as text, refusing one past `limit` bytes without reading the rest. */
async function readBounded(response: Response, limit: number): Promise<string> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw new Error(`answer larger than ${limit} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** The configured provider, or null when TRANSLATE_URL is not set. */
export function createTranslationProvider(url?: string, apiKey?: string): TranslationProvider | null {
  return url ? new LibreTranslateProvider(url, apiKey) : null;
}
