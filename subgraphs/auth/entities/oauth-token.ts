import { Entity, ManyToOne, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import { OAuthClient, OAuthClientOwnerKind } from './oauth-client';

/**
 * One issuance of the token endpoint: an access token and (except for client_credentials) a refresh
 * token, both stored as SHA-256. Tokens of one authorization (the code, then each refresh) share a
 * family; revoking the family (a reused code or refresh token, or RFC 7009 revocation) revokes them all.
 */
@Entity({ tableName: 'oauth_token' })
export class OAuthToken {
  [OptionalProps]?: 'refreshTokenHash' | 'refreshExpiresAt' | 'refreshUsedAt' | 'revokedAt' | 'createdAt';

  @PrimaryKey({ type: 'uuid' }) id: string = randomUUID();
  @Property({ type: 'uuid', index: true }) familyId: string;
  @ManyToOne(() => OAuthClient) client: OAuthClient;
  /** Whom the token acts for: the signed-in staff member, or the client's registrant (client_credentials). */
  @Property() subjectKind: OAuthClientOwnerKind;
  @Property({ type: 'uuid' }) subjectId: string;
  @Property({ type: 'text[]' }) scopes: string[];
  @Property({ unique: true }) accessTokenHash: string;
  @Property({ type: 'timestamptz' }) accessExpiresAt: Date;
  @Property({ nullable: true, unique: true }) refreshTokenHash: string | null = null;
  @Property({ type: 'timestamptz', nullable: true }) refreshExpiresAt: Date | null = null;
  @Property({ type: 'timestamptz', nullable: true }) refreshUsedAt: Date | null = null;
  @Property({ type: 'timestamptz', nullable: true }) revokedAt: Date | null = null;
  @Property({ type: 'timestamptz' }) createdAt: Date = new Date();
}
