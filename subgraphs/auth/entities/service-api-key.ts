import { Entity, OptionalProps, ManyToOne, PrimaryKey, Property } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import { Field, ID, Int, ObjectType } from 'type-graphql';
import { ApiKeyCreator } from '../types/api-key.inputs';
import { Role } from './role';

/** A key a service exchanges for access tokens; only its hash and a visible prefix are stored. */
@ObjectType()
@Entity({ tableName: 'service_api_key' })
export class ServiceApiKey {
  [OptionalProps]?: 'expiresAt' | 'revokedAt' | 'lastUsedAt' | 'createdAt' | 'roleId' | 'scopes' | 'rateLimitPerHour';

  @Field(() => ID) @PrimaryKey({ type: 'uuid' }) id: string = randomUUID();
  @Field() @Property() name: string;
  @Field(() => Role) @ManyToOne(() => Role) role: Role;
  @Field({ description: 'The first characters of the key, to recognise it' }) @Property() prefix: string;
  @Property({ unique: true, hidden: true }) keyHash: string;
  @Field(() => ID, { description: 'The staff member who created the key' }) @Property({ type: 'uuid' }) createdById: string;
  @Field(() => [String], { description: 'The v1 scopes the key grants (read, write, admin, analytics), within its role' })
  @Property({ type: 'text[]' })
  scopes: string[] = ['read'];
  @Field(() => Int, { nullable: true, description: 'The key\'s own hourly request limit (enterprise tier); null: the premium tier' })
  @Property({ type: 'integer', nullable: true })
  rateLimitPerHour: number | null = null;
  @Field(() => Date, { nullable: true }) @Property({ type: 'timestamptz', nullable: true }) expiresAt: Date | null = null;
  @Field(() => Date, { nullable: true }) @Property({ type: 'timestamptz', nullable: true }) revokedAt: Date | null = null;
  @Field(() => Date, { nullable: true, description: 'When the key was last exchanged for an access token (to the minute)' })
  @Property({ type: 'timestamptz', nullable: true })
  lastUsedAt: Date | null = null;
  @Field() @Property({ type: 'timestamptz' }) createdAt: Date = new Date();

  /** Not stored: filled in by the key lists (null when the creator is not a staff member). */
  @Field(() => ApiKeyCreator, { nullable: true, description: 'Who created the key; deleted staff members included' })
  createdBy?: ApiKeyCreator | null;

  @Field(() => ID)
  get roleId(): string {
    return this.role.id;
  }
}
