import { AccessTokens } from '../../core/auth/jwt';
import { PasswordHasher } from '../../core/auth/secrets';
import { Config } from '../../core/config';
import { RequestContext } from '../../core/context';
import { openDomainOrm } from '../../core/db/orm';
import { startJobQueue } from '../../core/events/job-queue';
import { startOutboxRelay } from '../../core/events/outbox-relay';
import { RunningServer } from '../../core/http';
import { Logger } from '../../core/logger';
import { createMailer } from '../../core/messaging/mailer';
import { createSmsSender } from '../../core/messaging/sms';
import { BuiltSubgraph, buildSubgraph } from '../../core/subgraph';
import { startSubgraphServer, subgraphServing } from '../../core/subgraph-server';
import { AuthDeps } from './auth-deps';
import { ChatappClient } from './chatapp-client';
import { authEntities } from './entities';
import { Member } from './entities/member';
import { authMigrations } from './migrations';
import { ApiKeyResolver } from './resolvers/api-key.resolver';
import { ConsentResolver } from './resolvers/consent.resolver';
import { HealthResolver } from './resolvers/health.resolver';
import { MemberResolver } from './resolvers/member.resolver';
import { RoleResolver } from './resolvers/role.resolver';
import { SessionResolver } from './resolvers/session.resolver';
import { StaffAccountResolver } from './resolvers/staff-account.resolver';
import { StaffResolver } from './resolvers/staff.resolver';
import { StaffService } from './services/staff.service';

/** The auth subgraph's schema; `deps` is needed to serve it, not to print it. */
export function buildAuthSubgraph(deps?: AuthDeps): Promise<BuiltSubgraph> {
  return buildSubgraph({
    name: 'auth',
    resolvers: [
      SessionResolver,
      StaffAccountResolver,
      StaffResolver,
      ApiKeyResolver,
      MemberResolver,
      RoleResolver,
      ConsentResolver,
      HealthResolver,
    ],
    container: deps ? { get: (resolverClass) => new resolverClass(deps) } : undefined,
    referenceResolvers: {
      Member: {
        __resolveReference: (reference: { id: string }, ctx: RequestContext) =>
          ctx.em.findOne(Member, { id: reference.id, deletedAt: null }),
      },
    },
  });
}

/** Opens the auth schema (running its migrations), bootstraps the first admin, relays its outbox, and serves the subgraph. */
export async function startAuthSubgraph(config: Config, databaseUrl: string, logger: Logger, port = config.authPort): Promise<RunningServer> {
  const orm = await openDomainOrm({ url: databaseUrl, schema: 'auth', entities: authEntities, migrations: authMigrations });
  const tokens = new AccessTokens(config.jwtSecret);
  const deps: AuthDeps = {
    tokens,
    passwords: new PasswordHasher(config.passwordScryptCost),
    mailer: createMailer(config.smtpUrl, config.mailFrom, config.dataDir, logger),
    sms: createSmsSender(config.dataDir, logger),
    chatapp: new ChatappClient(config.chatapp),
    logger,
  };
  if (config.bootstrapAdmin) {
    const admin = await new StaffService(orm.em.fork(), deps).bootstrapAdmin(config.bootstrapAdmin.email, config.bootstrapAdmin.password);
    if (admin) logger.info({ email: admin.email }, 'bootstrap admin created');
  }
  const boss = await startJobQueue(databaseUrl, logger);
  const relay = startOutboxRelay(orm, boss, logger);
  const server = await startSubgraphServer({ subgraph: await buildAuthSubgraph(deps), orm, tokens, logger, port, ...subgraphServing(config, 'auth') });
  return {
    ...server,
    close: async () => {
      await server.close();
      await relay.stop();
      await boss.stop({ graceful: true, wait: true });
      await orm.close();
    },
  };
}
