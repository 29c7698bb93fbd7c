import { event } from '../../core/events/event-type';
import type { DomainContract } from '../../core/module';

/**
 * The campaign domain's contract: marketing campaigns and their participants (Part 3 "Campaigns",
 * CONTRACT-v1 section 5 "Campaign progress"). Plain data, importable by any domain.
 */
export const CAMPAIGN = {
  name: 'campaign',
  permissions: {
    read: 'campaign:read',
    manage: 'campaign:manage',
  },
  permissionScopes: { read: 'read', manage: 'write' },
  grants: {
    marketing: ['campaign:read', 'campaign:manage'],
    tenant: ['campaign:read'],
  },
  events: {
    created: event<CampaignChanged>('campaign.created'),
    started: event<CampaignChanged>('campaign.started'),
    ended: event<CampaignChanged>('campaign.ended'),
    participantJoined: event<CampaignParticipantJoined>('campaign.participant.joined'),
    participantCompleted: event<CampaignParticipantCompleted>('campaign.participant.completed'),
  },
} as const satisfies DomainContract;

/** `campaign.created`, `campaign.started`, `campaign.ended` (aggregate: the campaign). */
export interface CampaignChanged {
  campaignId: string;
  name: string;
  type: string;
  status: 'draft' | 'active' | 'ended';
  startDate: string;
  endDate: string;
  /** When it was created, activated or ended. */
  occurredAt: string;
}

/** `campaign.participant.joined` (aggregate: the campaign): Part 3's `{campaign_id, campaign_name, customer_id, joined_at}` in camelCase. */
export interface CampaignParticipantJoined {
  campaignId: string;
  campaignName: string;
  customerId: string;
  joinedAt: string;
}

/** `campaign.participant.completed` (aggregate: the campaign): the participation reached its target. */
export interface CampaignParticipantCompleted {
  campaignId: string;
  campaignName: string;
  customerId: string;
  participantId: string;
  completedAt: string;
  reward: Record<string, unknown> | null;
}
