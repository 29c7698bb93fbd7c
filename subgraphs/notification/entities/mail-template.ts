import { Entity, OptionalProps, Property } from '@mikro-orm/core';
import { Field, ObjectType } from 'type-graphql';
import { CatalogEntity } from '../../../core/catalog/catalog-entity';
import { EnumValue, graphqlEnum } from '../../../core/graphql/enum';

export const MailContentType = graphqlEnum('MailContentType', ['html', 'text'], 'How a mail template\'s content is sent: HTML (variables HTML-escaped) or plain text');
export type MailContentType = EnumValue<typeof MailContentType>;

/** The localized triples of a mail template. */
export const MAIL_TEMPLATE_TEXTS = ['subject', 'content'] as const;

/**
 * A mail template (spec Part 2, Mail template): the mail sent for an `event` (such as
 * `auth.password-reset`), in a `version`, with a subject and a content per language holding
 * `{{variable}}` placeholders. One live template per event and version; soft-deleted.
 */
@ObjectType()
@Entity({ tableName: 'mail_template' })
export class MailTemplate extends CatalogEntity {
  [OptionalProps]?: 'version' | 'contentType' | 'defaultSenderId' | 'createdAt' | 'updatedAt' | 'deletedAt' | NullableText;

  @Field() @Property({ type: 'text' }) name: string;
  @Field({ description: 'A per-template version string' }) @Property({ type: 'text' }) version: string = '1';
  @Field({ description: 'What the mail is sent for, e.g. auth.password-reset or auth.invitation' }) @Property({ type: 'text' }) event: string;
  @Field(() => String, { nullable: true }) @Property({ type: 'text', nullable: true }) subject_en: string | null = null;
  @Field(() => String, { nullable: true }) @Property({ type: 'text', nullable: true }) subject_th: string | null = null;
  @Field(() => String, { nullable: true }) @Property({ type: 'text', nullable: true }) subject_cn: string | null = null;
  @Field(() => String, { nullable: true }) @Property({ type: 'text', nullable: true }) content_en: string | null = null;
  @Field(() => String, { nullable: true }) @Property({ type: 'text', nullable: true }) content_th: string | null = null;
  @Field(() => String, { nullable: true }) @Property({ type: 'text', nullable: true }) content_cn: string | null = null;
  @Field(() => MailContentType) @Property({ type: 'text' }) contentType: MailContentType = MailContentType.html;
  @Field(() => String, { nullable: true, description: 'The sender the mail goes out as, when not the platform default' })
  @Property({ type: 'text', nullable: true })
  defaultSenderId: string | null = null;
}

type NullableText = `${(typeof MAIL_TEMPLATE_TEXTS)[number]}_${'en' | 'th' | 'cn'}`;
