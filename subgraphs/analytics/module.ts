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
import { removeExpiredReports, writeReport } from './services/report-writer';
import { AnalyticsSettings, parseAnalyticsSettings } from './settings';

/** Analytics: a read model fed by the other domains' events, Part 3's figures and dashboard, CSV reports. */
export const analyticsModule = defineModule<AnalyticsSettings, AnalyticsDeps, ReturnType<typeof analyticsServices>>({
  contract: ANALYTICS,
  defaultPort: 4009,
  entities: [Report],
  migrations: analyticsMigrations,
  resolvers: [AnalyticsResolver],
  services: analyticsServices,
  settings: parseAnalyticsSettings,
  environment: ['ANALYTICS_POINT_VALUE', 'ANALYTICS_REPORT_TTL_HOURS'],
  deps: analyticsDeps,
  supergraphOperations: ANALYTICS_SUPERGRAPH_OPERATIONS,
  consumers: [{ queue: ANALYTICS_READ_MODEL_QUEUE, events: ANALYTICS_EVENTS, apply: applyAnalyticsEvent, batchSize: 100 }],
  // The report job: one report at a time per process, retried by the queue's policy.
  onStart: async ({ orm, boss, logger, databaseUrl, deps }) => {
    await ensureQueue(boss, databaseUrl, REPORT_QUEUE, { retryLimit: 3, retryDelay: 30 });
    await workOn<{ reportId: string }>(boss, REPORT_QUEUE, { batchSize: 1, pollingIntervalSeconds: 0.5 }, async ([job]) => {
      await writeReport({ orm, storage: deps.storage, supergraph: deps.supergraph, ttlHours: deps.settings.reportTtlHours, logger }, job.data.reportId);
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
