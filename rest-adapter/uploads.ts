import { NextFunction, Request, RequestHandler, Response } from 'express';
import multer, { MulterError } from 'multer';
import { FieldError, validationError } from '../core/errors';
import { FileStorage } from '../core/storage/file-storage';

export interface UploadField {
  name: string;
  maxCount?: number;
  required?: boolean;
  /** Accepted MIME types, e.g. /^image\// */
  accept?: RegExp;
}

export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;

/** Stored file URLs by field name: one URL, or a list when the field takes several files. */
export type Uploads = Record<string, string | string[]>;

/**
 * Parses multipart/form-data, checks the declared file fields, stores the files and leaves their URLs
 * on `res.locals.uploads`; text fields stay on `req.body` as strings for the variable coercion.
 */
export function uploadHandler(fields: UploadField[], storage: FileStorage): RequestHandler[] {
  const parse = multer({ storage: multer.memoryStorage(), limits: { fileSize: MAX_UPLOAD_BYTES, files: 20, fields: 200 } }).fields(
    fields.map((field) => ({ name: field.name, maxCount: field.maxCount ?? 1 })),
  );
  const parseWithFieldErrors: RequestHandler = (req, res, next) =>
    parse(req, res, (error?: unknown) => {
      if (error instanceof MulterError) return next(validationError([{ field: error.field ?? 'file', message: multerMessage(error) }]));
      next(error);
    });
  const store = async (req: Request, res: Response, next: NextFunction) => {
    const files = (req.files ?? {}) as Record<string, Express.Multer.File[]>;
    const errors: FieldError[] = [];
    for (const field of fields) {
      const given = files[field.name] ?? [];
      if (field.required && given.length === 0) errors.push({ field: field.name, message: `${field.name} file is required` });
      for (const file of given) {
        if (field.accept && !field.accept.test(file.mimetype)) errors.push({ field: field.name, message: `${field.name} has an unsupported file type ${file.mimetype}` });
      }
    }
    if (errors.length > 0) return next(validationError(errors));
    const uploads: Uploads = {};
    try {
      for (const field of fields) {
        const urls = await Promise.all((files[field.name] ?? []).map((file) => storage.save(file)));
        if (urls.length > 0) uploads[field.name] = (field.maxCount ?? 1) > 1 ? urls : urls[0];
      }
    } catch (error) {
      return next(error);
    }
    res.locals.uploads = uploads;
    next();
  };
  return [parseWithFieldErrors, store];
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
