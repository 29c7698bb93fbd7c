import { Entity, PrimaryKey, Property } from '@mikro-orm/core';

/**
 * A cluster tier as auth knows it, from the cluster's `tier.catalog_changed` events
 * (services/tier-catalog.ts): its names, and what tells the entry tier. Read by the member list's tier filter.
 */
@Entity({ tableName: 'tier_catalog' })
export class TierCatalogEntry {
  @PrimaryKey({ type: 'uuid' }) tierId: string;
  @Property({ type: 'text', nullable: true }) name_en: string | null;
  @Property({ type: 'text', nullable: true }) name_th: string | null;
  @Property({ type: 'text', nullable: true }) name_cn: string | null;
  @Property() level: number;
  @Property() isActive: boolean;
  @Property() isSpecial: boolean;
  @Property({ type: 'timestamptz' }) createdAt: Date;
  @Property({ type: 'timestamptz', nullable: true }) deletedAt: Date | null;
}
