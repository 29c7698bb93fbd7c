import { Entity, ManyToOne, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import { OAuthClient } from './oauth-client';

/**
 * An authorization code a staff member granted a client (stored as its SHA-256). It lives at most ten
 * minutes and works once; its id is the family id of the tokens issued from it, so that a second use
 * revokes them.
 */
@Entity({ tableName: 'oauth_authorization_code' })
export class OAuthAuthorizationCode {
  [OptionalProps]?: 'codeChallenge' | 'codeChallengeMethod' | 'usedAt' | 'createdAt';

  @PrimaryKey({ type: 'uuid' }) id: string = randomUUID();
  @Property({ unique: true }) codeHash: string;
  @ManyToOne(() => OAuthClient) client: OAuthClient;
  @Property({ type: 'uuid' }) staffId: string;
  @Property() redirectUri: string;
  @Property({ type: 'text[]' }) scopes: string[];
  @Property({ nullable: true }) codeChallenge: string | null = null;
  @Property({ nullable: true }) codeChallengeMethod: string | null = null;
  @Property({ type: 'timestamptz' }) expiresAt: Date;
  @Property({ type: 'timestamptz', nullable: true }) usedAt: Date | null = null;
  @Property({ type: 'timestamptz' }) createdAt: Date = new Date();
}
