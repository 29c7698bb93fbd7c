import { randomUUID } from 'node:crypto';
import { rm, writeFile } from 'node:fs/promises';
import { join, resolve, sep } from 'node:path';
import { PRIVATE_FILE_MODE, privateDirectory } from '../private-files';

/** The only types an upload may have, by the extension it is stored and served under. */
export const IMAGE_TYPES = { png: 'image/png', jpg: 'image/jpeg', webp: 'image/webp', gif: 'image/gif' } as const;
export type ImageExtension = keyof typeof IMAGE_TYPES;

export interface StoredFileInput {
  buffer: Buffer;
  /** Told from the file's content, never from the client's name or Content-Type. */
  extension: ImageExtension;
}

/** Where uploaded files go; `save` returns the URL a client can fetch the file from. */
export interface FileStorage {
  save(file: StoredFileInput): Promise<string>;
  /** Removes a file `save` stored (a request that failed after storing it); an unknown URL is ignored. */
  remove(url: string): Promise<void>;
}

/** Files on local disk under DATA_DIR (owner-only: the REST adapter's own process serves them at `/files/...`). */
export class LocalFileStorage implements FileStorage {
  constructor(
    readonly directory: string,
    private readonly publicUrl: string,
  ) {}

  async save(file: StoredFileInput): Promise<string> {
    const now = new Date();
    const folder = `${now.getUTCFullYear()}/${String(now.getUTCMonth() + 1).padStart(2, '0')}`;
    const key = `${folder}/${randomUUID()}.${file.extension}`;
    await privateDirectory(this.directory, join(this.directory, folder));
    await writeFile(join(this.directory, key), file.buffer, { mode: PRIVATE_FILE_MODE });
    return `${this.publicUrl}/files/${key}`;
  }

  async remove(url: string): Promise<void> {
    const prefix = `${this.publicUrl}/files/`;
    if (!url.startsWith(prefix)) return;
    const root = resolve(this.directory);
    const path = resolve(root, url.slice(prefix.length));
    if (!path.startsWith(root + sep)) return;
    await rm(path, { force: true });
  }
}
