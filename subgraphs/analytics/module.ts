import { ensureQueue, workOn } from '../../core/events/job-queue';
import { defineModule } from '../../core/module';
import { Report } from './entities/report';
import { analyticsDeps, AnalyticsDeps } from './analytics-deps';
import { analyticsServices } from './context';
import { ANALYTICS } from './contract';
import { analyticsMigrations } from './migrations';
import { AnalyticsResolver } from './resolvers/analytics.resolver';
import { ANALYTICS_SUPERGRAPH_OPERATIONS } from './services/analytics-supergraph';
import { ANALYTICS_EVENTS, ANALYTICS_READ_MODEL_QUEUE, applyAnalyticsEvent } from './services/read-model';
import { REPORT_QUEUE } from './services/report.service';
import { markReportFailed, removeExpiredReports, writeReport } from './services/report-writer';
import { AnalyticsSettings, parseAnalyticsSettings } from './settings';
import { ANALYTICS_SURFACE } from './surface';

/** Analytics: a read model fed by the other domains' events, Part 3's figures and dashboard, CSV reports. */
export const analyticsModule = defineModule<AnalyticsSettings, AnalyticsDeps, ReturnType<typeof analyticsServices>>({
  contract: ANALYTICS,
  defaultPort: 4009,
  entities: [Report],
  migrations: analyticsMigrations,
  resolvers: [AnalyticsResolver],
  services: analyticsServices,
  settings: parseAnalyticsSettings,
  environment: ['ANALYTICS_POINT_VALUE', 'ANALYTICS_REPORT_TTL_HOURS', 'ANALYTICS_REPORT_RETRY_LIMIT', 'ANALYTICS_REPORT_RETRY_DELAY_SECONDS'],
  deps: analyticsDeps,
  supergraphOperations: ANALYTICS_SUPERGRAPH_OPERATIONS,
  surface: ANALYTICS_SURFACE,
  consumers: [{ queue: ANALYTICS_READ_MODEL_QUEUE, events: ANALYTICS_EVENTS, apply: applyAnalyticsEvent, batchSize: 100 }],
  // The report job: one report at a time per process, retried by the queue's policy; the last try's
  // failure marks the report failed (the job then goes to the dead-letter queue).
  onStart: async ({ orm, boss, logger, databaseUrl, deps, settings }) => {
    await ensureQueue(boss, databaseUrl, REPORT_QUEUE, { retryLimit: settings.reportRetryLimit, retryDelay: settings.reportRetryDelaySeconds });
    await workOn<{ reportId: string }>(boss, REPORT_QUEUE, { batchSize: 1, pollingIntervalSeconds: 0.5 }, async ([job]) => {
      try {
        await writeReport({ orm, storage: deps.storage, supergraph: deps.supergraph, ttlHours: settings.reportTtlHours, logger }, job.data.reportId);
      } catch (error) {
        const last = job.retryCount >= job.retryLimit;
        logger.warn({ err: error, queue: REPORT_QUEUE, reportId: job.data.reportId, retryCount: job.retryCount, last }, 'report not written');
        if (last) await markReportFailed(orm, job.data.reportId, 'the report could not be written');
        throw error;
      }
    });
  },
  jobs: [
    {
      queue: 'analytics.report-expiry',
      cron: '*/10 * * * *',
      run: async ({ orm, deps, logger }) => {
        const removed = await removeExpiredReports({ orm, storage: deps.storage });
        if (removed > 0) logger.info({ removed }, 'expired report files removed');
      },
    },
  ],
});
