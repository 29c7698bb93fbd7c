import { RequestHandler } from 'express';
import { pipeline } from 'node:stream/promises';
import { Config } from '../core/config';
import { isRecordId } from '../core/ids';
import { Logger } from '../core/logger';
import { objectStorageIn } from '../core/storage/object-storage';
import { UrlSigner } from '../core/storage/signed-url';
import { REPORT_DOWNLOAD } from '../subgraphs/analytics/contract';
import { v1ErrorBody } from './v1/errors';

/** The route of a report's signed download URL (no token: the signature is the credential). */
export const REPORT_DOWNLOAD_ROUTE = REPORT_DOWNLOAD.path(':id');

/**
 * Serves a report's CSV to whoever holds its signed URL, until the URL expires: 403 `INVALID_SIGNATURE`
 * for a URL that is not signed, was changed or has expired; 404 `REPORT_NOT_FOUND` once the file is gone.
 */
export function reportDownload(config: Pick<Config, 'jwtSecret' | 'dataDir'>, logger: Logger): RequestHandler {
  const signer = new UrlSigner(config.jwtSecret, REPORT_DOWNLOAD.purpose);
  const storage = objectStorageIn(config.dataDir);
  return async (req, res) => {
    const id = String(req.params.id);
    if (!isRecordId(id) || !signer.verify(REPORT_DOWNLOAD.path(id), req.query.expires, req.query.signature)) {
      res.status(403).json(v1ErrorBody('INVALID_SIGNATURE', 'The download URL is not valid or has expired: read the report again for a new one'));
      return;
    }
    const file = await storage.read(`reports/${id}.csv`);
    if (!file) {
      res.status(404).json(v1ErrorBody('REPORT_NOT_FOUND', 'The report file is no longer kept'));
      return;
    }
    res.set({
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="report-${id}.csv"`,
      'Cache-Control': 'private, no-store',
      'X-Content-Type-Options': 'nosniff',
    });
    try {
      await pipeline(file, res);
    } catch (error) {
      logger.warn({ err: error, reportId: id }, 'report download interrupted');
    }
  };
}
