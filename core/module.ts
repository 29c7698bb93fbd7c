import { MikroORM } from '@mikro-orm/core';
import { EntityManager, PostgreSqlDriver } from '@mikro-orm/postgresql';
import PgBoss from 'pg-boss';
import { NonEmptyArray } from 'type-graphql';
import { AccessTokens } from './auth/jwt';
import type { ApiScope } from './auth/scopes';
import { Config, Env } from './config';
import { CATALOG_BASES, isCatalogEntity } from './catalog/catalog-entity';
import { DomainServing, MigrationClass, openDomainOrm } from './db/orm';
import { watchPool } from './metrics';
import { databaseReachable } from './db/readiness';
import { isSoftDeletable, liveFilter, SoftDeletable } from './db/soft-deletable';
import { DomainCalls, HandledCall } from './domain-calls';
import { startEventConsumer } from './events/event-consumer';
import { scheduleJob, startJobQueue, stopJobQueue } from './events/job-queue';
import { OutboxEvent, outboxTraceContextMigration, PublishedEvent } from './events/outbox-event';
import { startOutboxRelay } from './events/outbox-relay';
import { gatewayLink } from './gateway-link';
import { OperationExecutor, RunningGraphqlServer } from './graphql-http';
import { Logger } from './logger';
import { DomainSurface, PublicEvent } from './rest/surface';
import { BuiltSubgraph, buildSubgraph, ReferenceResolvers } from './subgraph';
import { startSubgraphServer, subgraphServing } from './subgraph-server';

/**
 * What a domain tells the others, in `subgraphs/<domain>/contract.ts`: plain data with no runtime
 * imports, so that any domain (and the REST adapter) may import it. The kernel knows no domain's
 * permission or event names; they live here.
 */
export interface DomainContract {
  /** The domain's name: its subgraph, its Postgres schema, the prefix of its settings (`POINT_PORT`). */
  readonly name: string;
  /** The permissions its operations require, by key. */
  readonly permissions: Readonly<Record<string, string>>;
  /**
   * The v1 scope (or scopes) each permission needs, by the same keys (CONTRACT-v1 §2: reads `read`, writes
   * `write`, administration `admin`, figures `analytics`): a token made from an API key or an OAuth grant
   * carries its role's permissions narrowed to its scopes (core/auth/scopes.ts `narrowPermissions`).
   */
  readonly permissionScopes: Readonly<Record<string, ApiScope | readonly ApiScope[]>>;
  /** The permissions each seeded role gets by default (admin holds `*`); auth grants them at start. */
  readonly grants: Readonly<Record<string, readonly string[]>>;
  /** The event types it publishes, by key; their payload types sit beside the contract. */
  readonly events: Readonly<Record<string, string>>;
  /** The calls it answers for other domains (core/domain-calls.ts), by key; their input and answer types sit beside the contract. */
  readonly calls?: Readonly<Record<string, string>>;
}

/** What a domain's `start` receives: its settings, its database and job queue, and every contract and public event. */
export interface ModuleStart<Settings> {
  config: Config;
  settings: Settings;
  databaseUrl: string;
  orm: MikroORM<PostgreSqlDriver>;
  boss: PgBoss;
  logger: Logger;
  /** Every domain's contract (the registry's), e.g. for auth to seed the roles' grants. */
  contracts: readonly DomainContract[];
  /** Every domain's public events (the registry's merged surface), e.g. for the webhook domain to fan them out. */
  publicEvents: readonly PublicEvent[];
  /** The gateway, for a domain that reads or writes another domain's data through the supergraph. */
  gateway: OperationExecutor;
  /** The calls answered in this process (core/domain-calls.ts): another domain's handler when it runs here, else its operation on `gateway`. */
  calls: DomainCalls;
}

/** A started domain: the above, and what its resolvers, jobs and start hook receive (`deps`). */
export interface DomainContext<Settings, Deps> extends ModuleStart<Settings> {
  deps: Deps;
}

/** A job the domain runs on a schedule (cron), on the job queue with the retry policy. */
export interface ScheduledJob<Settings, Deps> {
  queue: string;
  cron: string;
  run: (context: DomainContext<Settings, Deps>) => Promise<void>;
}

/**
 * A queue of the domain subscribed to other domains' events (types taken from their contracts):
 * each event is applied once, a member's in commit order, in a transaction (core/events/event-consumer).
 */
export interface EventConsumer {
  queue: string;
  events: readonly string[];
  apply: (em: EntityManager, event: PublishedEvent<any>) => Promise<unknown>;
  batchSize?: number;
}

/**
 * One domain, declared once in `subgraphs/<domain>/module.ts`: the registry lists the modules, and the
 * platform start, the schema, the configuration and docker-compose.yml are derived from them.
 */
export interface DomainModule<Settings = unknown, Deps = unknown, Services = unknown> {
  contract: DomainContract;
  /** The port of its subgraph unless `<NAME>_PORT` says otherwise; unique across the registry. */
  defaultPort: number;
  /** Its own entities (the outbox is added), migrations, resolvers and federation types. */
  entities: Function[];
  migrations: Record<string, MigrationClass>;
  resolvers: NonEmptyArray<Function>;
  orphanedTypes?: Function[];
  referenceResolvers?: ReferenceResolvers;
  /** Parses its own variables (`POINT_EXPIRY`), pushing a message naming each bad one onto `problems`. */
  settings?: (env: Env, problems: string[]) => Settings;
  /** The variables it reads beyond the platform's, passed to its container by docker-compose.yml. */
  environment?: readonly string[];
  /** Builds what its resolvers receive in their constructor, and its jobs and start hook. */
  deps?: (context: ModuleStart<Settings>) => Deps | Promise<Deps>;
  /** Its services for one request (`ctx.services` in resolvers), on that request's unit of work. */
  services?: (em: EntityManager, deps: Deps) => Services;
  /** Runs once the schema is up to date, before the subgraph serves (seeding, bootstrap). */
  onStart?: (context: DomainContext<Settings, Deps>) => Promise<void>;
  /** Runs when the domain stops, once its subgraph no longer serves (closing what `deps` opened). */
  onStop?: (context: DomainContext<Settings, Deps>) => Promise<void>;
  jobs?: ScheduledJob<Settings, Deps>[];
  /** Its event consumers, or a function of its start (consumers whose events come from the registry). */
  consumers?: EventConsumer[] | ((context: DomainContext<Settings, Deps>) => EventConsumer[]);
  /** Its handlers of the calls its contract declares (`contract.calls`), registered while it runs for the domains in its process. */
  calls?: (context: DomainContext<Settings, Deps>) => HandledCall[];
  /** The documents it runs on the gateway (`gateway` of its start), by name; `npm run schema:check` validates them. */
  supergraphOperations?: Readonly<Record<string, string>>;
  /** Its outside, from `subgraphs/<domain>/surface/`: REST routes, v1 components and public events. */
  surface?: DomainSurface;
}

export const defineModule = <Settings, Deps, Services = unknown>(module: DomainModule<Settings, Deps, Services>): DomainModule<Settings, Deps, Services> =>
  module;

/** A domain's subgraph schema; without `deps` it can be printed, not served. */
export function buildDomainSchema<Deps>(module: DomainModule<unknown, Deps>, deps?: Deps): Promise<BuiltSubgraph> {
  return buildSubgraph({
    name: module.contract.name,
    resolvers: module.resolvers,
    orphanedTypes: module.orphanedTypes,
    referenceResolvers: module.referenceResolvers,
    container: deps === undefined ? undefined : { get: (resolverClass) => new resolverClass(deps) },
  });
}

/**
 * Opens a domain's ORM on its own schema, bringing the schema up to date (its migrations). Every
 * soft-deletable entity (catalogs included) gets the `live` filter.
 */
export function openModuleOrm(module: Pick<DomainModule, 'contract' | 'entities' | 'migrations'>, databaseUrl: string, serving?: DomainServing): Promise<MikroORM<PostgreSqlDriver>> {
  const softDeletable = module.entities.filter(isSoftDeletable);
  const bases = [...(softDeletable.length ? [SoftDeletable] : []), ...(module.entities.some(isCatalogEntity) ? CATALOG_BASES : [])];
  return openDomainOrm({
    url: databaseUrl,
    schema: module.contract.name,
    entities: [...bases, ...module.entities, OutboxEvent],
    // Every domain's outbox gains the trace context column after the domain's own migrations.
    migrations: { ...module.migrations, Migration20261129OutboxTraceContext: outboxTraceContextMigration(module.contract.name) },
    filters: liveFilter(softDeletable.map((entity) => entity.name)),
    serving,
  });
}

/**
 * Runs a domain: opens its schema (running its migrations), starts the job queue, its outbox relay and
 * whatever the module starts, registers its call handlers in `calls`, and serves its subgraph. `close`
 * stops them in reverse order. It reaches the gateway through `gateway`, GATEWAY_URL over HTTP unless
 * given; other domains' calls through `calls` (the platform's registry when they share the process,
 * else one of its own, where only its own calls are answered).
 */
export async function startDomain(
  module: DomainModule<unknown, unknown, unknown>,
  config: Config,
  databaseUrl: string,
  logger: Logger,
  { contracts, publicEvents }: Pick<ModuleStart<unknown>, 'contracts' | 'publicEvents'>,
  gateway: OperationExecutor = gatewayLink(config).execute,
  calls: DomainCalls = new DomainCalls(),
): Promise<RunningGraphqlServer> {
  const { name } = module.contract;
  const domain = config.domains[name];
  if (!domain) throw new Error(`The configuration has no settings for domain "${name}"`);
  const orm = await openModuleOrm(module, databaseUrl, { deadlines: config.deadlines, logger });
  const unwatchPool = watchPool(name, orm.em.getConnection().getKnex().client.pool);
  const boss = await startJobQueue(databaseUrl, logger);
  const relay = startOutboxRelay(orm, boss, logger);
  const start: ModuleStart<unknown> = { config, settings: domain.settings, databaseUrl, orm, boss, logger, contracts, publicEvents, gateway, calls };
  const context: DomainContext<unknown, unknown> = { ...start, deps: await module.deps?.(start) };
  await module.onStart?.(context);
  const unregister = calls.register(module.calls?.(context) ?? []);
  const consumers = typeof module.consumers === 'function' ? module.consumers(context) : (module.consumers ?? []);
  for (const consumer of consumers) await startEventConsumer({ orm, boss, logger, ...consumer });
  for (const job of module.jobs ?? []) await scheduleJob(boss, databaseUrl, job.queue, job.cron, () => job.run(context), logger);
  const server = await startSubgraphServer({
    subgraph: await buildDomainSchema(module, context.deps),
    orm,
    tokens: new AccessTokens(config.jwtSecret),
    logger,
    port: domain.port,
    services: module.services && ((em) => module.services!(em, context.deps)),
    ready: databaseReachable(databaseUrl),
    ...subgraphServing(config, name),
  });
  return {
    ...server,
    close: async () => {
      await server.close();
      unregister();
      await module.onStop?.(context);
      await relay.stop();
      await stopJobQueue(boss);
      unwatchPool();
      await orm.close();
    },
  };
}
