import { AccessTokens } from '../../core/auth/jwt';
import { oauthIssuerOf } from '../../core/auth/oauth';
import { permissionScopesOf } from '../../core/auth/scopes';
import { PasswordHasher } from '../../core/auth/secrets';
import { createMailer } from '../../core/messaging/mailer';
import { createSmsSender } from '../../core/messaging/sms';
import { defineModule } from '../../core/module';
import { AuthDeps } from './auth-deps';
import { ChatappClient } from './chatapp-client';
import { AuthContext, authServices } from './context';
import { authCalls } from './services/auth-calls';
import { CLUSTER } from '../cluster/contract';
import { applyMemberTier } from './services/member-tier-projection';
import { applyTierCatalog } from './services/tier-catalog';
import { AUTH } from './contract';
import { ConsentAcceptance } from './entities/consent-acceptance';
import { ConsentVersion } from './entities/consent-version';
import { Member } from './entities/member';
import { MemberTier } from './entities/member-tier';
import { TierCatalogEntry } from './entities/tier-catalog-entry';
import { OAuthAuthorizationCode } from './entities/oauth-authorization-code';
import { OAuthClient } from './entities/oauth-client';
import { OAuthToken } from './entities/oauth-token';
import { PasswordResetSession } from './entities/password-reset-session';
import { RefreshToken } from './entities/refresh-token';
import { Role } from './entities/role';
import { ServiceApiKey } from './entities/service-api-key';
import { Staff } from './entities/staff';
import { authMigrations } from './migrations';
import { ApiKeyResolver } from './resolvers/api-key.resolver';
import { ConsentResolver } from './resolvers/consent.resolver';
import { CustomerResolver } from './resolvers/customer.resolver';
import { HealthResolver } from './resolvers/health.resolver';
import { MemberResolver } from './resolvers/member.resolver';
import { OAuthResolver } from './resolvers/oauth.resolver';
import { RoleResolver } from './resolvers/role.resolver';
import { SessionResolver } from './resolvers/session.resolver';
import { StaffAccountResolver } from './resolvers/staff-account.resolver';
import { StaffResolver } from './resolvers/staff.resolver';
import { RoleService } from './services/role.service';
import { AUTH_MAIL_OPERATIONS, MailTemplates } from './services/mail-templates-supergraph';
import { StaffService } from './services/staff.service';
import { OAUTH_PURGE_QUEUE, purgeOAuthRecords } from './services/oauth-purge';
import { AUTH_SURFACE } from './surface';

/**
 * Auth: staff and their sessions, roles (seeded with every domain's default grants at start), API keys,
 * members and consents. Owns `Member`; the first admin is created from BOOTSTRAP_ADMIN_* on first start.
 */
export const authModule = defineModule({
  contract: AUTH,
  defaultPort: 4001,
  entities: [Role, Staff, PasswordResetSession, ServiceApiKey, RefreshToken, Member, ConsentVersion, ConsentAcceptance, MemberTier, TierCatalogEntry, OAuthClient, OAuthAuthorizationCode, OAuthToken],
  migrations: authMigrations,
  resolvers: [SessionResolver, StaffAccountResolver, StaffResolver, ApiKeyResolver, MemberResolver, RoleResolver, ConsentResolver, HealthResolver, CustomerResolver, OAuthResolver],
  referenceResolvers: {
    Member: { __resolveReference: (reference: { id: string }, ctx: AuthContext) => ctx.services.memberReferences.load(reference.id) },
  },
  environment: ['BOOTSTRAP_ADMIN_EMAIL', 'BOOTSTRAP_ADMIN_PASSWORD', 'CHATAPP_API_URL', 'CHATAPP_APP_ID', 'CHATAPP_APP_SECRET', 'SMTP_URL', 'MAIL_FROM', 'PASSWORD_SCRYPT_COST', 'PUBLIC_URL'],
  deps: ({ config, logger, gateway, contracts }): AuthDeps => ({
    tokens: new AccessTokens(config.jwtSecret),
    permissionScopes: permissionScopesOf(contracts),
    passwords: new PasswordHasher(config.passwordScryptCost),
    mailer: createMailer(config.smtpUrl, config.mailFrom, config.dataDir, logger),
    sms: createSmsSender(config.dataDir, logger),
    chatapp: new ChatappClient(config.chatapp),
    logger,
    mailTemplates: new MailTemplates(new AccessTokens(config.jwtSecret), gateway, logger),
    oauthIssuer: oauthIssuerOf(config.publicUrl),
  }),
  calls: ({ orm }) => authCalls(orm),
  supergraphOperations: AUTH_MAIL_OPERATIONS,
  surface: AUTH_SURFACE,
  services: authServices,
  jobs: [
    {
      queue: OAUTH_PURGE_QUEUE,
      cron: '17 3 * * *',
      run: async ({ orm, logger }) => {
        const purged = await purgeOAuthRecords(orm.em.fork());
        if (purged.codes + purged.tokens > 0) logger.info(purged, 'spent OAuth codes and tokens purged');
      },
    },
  ],
  consumers: [
    { queue: 'auth.member-tiers', events: [CLUSTER.events.tierChanged], apply: applyMemberTier },
    { queue: 'auth.tier-catalog', events: [CLUSTER.events.tierCatalogChanged], apply: applyTierCatalog },
  ],
  onStart: async ({ orm, config, contracts, deps, logger }) => {
    await new RoleService(orm.em.fork()).grantDefaults(contracts);
    if (!config.bootstrapAdmin) return;
    const admin = await new StaffService(orm.em.fork(), deps).bootstrapAdmin(config.bootstrapAdmin.email, config.bootstrapAdmin.password);
    if (admin) logger.info({ email: admin.email }, 'bootstrap admin created');
  },
});
