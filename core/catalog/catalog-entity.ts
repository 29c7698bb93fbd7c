import { PrimaryKey, Property } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import { Field, GraphQLISODateTime, ID, ObjectType } from 'type-graphql';
import { SoftDeletable } from '../db/soft-deletable';

/**
 * A record of a catalog (tiers, badges, segments, interests, shop rules): an id, timestamps and soft
 * deletion (core/db/soft-deletable.ts), its `deletedAt` shown in GraphQL.
 */
@ObjectType()
export abstract class CatalogEntity extends SoftDeletable {
  @Field(() => ID) @PrimaryKey({ type: 'uuid' }) id: string = randomUUID();
  @Field(() => GraphQLISODateTime) @Property({ type: 'timestamptz' }) createdAt: Date = new Date();
  @Field(() => GraphQLISODateTime) @Property({ type: 'timestamptz', onUpdate: () => new Date() }) updatedAt: Date = new Date();
  @Field(() => GraphQLISODateTime, { nullable: true }) override deletedAt: Date | null = null;
}

/**
 * A catalog record with a localized name (`name_en`, `name_th`, `name_cn` on the wire and in the
 * table). Every language is nullable in GraphQL: the `locale` projection leaves the others null.
 */
@ObjectType()
export abstract class NamedCatalogEntity extends CatalogEntity {
  @Field(() => String, { nullable: true }) @Property({ type: 'text' }) name_en: string | null;
  @Field(() => String, { nullable: true }) @Property({ type: 'text', nullable: true }) name_th: string | null = null;
  @Field(() => String, { nullable: true }) @Property({ type: 'text', nullable: true }) name_cn: string | null = null;
}

/** A named catalog record with a localized description too. */
@ObjectType()
export abstract class DescribedCatalogEntity extends NamedCatalogEntity {
  @Field(() => String, { nullable: true }) @Property({ type: 'text', nullable: true }) description_en: string | null = null;
  @Field(() => String, { nullable: true }) @Property({ type: 'text', nullable: true }) description_th: string | null = null;
  @Field(() => String, { nullable: true }) @Property({ type: 'text', nullable: true }) description_cn: string | null = null;
}

/** The localized triples of each kind of catalog record, for the `locale` projection and for writes. */
export const NAMED = ['name'] as const;
export const DESCRIBED = ['name', 'description'] as const;

export const isCatalogEntity = (entity: Function): boolean => entity.prototype instanceof CatalogEntity;

/** The base classes, which MikroORM discovers with the entities that extend them. */
export const CATALOG_BASES = [CatalogEntity, NamedCatalogEntity, DescribedCatalogEntity];
