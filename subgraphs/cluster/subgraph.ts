import { AccessTokens } from '../../core/auth/jwt';
import { Config } from '../../core/config';
import { openDomainOrm } from '../../core/db/orm';
import { OutboxEvent } from '../../core/events/outbox-event';
import { startJobQueue } from '../../core/events/job-queue';
import { startOutboxRelay } from '../../core/events/outbox-relay';
import { RunningServer } from '../../core/http';
import { Logger } from '../../core/logger';
import { BuiltSubgraph, buildSubgraph } from '../../core/subgraph';
import { startSubgraphServer, subgraphServing } from '../../core/subgraph-server';
import { ClusterDeps } from './cluster-deps';
import { Badge, BadgeMemberProgress } from './entities/badge';
import { Tier } from './entities/tier';
import { TierHistory } from './entities/tier-history';
import { TierProjection } from './entities/tier-projection';
import { clusterMigrations } from './migrations';
import { BadgeProgressResolver, BadgeResolver } from './resolvers/badge.resolver';
import { MemberTierResolver } from './resolvers/member-tier.resolver';
import { TierResolver } from './resolvers/tier.resolver';
import { TierHistoryResolver, TierProjectionResolver } from './resolvers/tier-projection.resolver';
import { startBadgeEventConsumer } from './services/badge-jobs';
import { startMemberProfileConsumer } from './services/member-profile-jobs';
import { scheduleTierExpiryJob, startPointEventConsumer, TIER_EXPIRY_QUEUE } from './services/tiering-jobs';
import { MemberTierLoaders } from './services/tier-loader';
import { MemberReference } from './types/member.type';
import { InterestCategory } from './entities/interest-category';
import { Segment } from './entities/segment';
import { InterestResolver, SegmentMemberResolver, SegmentResolver } from './resolvers/segment.resolver';

export const clusterEntities = [Tier, TierProjection, TierHistory, Badge, BadgeMemberProgress, OutboxEvent, Segment, InterestCategory];

/** The cluster subgraph's schema; `deps` is needed to serve it, not to print it. */
export function buildClusterSubgraph(deps?: ClusterDeps): Promise<BuiltSubgraph> {
  return buildSubgraph({
    name: 'cluster',
    resolvers: [TierResolver, TierProjectionResolver, TierHistoryResolver, MemberTierResolver, BadgeResolver, BadgeProgressResolver, SegmentResolver, SegmentMemberResolver, InterestResolver],
    orphanedTypes: [MemberReference],
    container: deps ? { get: (resolverClass) => new resolverClass(deps) } : undefined,
    referenceResolvers: {
      Member: { __resolveReference: (reference: { id: string }) => ({ id: reference.id }) },
    },
  });
}

/** Opens the cluster schema (running its migrations), starts the job queue and the outbox relay, and serves the subgraph. */
export async function startClusterSubgraph(config: Config, databaseUrl: string, logger: Logger, port = config.clusterPort): Promise<RunningServer> {
  const orm = await openDomainOrm({ url: databaseUrl, schema: 'cluster', entities: clusterEntities, migrations: clusterMigrations });
  const boss = await startJobQueue(databaseUrl, logger, [TIER_EXPIRY_QUEUE]);
  const relay = startOutboxRelay(orm, boss, logger);
  await startPointEventConsumer(orm, boss, logger);
  await startMemberProfileConsumer(orm, boss, logger);
  await startBadgeEventConsumer(orm, boss, logger);
  await scheduleTierExpiryJob(orm, boss, logger);
  const deps: ClusterDeps = { memberTierLoaders: new MemberTierLoaders(), publicUrl: config.publicUrl };
  const server = await startSubgraphServer({ subgraph: await buildClusterSubgraph(deps), orm, tokens: new AccessTokens(config.jwtSecret), logger, port, ...subgraphServing(config, 'cluster') });
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
