import { EntityManager, LockMode } from '@mikro-orm/postgresql';
import type OAuth2Server from '@node-oauth/oauth2-server';
import { randomUUID } from 'node:crypto';
import { OAUTH_ACCESS_TOKEN_PREFIX, OAUTH_REFRESH_TOKEN_PREFIX } from '../../../core/auth/oauth';
import { Principal } from '../../../core/auth/principal';
import { recordRevocation, revocationSubject } from '../../../core/auth/revocations';
import { narrowToRole } from '../../../core/auth/scopes';
import { hashToken, randomToken } from '../../../core/auth/secrets';
import { OAuthAuthorizationCode } from '../entities/oauth-authorization-code';
import { OAuthClient, OAuthClientOwnerKind } from '../entities/oauth-client';
import { OAuthToken } from '../entities/oauth-token';
import { ServiceApiKey } from '../entities/service-api-key';
import { Staff, StaffStatus } from '../entities/staff';
import { clientAuthenticates, findActiveClient } from './oauth-params';

/** Whom an OAuth token acts for, as the library carries it: its principal now, and the token family it belongs to. */
export interface OAuthUser {
  principal: Principal;
  familyId?: string;
  /** The refresh token row being rotated (refresh_token grant). */
  tokenId?: string;
  /** The authorization code row being exchanged (authorization_code grant). */
  codeId?: string;
}

/** The library's view of a client. */
export interface OAuthLibraryClient extends OAuth2Server.Client {
  entity: OAuthClient;
}

/**
 * The principal a token's subject stands for now: an active staff member with their current role, or a
 * live API key (client_credentials of a client an API key registered); undefined when it no longer stands.
 */
export async function oauthSubjectPrincipal(em: EntityManager, kind: OAuthClientOwnerKind, id: string, options: { lock?: boolean } = {}): Promise<Principal | undefined> {
  // Locked: share-locked for the rest of the caller's transaction, so a deletion or revocation (an update of the row) waits.
  const lockMode = options.lock ? { lockMode: LockMode.PESSIMISTIC_READ } : {};
  if (kind === 'staff') {
    const staff = await em.findOne(Staff, { id }, lockMode);
    if (staff?.status !== StaffStatus.ACTIVE) return undefined;
    await em.populate(staff, ['role']);
    return new Principal('staff', staff.id, staff.role.key, staff.role.permissions);
  }
  const key = await em.findOne(ServiceApiKey, { id, revokedAt: null }, lockMode);
  if (!key || (key.expiresAt && key.expiresAt <= new Date())) return undefined;
  await em.populate(key, ['role']);
  return new Principal('service', key.id, key.role.key, key.role.permissions, key.scopes);
}

/** The scopes a subject may hold of `granted`: narrowed to its role (and, for an API key, to the key's own scopes). */
export const scopesFor = (principal: Principal, granted: readonly string[]): string[] =>
  narrowToRole(principal.role, principal.kind === 'service' ? granted.filter((scope) => principal.scopes?.includes(scope)) : granted);

export const libraryClient = (client: OAuthClient): OAuthLibraryClient => ({ id: client.clientId, grants: client.grantTypes, redirectUris: client.redirectUris, entity: client });

/**
 * Revokes every token of a family (a reused code or refresh token, or an RFC 7009 revocation), and the
 * platform tokens exchanged for them in every process, in the caller's transaction.
 */
export async function revokeOAuthFamily(em: EntityManager, familyId: string): Promise<void> {
  await em.nativeUpdate(OAuthToken, { familyId, revokedAt: null }, { revokedAt: new Date() });
  await recordRevocation(em, revocationSubject.oauthFamily(familyId));
}

/**
 * The storage of @node-oauth/oauth2-server on the auth schema, inside the token request's transaction.
 * Codes and refresh tokens are claimed by a conditional update: of two requests presenting the same
 * one, the second waits for the first's row lock, finds it used, and revokes the family it started.
 */
export class OAuthModel
  implements OAuth2Server.AuthorizationCodeModel, OAuth2Server.RefreshTokenModel, OAuth2Server.ClientCredentialsModel
{
  constructor(private readonly em: EntityManager) {}

  async getClient(clientId: string, clientSecret: string | undefined): Promise<OAuthLibraryClient | undefined> {
    const client = await findActiveClient(this.em, clientId);
    return client && clientAuthenticates(client, clientSecret || undefined) ? libraryClient(client) : undefined;
  }

  async generateAccessToken(): Promise<string> {
    return `${OAUTH_ACCESS_TOKEN_PREFIX}${randomToken(32)}`;
  }

  async generateRefreshToken(): Promise<string> {
    return `${OAUTH_REFRESH_TOKEN_PREFIX}${randomToken(32)}`;
  }

  /** A used code is refused, and its use revokes the tokens issued from it (contract section 3). */
  async getAuthorizationCode(code: string): Promise<OAuth2Server.AuthorizationCode | undefined> {
    const stored = await this.em.findOne(OAuthAuthorizationCode, { codeHash: hashToken(code) }, { populate: ['client'] });
    if (!stored) return undefined;
    if (stored.usedAt) {
      await revokeOAuthFamily(this.em, stored.id);
      return undefined;
    }
    const principal = await oauthSubjectPrincipal(this.em, 'staff', stored.staffId);
    if (!principal) return undefined;
    const user: OAuthUser = { principal, familyId: stored.id, codeId: stored.id };
    return {
      authorizationCode: code,
      expiresAt: stored.expiresAt,
      redirectUri: stored.redirectUri,
      scope: stored.scopes,
      client: libraryClient(stored.client),
      user,
      ...(stored.codeChallenge ? { codeChallenge: stored.codeChallenge, codeChallengeMethod: stored.codeChallengeMethod ?? 'S256' } : {}),
    };
  }

  async saveAuthorizationCode(): Promise<undefined> {
    throw new Error('Codes are issued by the sign-in and consent page (OAuthAuthorizationService)');
  }

  async revokeAuthorizationCode(code: OAuth2Server.AuthorizationCode): Promise<boolean> {
    const { codeId } = code.user as OAuthUser;
    const claimed = await this.em.nativeUpdate(OAuthAuthorizationCode, { id: codeId, usedAt: null }, { usedAt: new Date() });
    if (claimed === 0) await revokeOAuthFamily(this.em, codeId!);
    return claimed === 1;
  }

  /** The scopes granted: those asked for (default: the client's), within the client's, narrowed to the subject's role. */
  async validateScope(user: OAuthUser, client: OAuthLibraryClient, scope?: string[]): Promise<string[] | false> {
    const requested = scope ?? client.entity.scopes;
    if (requested.some((item) => !client.entity.scopes.includes(item))) return false;
    const granted = scopesFor(user.principal, requested);
    return granted.length > 0 ? granted : false;
  }

  async saveToken(token: OAuth2Server.Token, client: OAuthLibraryClient, user: OAuthUser): Promise<OAuth2Server.Token> {
    this.em.create(OAuthToken, {
      familyId: user.familyId ?? randomUUID(),
      client: client.entity,
      subjectKind: user.principal.kind === 'service' ? 'service' : 'staff',
      subjectId: user.principal.id,
      scopes: token.scope ?? [],
      accessTokenHash: hashToken(token.accessToken),
      accessExpiresAt: token.accessTokenExpiresAt!,
      refreshTokenHash: token.refreshToken ? hashToken(token.refreshToken) : null,
      refreshExpiresAt: token.refreshToken ? (token.refreshTokenExpiresAt ?? null) : null,
    });
    await this.em.flush();
    return { ...token, client, user };
  }

  async getAccessToken(accessToken: string): Promise<OAuth2Server.Token | undefined> {
    const stored = await this.em.findOne(OAuthToken, { accessTokenHash: hashToken(accessToken), revokedAt: null }, { populate: ['client'] });
    const principal = stored && (await oauthSubjectPrincipal(this.em, stored.subjectKind, stored.subjectId));
    if (!stored || !principal) return undefined;
    const user: OAuthUser = { principal, familyId: stored.familyId };
    return { accessToken, accessTokenExpiresAt: stored.accessExpiresAt, scope: stored.scopes, client: libraryClient(stored.client), user };
  }

  /** A used refresh token is refused and revokes its family (the token leaked: contract section 3). */
  async getRefreshToken(refreshToken: string): Promise<OAuth2Server.RefreshToken | undefined> {
    const stored = await this.em.findOne(OAuthToken, { refreshTokenHash: hashToken(refreshToken) }, { populate: ['client'] });
    if (!stored || stored.revokedAt) return undefined;
    if (stored.refreshUsedAt) {
      await revokeOAuthFamily(this.em, stored.familyId);
      return undefined;
    }
    const principal = await oauthSubjectPrincipal(this.em, stored.subjectKind, stored.subjectId);
    if (!principal) {
      await revokeOAuthFamily(this.em, stored.familyId);
      return undefined;
    }
    const user: OAuthUser = { principal, familyId: stored.familyId, tokenId: stored.id };
    return { refreshToken, refreshTokenExpiresAt: stored.refreshExpiresAt ?? undefined, scope: stored.scopes, client: libraryClient(stored.client), user };
  }

  /** Rotation: the presented refresh token is used up; if another request used it first, the family is revoked. */
  async revokeToken(token: OAuth2Server.RefreshToken): Promise<boolean> {
    const { tokenId, familyId } = token.user as OAuthUser;
    const claimed = await this.em.nativeUpdate(OAuthToken, { id: tokenId, refreshUsedAt: null, revokedAt: null }, { refreshUsedAt: new Date() });
    if (claimed === 0) await revokeOAuthFamily(this.em, familyId!);
    return claimed === 1;
  }

  /** client_credentials acts as whoever registered the client (decisions.md), while they still stand. */
  async getUserFromClient(client: OAuthLibraryClient): Promise<OAuthUser | undefined> {
    const principal = await oauthSubjectPrincipal(this.em, client.entity.createdByKind, client.entity.createdById);
    return principal ? { principal } : undefined;
  }
}
