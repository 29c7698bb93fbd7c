import { RequestHandler } from 'express';
import { pipeline } from 'node:stream/promises';
import { Config } from '../core/config';
import { isRecordId } from '../core/ids';
import { Logger } from '../core/logger';
import { SignedDownload } from '../core/rest/surface';
import { objectStorageIn } from '../core/storage/object-storage';
import { UrlSigner } from '../core/storage/signed-url';
import { v1ErrorBody } from './v1/errors';

/**
 * Serves a domain's file to whoever holds its signed URL, until the URL expires: 403 `INVALID_SIGNATURE`
 * for a URL that is not signed, was changed or has expired; the download's `gone` 404 once the file is gone.
 */
export function signedDownload(download: SignedDownload, config: Pick<Config, 'jwtSecret' | 'dataDir'>, logger: Logger): RequestHandler {
  const signer = new UrlSigner(config.jwtSecret, download.purpose);
  const storage = objectStorageIn(config.dataDir);
  return async (req, res) => {
    const id = String(req.params.id);
    if (!isRecordId(id) || !signer.verify(download.path(id), req.query.expires, req.query.signature)) {
      res.status(403).json(v1ErrorBody('INVALID_SIGNATURE', download.invalid));
      return;
    }
    const file = await storage.read(download.file(id));
    if (!file) {
      res.status(404).json(v1ErrorBody(download.gone.code, download.gone.message));
      return;
    }
    res.set({
      'Content-Type': download.contentType,
      'Content-Disposition': `attachment; filename="${download.filename(id)}"`,
      'Cache-Control': 'private, no-store',
      'X-Content-Type-Options': 'nosniff',
    });
    try {
      await pipeline(file, res);
    } catch (error) {
      logger.warn({ err: error, download: download.purpose, id }, 'download interrupted');
    }
  };
}
