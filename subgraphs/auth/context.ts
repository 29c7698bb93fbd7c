import { EntityManager } from '@mikro-orm/postgresql';
import { BatchLoader } from '../../core/batch-loader';
import { RequestContext } from '../../core/context';
import { arrayLiteral } from '../../core/db/array-literal';
import { readRows } from '../../core/db/row-lookup';
import { recordIdsAmong } from '../../core/ids';
import { Member } from './entities/member';
import { AuthDeps } from './auth-deps';
import { ApiKeyService } from './services/api-key.service';
import { ConsentService } from './services/consent.service';
import { CustomerService } from './services/customer.service';
import { MemberService } from './services/member.service';
import { OAuthAuthorizationService } from './services/oauth-authorization.service';
import { OAuthClientService } from './services/oauth-client.service';
import { OAuthTokenService } from './services/oauth-token.service';
import { PasswordResetService } from './services/password-reset.service';
import { RoleService } from './services/role.service';
import { SessionService } from './services/session.service';
import { StaffService } from './services/staff.service';

/** The auth services of one request, on its unit of work. */
export function authServices(em: EntityManager, deps: AuthDeps) {
  return {
    sessions: new SessionService(em, deps),
    staff: new StaffService(em, deps),
    passwordResets: new PasswordResetService(em, deps),
    apiKeys: new ApiKeyService(em, deps),
    members: new MemberService(em, deps),
    customers: new CustomerService(em, deps),
    roles: new RoleService(em),
    consents: new ConsentService(em),
    oauthClients: new OAuthClientService(em),
    oauthAuthorization: new OAuthAuthorizationService(em, deps, deps.oauthIssuer ?? ''),
    oauthTokens: new OAuthTokenService(em, deps),
    oauthIssuer: deps.oauthIssuer ?? '',
    /** Member.projectedTierId of a page of members: one query, its rows plain (nothing changes them). */
    memberTierIds: new BatchLoader(
      async (ids: string[]) =>
        new Map(
          (await readRows<{ member_id: string; tier_id: string }>(em, 'select member_id, tier_id from auth.member_tier where member_id = any(?::uuid[])', [arrayLiteral(recordIdsAmong(ids))])).map(
            (row) => [row.member_id, row.tier_id],
          ),
        ),
      null,
    ),
    /** Federation's Member references: the representations of one fetch cost one query. */
    memberReferences: new BatchLoader(
      async (ids: string[]) => new Map((await em.find(Member, { id: { $in: recordIdsAmong(ids) } })).map((member) => [member.id, member])),
      null,
    ),
  };
}

export type AuthContext = RequestContext<ReturnType<typeof authServices>>;
