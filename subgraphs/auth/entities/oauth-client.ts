import { Entity, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';

/** Who registered an OAuth client: a staff member or an API key (service) holding the `admin` scope. */
export type OAuthClientOwnerKind = 'staff' | 'service';

/**
 * A third-party application registered for OAuth 2.0 (RFC 7591). A confidential client's secret is
 * stored only as its SHA-256; a public client (`token_endpoint_auth_method: none`) has none and must use PKCE.
 */
@Entity({ tableName: 'oauth_client' })
export class OAuthClient {
  [OptionalProps]?: 'secretHash' | 'createdAt' | 'isPublic';

  @PrimaryKey({ type: 'uuid' }) id: string = randomUUID();
  @Property({ unique: true }) clientId: string;
  @Property({ nullable: true, hidden: true }) secretHash: string | null = null;
  @Property() name: string;
  @Property({ type: 'text[]' }) redirectUris: string[];
  @Property({ type: 'text[]' }) grantTypes: string[];
  @Property() tokenEndpointAuthMethod: string;
  @Property({ type: 'text[]' }) scopes: string[];
  @Property() createdByKind: OAuthClientOwnerKind;
  @Property({ type: 'uuid' }) createdById: string;
  @Property({ type: 'timestamptz' }) createdAt: Date = new Date();

  get isPublic(): boolean {
    return this.tokenEndpointAuthMethod === 'none';
  }
}
