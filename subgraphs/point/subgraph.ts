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
import { PointTransaction } from './entities/point-transaction';
import { PointRequestTicket } from './entities/point-request-ticket';
import { PointShopRule } from './entities/point-shop-rule';
import { ReceiptVerification } from './entities/receipt-verification';
import { pointMigrations } from './migrations';
import { PointDeps } from './point-deps';
import { MemberPointsResolver } from './resolvers/member-points.resolver';
import { PointResolver } from './resolvers/point.resolver';
import { RequestTicketResolver } from './resolvers/request-ticket.resolver';
import { ReceiptResolver } from './resolvers/receipt.resolver';
import { ShopRuleResolver } from './resolvers/shop-rule.resolver';
import { WeakLoaders } from './services/balance-loader';
import { EXPIRE_LOTS_QUEUE, scheduleExpiryJob } from './services/expiry-job';
import { LedgerService } from './services/ledger.service';
import { createReceiptExtractor } from './services/receipt-extractor';
import { MemberReference } from './types/member.type';

export const pointEntities = [PointTransaction, PointRequestTicket, PointShopRule, ReceiptVerification, OutboxEvent];

/** The point subgraph's schema; `deps` is needed to serve it, not to print it. */
export function buildPointSubgraph(deps?: PointDeps): Promise<BuiltSubgraph> {
  return buildSubgraph({
    name: 'point',
    resolvers: [PointResolver, MemberPointsResolver, RequestTicketResolver, ShopRuleResolver, ReceiptResolver],
    orphanedTypes: [MemberReference],
    container: deps ? { get: (resolverClass) => new resolverClass(deps) } : undefined,
    referenceResolvers: {
      Member: { __resolveReference: (reference: { id: string }) => ({ id: reference.id }) },
    },
  });
}

/**
 * Opens the point schema (running its migrations), starts the job queue with the outbox relay and
 * the expiry job, and serves the subgraph.
 */
export async function startPointSubgraph(config: Config, databaseUrl: string, logger: Logger, port = config.pointPort): Promise<RunningServer> {
  const orm = await openDomainOrm({ url: databaseUrl, schema: 'point', entities: pointEntities, migrations: pointMigrations });
  const ledger = new LedgerService(config.pointExpiry);
  const boss = await startJobQueue(databaseUrl, logger, [EXPIRE_LOTS_QUEUE]);
  const relay = startOutboxRelay(orm, boss, logger);
  await scheduleExpiryJob(orm, boss, ledger, logger);
  const deps: PointDeps = { ledger, balanceLoaders: new WeakLoaders(ledger), receiptExtractor: createReceiptExtractor(config.receiptExtractorUrl) };
  const server = await startSubgraphServer({ subgraph: await buildPointSubgraph(deps), orm, tokens: new AccessTokens(config.jwtSecret), logger, port, ...subgraphServing(config, 'point') });
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
