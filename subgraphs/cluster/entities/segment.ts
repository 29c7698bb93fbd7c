import { Entity, Enum, OptionalProps, Property } from '@mikro-orm/core';
import { Authorized, Directive, Field, Float, ID, Int, ObjectType } from 'type-graphql';
import { DescribedCatalogEntity } from '../../../core/catalog/catalog-entity';
import { EnumValue, graphqlEnum } from '../../../core/graphql/enum';
import { CLUSTER } from '../contract';

/**
 * `manual`: staff pick the members (cluster.segment_member). `rule`: the members are whoever matches
 * the rule when the segment is read. Part 3's `ai` is not built (see subgraphs/cluster/DECISIONS.md).
 */
export const SegmentType = graphqlEnum('SegmentType', ['manual', 'rule'], 'manual: picked members; rule: members matching the rule when read');
export type SegmentType = EnumValue<typeof SegmentType>;

/** The criteria of a rule segment (stored as jsonb); every given criterion must hold. */
@ObjectType()
export class SegmentRule {
  @Field(() => [ID], { nullable: true, description: "The member's current tier (tier projection) is one of these" }) tierIds?: string[] | null;
  @Field(() => Float, { nullable: true, description: 'Point balance, as last announced by point events, is at least this' }) minPoints?: number | null;
  @Field(() => Float, { nullable: true, description: 'Point balance, as last announced by point events, is at most this' }) maxPoints?: number | null;
  @Field(() => Int, { nullable: true, description: 'The latest point event of the member is at most this many days old' }) activeWithinDays?: number | null;
  @Field(() => Int, { nullable: true, description: 'The member was born in this month (1..12), from auth member.profile_changed events' })
  birthdayMonth?: number | null;
}

/**
 * A group of members for targeting: localized name and description, manual or rule-based. A
 * federation entity: other subgraphs (a campaign's target) refer to it by id; whoever reads the
 * referring object reads its names and type, while its rule (and member count) need `segment:read`.
 */
@Directive('@key(fields: "id")')
@ObjectType()
@Entity({ tableName: 'segment' })
export class Segment extends DescribedCatalogEntity {
  [OptionalProps]?: 'name_th' | 'name_cn' | 'description_en' | 'description_th' | 'description_cn' | 'rule' | 'createdAt' | 'updatedAt' | 'deletedAt';

  @Field(() => SegmentType) @Enum({ items: () => SegmentType }) type: SegmentType;
  @Authorized(CLUSTER.permissions.segmentRead)
  @Field(() => SegmentRule, { nullable: true, description: 'The criteria of a rule segment; null for a manual one (segment:read)' })
  @Property({ type: 'jsonb', nullable: true })
  rule: SegmentRule | null = null;
}
