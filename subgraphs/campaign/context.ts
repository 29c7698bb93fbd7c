import { EntityManager } from '@mikro-orm/postgresql';
import { RequestContext } from '../../core/context';
import { CampaignDeps } from './campaign-deps';
import { CampaignService } from './services/campaign.service';
import { ParticipantService } from './services/participant.service';
import { campaignAnalytics } from './services/campaign-analytics';
import { CampaignAnalyticsArgs } from './types/campaign-analytics.types';

/** The campaign services of one request, on its unit of work. */
export function campaignServices(em: EntityManager, deps?: CampaignDeps) {
  const campaigns = new CampaignService(em, deps?.supergraph);
  return {
    campaigns,
    participants: new ParticipantService(em, campaigns, deps?.supergraph),
    analytics: (args: CampaignAnalyticsArgs) => campaignAnalytics(em, campaigns, args),
  };
}

export type CampaignContext = RequestContext<ReturnType<typeof campaignServices>>;
