import { Entity, OptionalProps, ManyToOne, PrimaryKey, Property } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import { Field, ID, ObjectType } from 'type-graphql';
import { Role } from './role';

/** A key a service exchanges for access tokens; only its hash and a visible prefix are stored. */
@ObjectType()
@Entity({ tableName: 'service_api_key' })
export class ServiceApiKey {
  [OptionalProps]?: 'expiresAt' | 'revokedAt' | 'createdAt' | 'roleId';

  @Field(() => ID) @PrimaryKey({ type: 'uuid' }) id: string = randomUUID();
  @Field() @Property() name: string;
  @ManyToOne(() => Role) role: Role;
  @Field({ description: 'The first characters of the key, to recognise it' }) @Property() prefix: string;
  @Property({ unique: true, hidden: true }) keyHash: string;
  @Property({ type: 'uuid' }) createdById: string;
  @Field(() => Date, { nullable: true }) @Property({ type: 'timestamptz', nullable: true }) expiresAt: Date | null = null;
  @Field(() => Date, { nullable: true }) @Property({ type: 'timestamptz', nullable: true }) revokedAt: Date | null = null;
  @Field() @Property({ type: 'timestamptz' }) createdAt: Date = new Date();

  @Field(() => ID)
  get roleId(): string {
    return this.role.id;
  }
}
