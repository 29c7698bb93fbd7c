import { createReadStream, createWriteStream } from 'node:fs';
import { rename, rm, stat } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { PRIVATE_FILE_MODE, privateDirectory } from '../private-files';

/**
 * Files the platform writes itself (reports), by key, streamed both ways so that their size never sits
 * in memory. Not served as they are: whoever serves one checks the caller first (a signed URL).
 */
export interface ObjectStorage {
  /** Stores what `content` streams under `key` (replacing it); the object appears whole or not at all. */
  write(key: string, content: Readable): Promise<{ bytes: number }>;
  /** The object's content, or null when there is none. */
  read(key: string): Promise<Readable | null>;
  /** Removes the object; an unknown key is ignored. */
  remove(key: string): Promise<void>;
}

const KEY = /^[a-z0-9][a-z0-9._-]*(\/[a-z0-9][a-z0-9._-]*)*$/;

/** Objects as files under a local directory (DATA_DIR/objects by default), owner-only: every process of the platform on the machine (or on a shared volume) sees them. */
export class LocalObjectStorage implements ObjectStorage {
  private readonly root: string;

  constructor(directory: string) {
    this.root = resolve(directory);
  }

  private pathOf(key: string): string {
    if (!KEY.test(key) || key.includes('..')) throw new Error(`Not a storage key: ${key}`);
    const path = resolve(this.root, key);
    if (!path.startsWith(this.root + sep)) throw new Error(`Not a storage key: ${key}`);
    return path;
  }

  async write(key: string, content: Readable): Promise<{ bytes: number }> {
    const path = this.pathOf(key);
    await privateDirectory(this.root, dirname(path));
    const partial = `${path}.partial`;
    try {
      await pipeline(content, createWriteStream(partial, { mode: PRIVATE_FILE_MODE }));
      await rename(partial, path);
    } catch (error) {
      await rm(partial, { force: true });
      throw error;
    }
    return { bytes: (await stat(path)).size };
  }

  async read(key: string): Promise<Readable | null> {
    const path = this.pathOf(key);
    try {
      await stat(path);
    } catch {
      return null;
    }
    return createReadStream(path);
  }

  async remove(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }
}

/** The platform's object storage under DATA_DIR. */
export const objectStorageIn = (dataDir: string): ObjectStorage => new LocalObjectStorage(join(dataDir, 'objects'));
