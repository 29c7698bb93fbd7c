import { Entity, OptionalProps, Enum, PrimaryKey, Property } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import { SoftDeletable } from '../../../core/db/soft-deletable';
import { Directive, Field, Float, ID, ObjectType } from 'type-graphql';
import { EnumValue, graphqlEnum } from '../../../core/graphql/enum';

export const MemberStatus = graphqlEnum('MemberStatus', ['PENDING', 'CHATAPP_INFO_SYNCED', 'ACTIVE', 'INACTIVE']);
export type MemberStatus = EnumValue<typeof MemberStatus>;

export const Gender = graphqlEnum('Gender', ['Male', 'Female', 'Other']);
export type Gender = EnumValue<typeof Gender>;

@ObjectType()
export class Address {
  @Field(() => String, { nullable: true }) address?: string;
  @Field(() => String, { nullable: true }) subDistrict?: string;
  @Field(() => String, { nullable: true }) district?: string;
  @Field(() => String, { nullable: true }) province?: string;
  @Field(() => String, { nullable: true }) postCode?: string;
  @Field(() => String, { nullable: true }) country?: string;
  @Field(() => Float, { nullable: true }) latitude?: number;
  @Field(() => Float, { nullable: true }) longitude?: number;
}

/**
 * A member of the loyalty programme. Owned by auth; other subgraphs extend it through its key
 * (point contributes `pointBalance`, cluster contributes `tier`). Soft-deleted (erased, core/db/soft-deletable.ts).
 */
@Directive('@key(fields: "id")')
@ObjectType()
@Entity({ tableName: 'member' })
export class Member extends SoftDeletable {
  [OptionalProps]?: 'openId' | 'unionId' | 'nickName' | 'avatarUrl' | 'name' | 'phoneNumber' | 'gender' | 'birthDay' | 'address' | 'status' | 'createdAt' | 'updatedAt' | 'deletedAt' | 'birthDate' | 'email' | 'language';

  @Field(() => ID) @PrimaryKey({ type: 'uuid' }) id: string = randomUUID();
  @Field(() => String, { nullable: true }) @Property({ nullable: true, unique: true }) openId: string | null = null;
  @Field(() => String, { nullable: true }) @Property({ nullable: true }) unionId: string | null = null;
  @Field(() => String, { nullable: true }) @Property({ nullable: true }) nickName: string | null = null;
  @Field(() => String, { nullable: true }) @Property({ nullable: true }) avatarUrl: string | null = null;
  @Field(() => String, { nullable: true }) @Property({ nullable: true }) name: string | null = null;
  @Field(() => String, { nullable: true }) @Property({ nullable: true }) phoneNumber: string | null = null;
  /** Unique among members whatever its case (index on lower(email)); kept as given. */
  @Field(() => String, { nullable: true }) @Property({ type: 'text', nullable: true }) email: string | null = null;
  /** A BCP 47 locale tag in its canonical form (`en-US`, `th`). */
  @Field(() => String, { nullable: true }) @Property({ type: 'text', nullable: true }) language: string | null = null;
  @Field(() => Gender, { nullable: true }) @Enum({ items: () => Gender, nullable: true }) gender: Gender | null = null;
  @Property({ type: 'date', nullable: true }) birthDay: string | null = null;
  @Field(() => Address, { nullable: true }) @Property({ type: 'jsonb', nullable: true }) address: Address | null = null;
  @Field(() => MemberStatus) @Enum({ items: () => MemberStatus }) status: MemberStatus = MemberStatus.PENDING;
  @Field() @Property({ type: 'timestamptz' }) createdAt: Date = new Date();
  @Field() @Property({ type: 'timestamptz', onUpdate: () => new Date() }) updatedAt: Date = new Date();

  /** The birth date, given as an ISO 8601 date and returned as a timestamp (midnight UTC). */
  @Field(() => Date, { name: 'birthDate', nullable: true })
  get birthDate(): Date | null {
    return this.birthDay ? new Date(`${this.birthDay}T00:00:00.000Z`) : null;
  }
}
