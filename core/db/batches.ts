import { MikroORM } from '@mikro-orm/core';
import { EntityManager, PostgreSqlDriver } from '@mikro-orm/postgresql';

/**
 * Runs `batch` (which handles up to `batchSize` rows and says how many) again and again, each run in a
 * transaction of its own, until one handles fewer than `batchSize`; returns how many in all.
 */
export async function inBatches(orm: MikroORM<PostgreSqlDriver>, batchSize: number, batch: (em: EntityManager) => Promise<number>): Promise<number> {
  let total = 0;
  for (;;) {
    const handled = await orm.em.fork().transactional(batch);
    total += handled;
    if (handled < batchSize) return total;
  }
}
