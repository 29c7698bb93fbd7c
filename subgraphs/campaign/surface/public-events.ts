import { v1Time } from '../../../core/rest/case';
import { PublicEvent } from '../../../core/rest/surface';
import { CAMPAIGN, CampaignChanged, CampaignParticipantCompleted, CampaignParticipantJoined } from '../contract';

/** A campaign's state change (`campaign.created`, `started`, `ended`) as Part 3 data. */
const campaignData = (event: CampaignChanged) => ({
  campaign_id: event.campaignId,
  name: event.name,
  type: event.type,
  status: event.status,
  start_date: v1Time(event.startDate),
  end_date: v1Time(event.endDate),
  occurred_at: v1Time(event.occurredAt),
});

/** The campaign domain's events as Part 3 webhook events. */
export const CAMPAIGN_PUBLIC_EVENTS: PublicEvent[] = [
  { internal: CAMPAIGN.events.created, type: 'campaign.created', data: campaignData },
  { internal: CAMPAIGN.events.started, type: 'campaign.started', data: campaignData },
  { internal: CAMPAIGN.events.ended, type: 'campaign.ended', data: campaignData },
  {
    internal: CAMPAIGN.events.participantJoined,
    type: 'campaign.participant.joined',
    data: (event: CampaignParticipantJoined) => ({ campaign_id: event.campaignId, campaign_name: event.campaignName, customer_id: event.customerId, joined_at: v1Time(event.joinedAt) }),
  },
  {
    internal: CAMPAIGN.events.participantCompleted,
    type: 'campaign.participant.completed',
    data: (event: CampaignParticipantCompleted) => ({
      campaign_id: event.campaignId,
      campaign_name: event.campaignName,
      customer_id: event.customerId,
      participant_id: event.participantId,
      completed_at: v1Time(event.completedAt),
      reward: event.reward,
    }),
  },
];
