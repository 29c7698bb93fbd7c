import { EntityManager } from '@mikro-orm/postgresql';
import { RequestContext } from '../../core/context';
import { AnalyticsDeps } from './analytics-deps';
import { AnalyticsService } from './services/analytics.service';
import { ReportService } from './services/report.service';

/** The analytics services of one request, on its unit of work. */
export function analyticsServices(em: EntityManager, deps?: AnalyticsDeps) {
  return {
    analytics: new AnalyticsService(em, deps?.supergraph, deps?.settings.pointValue ?? '0.01'),
    reports: new ReportService(em, deps?.reports),
  };
}

export type AnalyticsContext = RequestContext<ReturnType<typeof analyticsServices>>;
