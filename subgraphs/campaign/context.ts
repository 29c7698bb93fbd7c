import { EntityManager } from '@mikro-orm/postgresql';
import { BatchLoader } from '../../core/batch-loader';
import { RequestContext } from '../../core/context';
import { CampaignDeps } from './campaign-deps';
import { Campaign } from './entities/campaign';
import { CampaignService, NO_FIGURES } from './services/campaign.service';
import { ParticipantService } from './services/participant.service';
import { campaignAnalytics } from './services/campaign-analytics';
import { CampaignAnalyticsArgs } from './types/campaign-analytics.types';

/** The campaign services of one request, on its unit of work; the loaders batch a page's lookups into one query. */
export function campaignServices(em: EntityManager, deps?: CampaignDeps) {
  const campaigns = new CampaignService(em, deps?.supergraph);
  return {
    campaigns,
    participants: new ParticipantService(em, campaigns, deps?.supergraph),
    analytics: (args: CampaignAnalyticsArgs) => campaignAnalytics(em, campaigns, args),
    /** Campaign.participantCount and conversionRate: a page of campaigns costs one query. */
    figures: new BatchLoader((ids: string[]) => campaigns.figures(ids), NO_FIGURES),
    /** Participant.campaign where the participants came without it: a page costs one query. */
    campaignsById: new BatchLoader(async (ids: string[]) => new Map((await em.find(Campaign, { id: { $in: ids } })).map((campaign) => [campaign.id, campaign])), null),
  };
}

export type CampaignContext = RequestContext<ReturnType<typeof campaignServices>>;
