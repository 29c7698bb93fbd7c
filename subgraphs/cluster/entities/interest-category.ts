import { Entity, OptionalProps } from '@mikro-orm/core';
import { ObjectType } from 'type-graphql';
import { NamedCatalogEntity } from '../../../core/catalog/catalog-entity';

/** Something a member may say it is interested in; staff-managed, soft-deleted. */
@ObjectType()
@Entity({ tableName: 'interest_category' })
export class InterestCategory extends NamedCatalogEntity {
  [OptionalProps]?: 'name_th' | 'name_cn' | 'createdAt' | 'updatedAt' | 'deletedAt';
}
