import { startEventConsumer } from '../../core/events/event-consumer';
import { defineModule } from '../../core/module';
import { TransactionCompleted, TransactionRefunded } from '../point/contract';
import { CampaignDeps } from './campaign-deps';
import { campaignServices } from './context';
import { CAMPAIGN } from './contract';
import { Campaign } from './entities/campaign';
import { Participant } from './entities/participant';
import { campaignMigrations } from './migrations';
import { CampaignResolver, ParticipantResolver } from './resolvers/campaign.resolver';
import { MemberCampaignsResolver } from './resolvers/member-campaigns.resolver';
import { MemberReference } from './types/member.type';
import { CAMPAIGN_SUPERGRAPH_OPERATIONS, CampaignSupergraph } from './services/campaign-supergraph';
import { CampaignService } from './services/campaign.service';
import { applyTransactionToCampaigns, CAMPAIGN_PROGRESS_EVENTS, CAMPAIGN_PROGRESS_QUEUE } from './services/campaign-progress';
import { CAMPAIGN_SURFACE } from './surface';

/** Campaign: marketing campaigns (draft → active → ended), participants, and their progress from purchases. */
export const campaignModule = defineModule<unknown, CampaignDeps, ReturnType<typeof campaignServices>>({
  contract: CAMPAIGN,
  defaultPort: 4007,
  entities: [Campaign, Participant],
  migrations: campaignMigrations,
  resolvers: [CampaignResolver, ParticipantResolver, MemberCampaignsResolver],
  orphanedTypes: [MemberReference],
  referenceResolvers: { Member: { __resolveReference: (reference: { id: string }) => ({ id: reference.id }) } },
  services: campaignServices,
  deps: (start) => CampaignSupergraph.over(start),
  consumers: ({ deps }) => [deps.memberProjection.consumer],
  supergraphOperations: CAMPAIGN_SUPERGRAPH_OPERATIONS,
  surface: CAMPAIGN_SURFACE,
  // The consumer needs the gateway (points awards), which `consumers` entries do not receive: started here.
  onStart: async ({ orm, boss, logger, deps }) => {
    await startEventConsumer<TransactionCompleted | TransactionRefunded>({ orm, boss, logger, queue: CAMPAIGN_PROGRESS_QUEUE, events: CAMPAIGN_PROGRESS_EVENTS, apply: (em, event) => applyTransactionToCampaigns(em, event, deps.supergraph) });
  },
  jobs: [
    {
      queue: 'campaign.end-due',
      cron: '* * * * *',
      run: async ({ orm, logger }) => {
        const ended = await new CampaignService(orm.em.fork()).endDue();
        if (ended > 0) logger.info({ ended }, 'campaigns ended at their end date');
      },
    },
  ],
});
