import { Entity, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import { Field, ObjectType } from 'type-graphql';

/** Who registered an OAuth client: a staff member or an API key (service) holding the `admin` scope. */
export type OAuthClientOwnerKind = 'staff' | 'service';

/**
 * A third-party application registered for OAuth 2.0 (RFC 7591). A confidential client's secret is
 * stored only as its SHA-256; a public client (`token_endpoint_auth_method: none`) has none and must use PKCE.
 */
@ObjectType({ description: 'A registered OAuth client (its secret is shown only at registration and rotation)' })
@Entity({ tableName: 'oauth_client' })
export class OAuthClient {
  [OptionalProps]?: 'secretHash' | 'createdAt' | 'disabledAt' | 'isPublic' | 'active';

  @PrimaryKey({ type: 'uuid' }) id: string = randomUUID();
  @Field() @Property({ unique: true }) clientId: string;
  @Property({ nullable: true, hidden: true }) secretHash: string | null = null;
  @Field({ description: 'client_name' }) @Property() name: string;
  @Field(() => [String]) @Property({ type: 'text[]' }) redirectUris: string[];
  @Field(() => [String]) @Property({ type: 'text[]' }) grantTypes: string[];
  @Field() @Property() tokenEndpointAuthMethod: string;
  @Field(() => [String]) @Property({ type: 'text[]' }) scopes: string[];
  @Field(() => String, { description: 'staff or service (an API key)' }) @Property() createdByKind: OAuthClientOwnerKind;
  @Field() @Property({ type: 'uuid' }) createdById: string;
  @Field() @Property({ type: 'timestamptz' }) createdAt: Date = new Date();
  /** Disabled by an admin: it authenticates no more, and the tokens it held were revoked. */
  @Field(() => Date, { nullable: true }) @Property({ type: 'timestamptz', nullable: true }) disabledAt: Date | null = null;

  @Field({ description: 'Not disabled: it may authenticate and get tokens' })
  get active(): boolean {
    return this.disabledAt === null;
  }

  get isPublic(): boolean {
    return this.tokenEndpointAuthMethod === 'none';
  }
}
