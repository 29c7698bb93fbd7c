import { Entity, OptionalProps, Enum, ManyToOne, PrimaryKey, Property } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import { Field, ID, ObjectType } from 'type-graphql';
import { SoftDeletable } from '../../../core/db/soft-deletable';
import { Locale } from '../../../core/i18n';
import { Role } from './role';
import { EnumValue, graphqlEnum } from '../../../core/graphql/enum';

export const StaffStatus = graphqlEnum('StaffStatus', ['ACTIVE', 'INACTIVE', 'WAIT_FOR_FIRST_ACTIVE']);
export type StaffStatus = EnumValue<typeof StaffStatus>;

/** A staff member of the back office, with one role; soft-deleted (core/db/soft-deletable.ts). */
@ObjectType()
@Entity({ tableName: 'staff' })
export class Staff extends SoftDeletable {
  [OptionalProps]?: 'phoneNumber' | 'storeId' | 'status' | 'locale' | 'passwordHash' | 'createdAt' | 'updatedAt' | 'deletedAt' | 'roleId';

  @Field(() => ID) @PrimaryKey({ type: 'uuid' }) id: string = randomUUID();
  @Field() @Property() email: string;
  @Field() @Property() firstname: string;
  @Field() @Property() lastname: string;
  @Field(() => String, { nullable: true }) @Property({ nullable: true }) phoneNumber: string | null = null;
  @ManyToOne(() => Role) role: Role;
  @Field(() => String, { nullable: true }) @Property({ nullable: true }) storeId: string | null = null;
  @Field(() => StaffStatus) @Enum({ items: () => StaffStatus }) status: StaffStatus = StaffStatus.WAIT_FOR_FIRST_ACTIVE;
  @Field(() => Locale) @Enum({ items: () => Locale }) locale: Locale = Locale.en;
  @Property({ nullable: true, hidden: true }) passwordHash: string | null = null;
  @Field() @Property({ type: 'timestamptz' }) createdAt: Date = new Date();
  @Field() @Property({ type: 'timestamptz', onUpdate: () => new Date() }) updatedAt: Date = new Date();
  @Field(() => Date, { nullable: true }) override deletedAt: Date | null = null;

  @Field(() => ID)
  get roleId(): string {
    return this.role.id;
  }
}
