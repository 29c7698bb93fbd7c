import { Entity, OptionalProps, Enum, PrimaryKey, Property, Unique } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import { Field, ID, ObjectType } from 'type-graphql';
import { EnumValue, graphqlEnum } from '../../../core/graphql/enum';

export const ConsentType = graphqlEnum('ConsentType', ['PRIVACY_POLICY', 'TERMS']);
export type ConsentType = EnumValue<typeof ConsentType>;

/** One published version of the privacy policy or the terms; the newest effective one is current. */
@ObjectType()
@Entity({ tableName: 'consent_version' })
@Unique({ properties: ['type', 'version'] })
export class ConsentVersion {
  [OptionalProps]?: 'content_en' | 'content_th' | 'content_cn' | 'url' | 'createdAt';

  @Field(() => ID) @PrimaryKey({ type: 'uuid' }) id: string = randomUUID();
  @Field(() => ConsentType) @Enum({ items: () => ConsentType }) type: ConsentType;
  @Field() @Property() version: string;
  @Field(() => String, { nullable: true }) @Property({ type: 'text', nullable: true }) content_en: string | null = null;
  @Field(() => String, { nullable: true }) @Property({ type: 'text', nullable: true }) content_th: string | null = null;
  @Field(() => String, { nullable: true }) @Property({ type: 'text', nullable: true }) content_cn: string | null = null;
  @Field(() => String, { nullable: true }) @Property({ nullable: true }) url: string | null = null;
  @Field() @Property({ type: 'timestamptz' }) effectiveAt: Date;
  @Field() @Property({ type: 'timestamptz' }) createdAt: Date = new Date();
}
