import { chmod, mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';

/**
 * What the platform writes under DATA_DIR (the mail and SMS outboxes with live reset codes, report CSVs,
 * uploads, generated secrets) is for its own OS user only: files 0600, directories 0700. DATA_DIR itself
 * keeps its mode: the embedded PostgreSQL, run as another user, lives beneath it.
 */
export const PRIVATE_FILE_MODE = 0o600;
export const PRIVATE_DIRECTORY_MODE = 0o700;

/**
 * Creates `directory` and whatever is missing between `root` and it owner-only (the parents of `root` as
 * usual), and makes `root` owner-only if it existed already (an older version created it readable by
 * all): whatever was written beneath it before is then out of other users' reach too. A `root` the
 * platform does not own (a mounted volume) keeps the mode its operator gave it.
 */
export async function privateDirectory(root: string, directory = root): Promise<void> {
  await mkdir(dirname(root), { recursive: true });
  await mkdir(directory, { recursive: true, mode: PRIVATE_DIRECTORY_MODE });
  try {
    await chmod(root, PRIVATE_DIRECTORY_MODE);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') throw error;
  }
}
