import { ensureQueue, workOn } from '../../../core/events/job-queue';
import { DomainContext } from '../../../core/module';
import { NotificationDeps } from '../notification-deps';
import { NotificationSettings } from '../settings';
import { completeTranslations, TRANSLATE_QUEUE } from './notification-translation';

/**
 * The `notification.translate` queue (TRANSLATE_RETRY_LIMIT tries, TRANSLATE_RETRY_DELAY_SECONDS apart and
 * doubling, then `notification.translate.dead-letter`, the notification left in English) and its worker.
 * A process without a provider neither queues nor works translations: the jobs wait for one that has.
 */
export async function startTranslationWorker({ boss, databaseUrl, orm, settings, deps, logger }: DomainContext<NotificationSettings, NotificationDeps>): Promise<void> {
  const provider = deps.translator.provider;
  if (!provider) return;
  await ensureQueue(boss, databaseUrl, TRANSLATE_QUEUE, { retryLimit: settings.translateRetryLimit, retryDelay: settings.translateRetryDelaySeconds });
  await workOn<{ notificationId: string }>(boss, TRANSLATE_QUEUE, { batchSize: 1, pollingIntervalSeconds: 0.5 }, async ([job]) => {
    try {
      await completeTranslations(orm, provider, job.data.notificationId, logger);
    } catch (error) {
      logger.warn({ err: error, queue: TRANSLATE_QUEUE, notificationId: job.data.notificationId, retryCount: job.retryCount }, 'notification translation failed');
      throw error;
    }
  });
}
