import { MikroORM, ReflectMetadataProvider } from '@mikro-orm/core';
import { PostgreSqlDriver } from '@mikro-orm/postgresql';
import { moduleNamed } from '../subgraphs/registry';
import { Staff } from '../subgraphs/auth/entities/staff';
import { OutboxEvent } from '../core/events/outbox-event';
import { startBenchTarget, STAFF_SELECT } from './target';
async function m(name: string, op: () => Promise<unknown>) {
  const N = 4000; const run = async (n: number) => { let i = 0; await Promise.all(Array.from({ length: 10 }, async () => { while (i++ < n) await op(); })); };
  await run(1500); const c = process.cpuUsage(); await run(N); const u = process.cpuUsage(c);
  console.log(name.padEnd(50), ((u.user + u.system) / N).toFixed(0));
}
(async () => {
  const { platform, pool, staffId } = await startBenchTarget();
  const mk = (extra: any) => MikroORM.init<PostgreSqlDriver>({ driver: PostgreSqlDriver, clientUrl: platform.databaseUrl, schema: 'auth', entities: [...moduleNamed('auth')!.entities, OutboxEvent], metadataProvider: ReflectMetadataProvider, discovery: { warnWhenNoEntities: false }, forceUtcTimezone: true, ...extra });
  const a = await mk({});
  const b = await mk({ autoJoinRefsForFilters: false, filtersOnRelations: false });
  for (let r = 0; r < 2; r++) {
    await m('pg', () => pool.query(STAFF_SELECT, [staffId]));
    await m('default findOne', () => a.em.fork().findOne(Staff, { id: staffId, deletedAt: null }));
    await m('no filter joins findOne', () => b.em.fork().findOne(Staff, { id: staffId, deletedAt: null }));
    await m('findOne filters:false', () => a.em.fork().findOne(Staff, { id: staffId, deletedAt: null }, { filters: false }));
    await m('execute + map', async () => { const em = a.em.fork(); const rows = await em.getConnection().execute('select * from auth.staff where id = ? and deleted_at is null limit 1', [staffId]); return rows[0] && em.map(Staff, rows[0]); });
    await m('qb', () => a.em.fork().createQueryBuilder(Staff).select('*').where({ id: staffId, deletedAt: null }).getSingleResult());
  }
  await a.close(); await b.close(); await pool.end(); await platform.close();
})();
