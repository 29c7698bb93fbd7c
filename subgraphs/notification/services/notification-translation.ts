import { MikroORM } from '@mikro-orm/core';
import { EntityManager, PostgreSqlDriver } from '@mikro-orm/postgresql';
import PgBoss from 'pg-boss';
import { inTransaction } from '../../../core/events/job-queue';
import { Logger } from '../../../core/logger';
import { InAppNotification, NotificationFormat } from '../entities/in-app-notification';
import { TranslationFormat, TranslationProvider, TranslationTarget } from './translation-provider';

/** The queue of notifications whose Thai or Chinese text could not be translated at once. */
export const TRANSLATE_QUEUE = 'notification.translate';

/** What a request waits for the provider before it creates the notification without it; the job waits longer. */
export const TRANSLATE_AT_CREATE_TIMEOUT_MS = 3_000;
export const TRANSLATE_IN_JOB_TIMEOUT_MS = 15_000;

const TARGETS: TranslationTarget[] = ['th', 'cn'];
const MAX_LENGTH = { title: 255, content: 20_000 } as const;
type TextName = keyof typeof MAX_LENGTH;

/** The text fields of a notification, as the translation reads them. */
export type NotificationTexts = Partial<Record<`${TextName}_${'en' | 'th' | 'cn'}`, string | null>> & { format?: NotificationFormat | null };

/** One field to fill: `<name>_<target>` from `<name>_en`. */
export interface MissingTranslation {
  field: `${TextName}_${TranslationTarget}`;
  name: TextName;
  target: TranslationTarget;
  source: string;
  format: TranslationFormat;
}

/** The Thai and Chinese fields left empty beside a non-empty English one (rule 1 of create). */
export function missingTranslations(texts: NotificationTexts): MissingTranslation[] {
  const missing: MissingTranslation[] = [];
  for (const name of ['title', 'content'] as const) {
    const source = texts[`${name}_en`];
    if (!source) continue;
    const format: TranslationFormat = name === 'content' && texts.format === NotificationFormat.html ? 'html' : 'text';
    for (const target of TARGETS) {
      if (!texts[`${name}_${target}`]) missing.push({ field: `${name}_${target}`, name, target, source, format });
    }
  }
  return missing;
}

/**
 * The provider's answer as it may be stored, or null when it may not: a non-blank string within the
 * field's bound, without control characters (tabs and line breaks aside), and for HTML the very tags of
 * the English source in the same order (the provider changes the text between tags, never the markup:
 * no tag, attribute or script of its own reaches a client that renders the content as HTML).
 */
export function acceptedTranslation(item: MissingTranslation, translated: string): string | null {
  // eslint-disable-next-line no-control-regex
  const cleaned = translated.replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g, '').trim();
  if (!cleaned || cleaned.length > MAX_LENGTH[item.name]) return null;
  if (item.format === 'html' && !sameMarkup(item.source, cleaned)) return null;
  if (item.format === 'text' && item.name === 'title' && /[\r\n]/.test(cleaned)) return null;
  return cleaned;
}

const TAG = /<\s*(\/?)\s*([a-zA-Z][a-zA-Z0-9-]*)((?:\s+[^\s=>/]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s>]+))?)*)\s*(\/?)\s*>/g;
const ATTRIBUTE = /([^\s=>/]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?/g;

/** The tags of an HTML text, normalized (case, quoting, spacing), in order; null when a `<` or `>` is not part of a tag. */
function markupOf(html: string): string[] | null {
  const tags: string[] = [];
  const rest = html.replace(TAG, (_, closing: string, name: string, attributes: string, selfClosing: string) => {
    const normalized = [...attributes.matchAll(ATTRIBUTE)].map((match) => `${match[1].toLowerCase()}=${match[2] ?? match[3] ?? match[4] ?? ''}`);
    tags.push(`${closing}${name.toLowerCase()} ${normalized.join(' ')}${selfClosing}`);
    return ' ';
  });
  return /[<>]/.test(rest) ? null : tags;
}

function sameMarkup(source: string, translated: string): boolean {
  const expected = markupOf(source);
  const actual = markupOf(translated);
  return expected !== null && actual !== null && expected.length === actual.length && expected.every((tag, index) => tag === actual[index]);
}

/** What a round of translation made: the accepted fields, and whether any is still missing. */
export interface TranslationRound {
  filled: Partial<Record<MissingTranslation['field'], string>>;
  incomplete: boolean;
}

/** Asks the provider for every missing field at once; a failed or refused answer leaves its field missing. */
export async function translateMissing(provider: TranslationProvider, missing: MissingTranslation[], timeoutMs: number, logger?: Logger): Promise<TranslationRound> {
  const answers = await Promise.allSettled(missing.map((item) => provider.translate(item.source, item.target, item.format, timeoutMs)));
  const filled: TranslationRound['filled'] = {};
  answers.forEach((answer, index) => {
    const item = missing[index];
    const accepted = answer.status === 'fulfilled' ? acceptedTranslation(item, answer.value) : null;
    if (accepted !== null) filled[item.field] = accepted;
    else logger?.warn({ field: item.field, reason: answer.status === 'rejected' ? String(answer.reason?.message ?? answer.reason) : 'refused answer' }, 'translation failed');
  });
  return { filled, incomplete: Object.keys(filled).length < missing.length };
}

/**
 * Fills the Thai and Chinese text of notifications given in English only: at create when the provider
 * answers in time, else later by the `notification.translate` job (retried, then dead-lettered; the
 * notification keeps its English). Without a provider nothing is translated and no job is queued.
 */
export class NotificationTranslator {
  constructor(
    readonly provider: TranslationProvider | null,
    private readonly boss: PgBoss,
    private readonly logger?: Logger,
  ) {}

  /** The translations of a notification about to be created, and whether the job must finish them. */
  async atCreate(texts: NotificationTexts): Promise<TranslationRound> {
    const missing = missingTranslations(texts);
    if (!this.provider || missing.length === 0) return { filled: {}, incomplete: false };
    return translateMissing(this.provider, missing, TRANSLATE_AT_CREATE_TIMEOUT_MS, this.logger);
  }

  /** Queues the job for the notification, in the transaction that creates it. */
  async queue(em: EntityManager, notificationId: string): Promise<void> {
    await this.boss.send(TRANSLATE_QUEUE, { notificationId }, { db: inTransaction(em) });
  }
}

/**
 * One run of the job: translates what the notification still misses and writes each field only if it
 * is still empty and its English unchanged (an edit made meanwhile wins). Throws while any field is
 * missing, so that the queue tries again. A deleted notification is done with.
 */
export async function completeTranslations(orm: MikroORM<PostgreSqlDriver>, provider: TranslationProvider, notificationId: string, logger?: Logger): Promise<void> {
  const em = orm.em.fork();
  const notification = await em.findOne(InAppNotification, { id: notificationId });
  if (!notification) return;
  const missing = missingTranslations(notification);
  if (missing.length === 0) return;
  const round = await translateMissing(provider, missing, TRANSLATE_IN_JOB_TIMEOUT_MS, logger);
  for (const item of missing) {
    const value = round.filled[item.field];
    if (value === undefined) continue;
    await em.execute(
      `update notification.in_app_notification set ${item.field} = ?, updated_at = now()
        where id = ? and (${item.field} is null or ${item.field} = '') and ${item.name}_en = ?`,
      [value, notificationId, item.source],
    );
  }
  if (round.incomplete) throw new Error(`notification ${notificationId}: ${missing.length - Object.keys(round.filled).length} translation(s) still missing`);
}
