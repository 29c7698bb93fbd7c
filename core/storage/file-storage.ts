import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { extname, join } from 'node:path';

export interface StoredFileInput {
  buffer: Buffer;
  originalname: string;
}

/** Where uploaded files go; returns the URL a client can fetch the file from. */
export interface FileStorage {
  save(file: StoredFileInput): Promise<string>;
}

/** Files on local disk under DATA_DIR, served by the REST adapter at `/files/...`. */
export class LocalFileStorage implements FileStorage {
  constructor(
    readonly directory: string,
    private readonly publicUrl: string,
  ) {}

  async save(file: StoredFileInput): Promise<string> {
    const now = new Date();
    const folder = `${now.getUTCFullYear()}/${String(now.getUTCMonth() + 1).padStart(2, '0')}`;
    const extension = extname(file.originalname).toLowerCase().replace(/[^.a-z0-9]/g, '').slice(0, 10);
    const key = `${folder}/${randomUUID()}${extension}`;
    await mkdir(join(this.directory, folder), { recursive: true });
    await writeFile(join(this.directory, key), file.buffer);
    return `${this.publicUrl}/files/${key}`;
  }
}
