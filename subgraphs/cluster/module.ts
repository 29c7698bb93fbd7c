import { defineModule } from '../../core/module';
import { AUTH } from '../auth/contract';
import { POINT } from '../point/contract';
import { CLUSTER_SUPERGRAPH_OPERATIONS, clusterDeps } from './cluster-deps';
import { ClusterContext, clusterServices } from './context';
import { CLUSTER } from './contract';
import { Badge, BadgeMemberProgress } from './entities/badge';
import { InterestCategory } from './entities/interest-category';
import { Segment } from './entities/segment';
import { Tier } from './entities/tier';
import { TierHistory } from './entities/tier-history';
import { TierProjection } from './entities/tier-projection';
import { clusterMigrations } from './migrations';
import { CLUSTER_QUEUES } from './queues';
import { BadgeProgressResolver, BadgeResolver } from './resolvers/badge.resolver';
import { CustomerTierResolver } from './resolvers/customer-tier.resolver';
import { MemberTierResolver } from './resolvers/member-tier.resolver';
import { InterestResolver, SegmentMemberResolver, SegmentResolver } from './resolvers/segment.resolver';
import { TierHistoryResolver, TierProjectionResolver } from './resolvers/tier-projection.resolver';
import { TierResolver } from './resolvers/tier.resolver';
import { applyBadgeEvent } from './services/badge-progress';
import { clusterCalls } from './services/cluster-calls';
import { placeNewCustomer } from './services/customer-tier.service';
import { applyMemberProfile } from './services/member-profile';
import { applyPointEvent, expireAllDueTiers } from './services/tiering.service';
import { MemberReference } from './types/member.type';
import { CLUSTER_SURFACE } from './surface';

/**
 * Cluster: tiers and each member's tier (upgraded from point events, ended by a job), badges with
 * progress from point events, segments and interests. Contributes `Member.tier`.
 */
export const clusterModule = defineModule({
  contract: CLUSTER,
  defaultPort: 4003,
  entities: [Tier, TierProjection, TierHistory, Badge, BadgeMemberProgress, Segment, InterestCategory],
  migrations: clusterMigrations,
  resolvers: [
    TierResolver,
    TierProjectionResolver,
    TierHistoryResolver,
    MemberTierResolver,
    BadgeResolver,
    BadgeProgressResolver,
    SegmentResolver,
    SegmentMemberResolver,
    InterestResolver,
    CustomerTierResolver,
  ],
  orphanedTypes: [MemberReference],
  referenceResolvers: {
    Member: { __resolveReference: (reference: MemberReference) => ({ id: reference.id, projectedTierId: reference.projectedTierId ?? null }) },
    Segment: { __resolveReference: (reference: { id: string }, ctx: ClusterContext) => ctx.services.segmentReferences.load(reference.id) },
  },
  deps: clusterDeps,
  calls: ({ orm }) => clusterCalls(orm),
  supergraphOperations: CLUSTER_SUPERGRAPH_OPERATIONS,
  surface: CLUSTER_SURFACE,
  services: clusterServices,
  consumers: ({ deps }) => [
    { queue: CLUSTER_QUEUES.points, events: [POINT.events.earned, POINT.events.redeemed], apply: applyPointEvent },
    { queue: CLUSTER_QUEUES.badges, events: [POINT.events.earned, POINT.events.redeemed], apply: applyBadgeEvent },
    { queue: CLUSTER_QUEUES.members, events: [AUTH.events.memberProfileChanged], apply: applyMemberProfile, batchSize: 50 },
    { queue: CLUSTER_QUEUES.customers, events: [AUTH.events.customerCreated], apply: placeNewCustomer },
    deps.memberProjection.consumer,
  ],
  jobs: [
    {
      queue: CLUSTER_QUEUES.tierExpiry,
      cron: '* * * * *',
      run: async ({ orm, logger }) => {
        const expired = await expireAllDueTiers(orm);
        if (expired > 0) logger.info({ expired }, 'member tiers expired');
      },
    },
  ],
});
