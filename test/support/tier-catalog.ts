import { Pool } from 'pg';
import { waitFor } from './wait-for';

/**
 * Announces tiers a test wrote with SQL as the cluster announces its own writes (`tier.catalog_changed`
 * in its outbox, aggregate: the tier), then waits until auth's tier catalog holds each of them as written.
 */
export async function announceTiers(sql: Pool, tierIds: string[]): Promise<void> {
  await sql.query(
    `insert into cluster.outbox_event (id, type, payload, aggregate_id, occurred_at)
     select gen_random_uuid(), 'tier.catalog_changed',
       jsonb_build_object('tierId', id, 'name_en', name_en, 'name_th', name_th, 'name_cn', name_cn, 'level', level,
         'isActive', is_active, 'isSpecial', is_special, 'createdAt', created_at, 'deletedAt', deleted_at),
       id::text, now()
     from cluster.tier where id = any($1)`,
    [tierIds],
  );
  await waitFor(
    async () =>
      (
        await sql.query(
          `select count(*)::int as known from cluster.tier t join auth.tier_catalog c on c.tier_id = t.id
           where t.id = any($1) and c.level = t.level and c.is_active = t.is_active and c.deleted_at is not distinct from t.deleted_at`,
          [tierIds],
        )
      ).rows[0].known === tierIds.length,
    "auth's tier catalog to hold the announced tiers",
  );
}
