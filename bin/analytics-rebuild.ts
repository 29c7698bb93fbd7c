import 'reflect-metadata';
import { resolveDatabase } from '../core/db/database';
import { openModuleOrm } from '../core/module';
import { analyticsModule } from '../subgraphs/analytics/module';
import { rebuildReadModel } from '../subgraphs/analytics/services/rebuild';
import { loadPlatformConfig } from '../subgraphs/registry';

/**
 * `npm run analytics:rebuild`: empties the analytics read model and replays every domain's history from
 * its outbox into it (safe while the platform runs). Works on DATABASE_URL, or on the embedded database
 * under DATA_DIR.
 */
async function main(): Promise<void> {
  const database = await resolveDatabase(loadPlatformConfig());
  const orm = await openModuleOrm(analyticsModule, database.url);
  try {
    const started = Date.now();
    const result = await rebuildReadModel(orm, (source, events) => {
      if (events % 100_000 === 0) console.log(`${source}: ${events} events`);
    });
    console.log(`Rebuilt the analytics read model from ${result.applied} events in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
    console.table(result.events);
  } finally {
    await orm.close();
    await database.stop();
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
