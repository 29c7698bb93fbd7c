import express, { Request, RequestHandler, Response } from 'express';
import { fileTypeFromBuffer } from 'file-type';
import multer, { MulterError } from 'multer';
import { extname } from 'node:path';
import { Writable } from 'node:stream';
import { AppError, FieldError, validationError } from '../core/errors';
import { FileStorage, IMAGE_TYPES, ImageExtension } from '../core/storage/file-storage';

/** A file field of a route. Every file must be a PNG, JPEG, WebP or GIF image, told from its content. */
export interface UploadField {
  name: string;
  maxCount?: number;
  required?: boolean;
}

/** At most this many bytes per file... */
export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;
/** ...and this many for a whole multipart request (its files, text fields and framing together). */
export const MAX_REQUEST_UPLOAD_BYTES = 20 * 1024 * 1024;

/** Stored file URLs by field name: one URL, or a list when the field takes several files. */
export type Uploads = Record<string, string | string[]>;

/** multer 2.5's `streamHandler` option (feeds the request to busboy), which @types/multer does not declare yet. */
interface ParseOptions extends multer.Options {
  streamHandler: (req: Request, busboy: Writable) => void;
}

/**
 * Parses multipart/form-data within the size bounds, checks the declared file fields, tells each file's
 * type from its bytes, stores the files and leaves their URLs on `res.locals.uploads`; text fields stay
 * on `req.body` as strings for the variable coercion. Malformed multipart is 400 on `body`. Runs after
 * the route's token and access checks, so a refused caller never stores a file.
 */
export function uploadHandler(fields: UploadField[], storage: FileStorage): RequestHandler[] {
  const options: ParseOptions = {
    storage: multer.memoryStorage(),
    limits: { fileSize: MAX_UPLOAD_BYTES, files: 20, fields: 200 },
    streamHandler: boundedStream,
  };
  const parse = multer(options).fields(fields.map((field) => ({ name: field.name, maxCount: field.maxCount ?? 1 })));
  const parseWithFieldErrors: RequestHandler = (req, res, next) =>
    parse(req, res, (error?: unknown) => {
      if (!error || error instanceof AppError) return next(error);
      if (error instanceof MulterError) return next(validationError([{ field: error.field ?? 'file', message: multerMessage(error) }]));
      // busboy's errors (no boundary, a truncated part, no closing delimiter) and an aborted request.
      const reason = error instanceof Error ? error.message : String(error);
      next(validationError([{ field: 'body', message: `not a valid multipart/form-data body: ${reason}` }], 'Malformed multipart body'));
    });
  const store: RequestHandler = async (req, res, next) => {
    const files = (req.files ?? {}) as Record<string, Express.Multer.File[]>;
    const errors: FieldError[] = [];
    const typed = new Map<Express.Multer.File, ImageExtension>();
    for (const field of fields) {
      const given = files[field.name] ?? [];
      if (field.required && given.length === 0) errors.push({ field: field.name, message: `${field.name} file is required` });
      for (const file of given) {
        const extension = await imageExtensionOf(file.buffer);
        if (extension) typed.set(file, extension);
        else errors.push({ field: field.name, message: `${field.name} must be a PNG, JPEG, WebP or GIF image` });
      }
    }
    if (errors.length > 0) return next(validationError(errors));
    const stored: string[] = [];
    res.locals.storedFiles = stored;
    const uploads: Uploads = {};
    try {
      for (const field of fields) {
        const urls: string[] = [];
        for (const file of files[field.name] ?? []) {
          const url = await storage.save({ buffer: file.buffer, extension: typed.get(file)! });
          stored.push(url);
          urls.push(url);
        }
        if (urls.length > 0) uploads[field.name] = (field.maxCount ?? 1) > 1 ? urls : urls[0];
      }
    } catch (error) {
      await discardUploads(res, storage);
      return next(error);
    }
    res.locals.uploads = uploads;
    next();
  };
  return [parseWithFieldErrors, store];
}

/** Removes every file this request stored: called when the request fails before its operation succeeded. */
export async function discardUploads(res: Response, storage: FileStorage): Promise<void> {
  const stored: string[] = res.locals.storedFiles ?? [];
  res.locals.storedFiles = [];
  // A file that cannot be removed stays behind unreferenced; the request's own error is what the client needs.
  await Promise.allSettled(stored.map((url) => storage.remove(url)));
}

/**
 * Serves stored files under their stored type (application/octet-stream, as a download, for anything
 * that is not one of the image types), never sniffed by the browser and sandboxed, so a file can never
 * run as a page on the API's origin. No directory listings; dotfiles are as absent as missing files.
 */
export function serveFiles(directory: string): RequestHandler[] {
  const safetyHeaders: RequestHandler = (_req, res, next) => {
    res.set({ 'X-Content-Type-Options': 'nosniff', 'Content-Security-Policy': "default-src 'none'; sandbox" });
    next();
  };
  const files = express.static(directory, {
    index: false,
    redirect: false,
    dotfiles: 'ignore',
    maxAge: '365d',
    immutable: true,
    setHeaders: (res, path) => {
      const extension = extname(path).slice(1).toLowerCase();
      const image = isImageExtension(extension);
      res.setHeader('Content-Type', image ? IMAGE_TYPES[extension] : 'application/octet-stream');
      if (!image) res.setHeader('Content-Disposition', 'attachment');
    },
  });
  return [safetyHeaders, files];
}

/** The image type of a file from its magic bytes (an animated PNG is a PNG), or undefined for anything else. */
async function imageExtensionOf(buffer: Buffer): Promise<ImageExtension | undefined> {
  const detected = await fileTypeFromBuffer(buffer);
  const extension = detected?.ext === 'apng' ? 'png' : detected?.ext;
  return extension && isImageExtension(extension) ? extension : undefined;
}

const isImageExtension = (extension: string): extension is ImageExtension => Object.hasOwn(IMAGE_TYPES, extension);

/**
 * Pipes the request to busboy, counting its bytes: past MAX_REQUEST_UPLOAD_BYTES, parsing stops with a
 * 400 on the file field being read (or `body`); multer then drops what it buffered and drains the request.
 */
function boundedStream(req: Request, busboy: Writable): void {
  let received = 0;
  let field = 'body';
  busboy.on('file', (name: string) => (field = name));
  req.on('data', (chunk: Buffer) => {
    received += chunk.length;
    if (received <= MAX_REQUEST_UPLOAD_BYTES || busboy.destroyed) return;
    req.unpipe(busboy);
    busboy.destroy(validationError([{ field, message: `the upload is larger than ${MAX_REQUEST_UPLOAD_BYTES / 1024 / 1024} MB in total` }]));
  });
  req.pipe(busboy);
}

function multerMessage(error: MulterError): string {
  switch (error.code) {
    case 'LIMIT_FILE_SIZE':
      return `file is larger than ${MAX_UPLOAD_BYTES / 1024 / 1024} MB`;
    case 'LIMIT_UNEXPECTED_FILE':
      return 'unexpected file field, or too many files';
    default:
      return error.message;
  }
}
