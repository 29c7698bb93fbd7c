import { Entity, OptionalProps, Property } from '@mikro-orm/core';
import { GraphQLJSON } from 'graphql-scalars';
import { Field, GraphQLISODateTime, ID, ObjectType } from 'type-graphql';
import { CatalogEntity } from '../../../core/catalog/catalog-entity';
import { EnumValue, graphqlEnum } from '../../../core/graphql/enum';

export const NotificationFormat = graphqlEnum('NotificationFormat', ['raw', 'html'], 'How the client renders the content: raw text, or HTML');
export type NotificationFormat = EnumValue<typeof NotificationFormat>;

export const NotificationType = graphqlEnum('NotificationType', ['promotion', 'points', 'tier', 'news', 'badge'], 'What a notification is about');
export type NotificationType = EnumValue<typeof NotificationType>;

export const PointSubtype = graphqlEnum(
  'NotificationPointSubtype',
  ['point_received', 'receipt_error', 'receipt_processing', 'point_nearly_expire', 'point_expired'],
  'The kind of a notification of type points',
);
export type PointSubtype = EnumValue<typeof PointSubtype>;

export const TierSubtype = graphqlEnum('NotificationTierSubtype', ['tier_upgraded', 'tier_adjusted', 'tier_renewal_reminder'], 'The kind of a notification of type tier');
export type TierSubtype = EnumValue<typeof TierSubtype>;

/** The localized triples of a notification, for the `locale` projection and for writes. */
export const NOTIFICATION_TEXTS = ['title', 'content'] as const;

/**
 * An in-app notification of one member (spec Part 2, In-app notification): localized title and
 * content, a type (with a subtype for points and tier) and the metadata of that kind. Unread while
 * `readAt` is null. Soft-deleted by staff (the `live` filter hides it).
 */
@ObjectType()
@Entity({ tableName: 'in_app_notification' })
export class InAppNotification extends CatalogEntity {
  [OptionalProps]?: 'format' | 'type' | 'pointSubtype' | 'tierSubtype' | 'metadata' | 'readAt' | 'createdAt' | 'updatedAt' | 'deletedAt' | NullableText;

  @Field(() => String, { nullable: true }) @Property({ type: 'text', nullable: true }) title_en: string | null = null;
  @Field(() => String, { nullable: true }) @Property({ type: 'text', nullable: true }) title_th: string | null = null;
  @Field(() => String, { nullable: true }) @Property({ type: 'text', nullable: true }) title_cn: string | null = null;
  @Field(() => String, { nullable: true }) @Property({ type: 'text', nullable: true }) content_en: string | null = null;
  @Field(() => String, { nullable: true }) @Property({ type: 'text', nullable: true }) content_th: string | null = null;
  @Field(() => String, { nullable: true }) @Property({ type: 'text', nullable: true }) content_cn: string | null = null;
  @Field(() => NotificationFormat) @Property({ type: 'text' }) format: NotificationFormat = NotificationFormat.raw;
  @Field(() => NotificationType) @Property({ type: 'text' }) type: NotificationType = NotificationType.news;
  @Field(() => PointSubtype, { nullable: true }) @Property({ type: 'text', nullable: true }) pointSubtype: PointSubtype | null = null;
  @Field(() => TierSubtype, { nullable: true }) @Property({ type: 'text', nullable: true }) tierSubtype: TierSubtype | null = null;
  @Field(() => GraphQLJSON, { nullable: true, description: 'The fields of the notification\'s kind (its subtype, else its type)' })
  @Property({ type: 'json', nullable: true })
  metadata: Record<string, unknown> | null = null;
  @Field(() => ID) @Property({ type: 'uuid' }) memberId: string;
  @Field(() => GraphQLISODateTime, { nullable: true, description: 'null while unread' }) @Property({ type: 'timestamptz', nullable: true }) readAt: Date | null = null;
}

type NullableText = `${(typeof NOTIFICATION_TEXTS)[number]}_${'en' | 'th' | 'cn'}`;
