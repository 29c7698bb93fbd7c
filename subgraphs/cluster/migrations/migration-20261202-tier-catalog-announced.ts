import { Migration } from '@mikro-orm/migrations';

/**
 * Tier writes announce the tier (`tier.catalog_changed`, aggregate: the tier): one such event for every
 * tier already there (deleted ones too), so that auth's tier catalog starts with the whole catalog.
 */
export class Migration20261202ClusterTierCatalogAnnounced extends Migration {
  async up(): Promise<void> {
    this.addSql(`
      insert into cluster.outbox_event (id, type, payload, aggregate_id, occurred_at)
      select gen_random_uuid(), 'tier.catalog_changed',
        jsonb_build_object(
          'tierId', id, 'name_en', name_en, 'name_th', name_th, 'name_cn', name_cn, 'level', level,
          'isActive', is_active, 'isSpecial', is_special,
          'createdAt', to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
          'deletedAt', to_char(deleted_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')
        ),
        id::text, now()
      from cluster.tier
      order by created_at, id;`);
  }
}
