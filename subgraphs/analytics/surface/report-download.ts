import { SignedDownload } from '../../../core/rest/surface';
import { REPORT_DOWNLOAD } from '../contract';

/** A report's CSV, at its signed download URL (the report's `download_url`) until the URL expires. */
export const REPORT_FILE_DOWNLOAD: SignedDownload = {
  ...REPORT_DOWNLOAD,
  contentType: 'text/csv; charset=utf-8',
  filename: (reportId) => `report-${reportId}.csv`,
  invalid: 'The download URL is not valid or has expired: read the report again for a new one',
  gone: { code: 'REPORT_NOT_FOUND', message: 'The report file is no longer kept' },
};
