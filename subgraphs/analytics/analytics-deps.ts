import { ModuleStart } from '../../core/module';
import { ObjectStorage, objectStorageIn } from '../../core/storage/object-storage';
import { UrlSigner } from '../../core/storage/signed-url';
import { REPORT_DOWNLOAD } from './contract';
import { AnalyticsSupergraph } from './services/analytics-supergraph';
import { ReportAccess } from './services/report.service';
import { AnalyticsSettings } from './settings';

/** What the analytics services and jobs need besides a unit of work. */
export interface AnalyticsDeps {
  settings: AnalyticsSettings;
  /** Segments, through the supergraph as the analytics service. */
  supergraph: AnalyticsSupergraph;
  /** The report job's queue, the signer of download URLs and the public base they start with. */
  reports: ReportAccess;
  /** Where report files are written (DATA_DIR/objects, read by the REST adapter's download route). */
  storage: ObjectStorage;
}

export const analyticsDeps = ({ config, gateway, settings, boss }: ModuleStart<AnalyticsSettings>): AnalyticsDeps => ({
  settings,
  supergraph: AnalyticsSupergraph.over(config, gateway),
  reports: { boss, signer: new UrlSigner(config.jwtSecret, REPORT_DOWNLOAD.purpose), publicUrl: config.publicUrl },
  storage: objectStorageIn(config.dataDir),
});
