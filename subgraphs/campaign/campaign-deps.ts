import { MemberProjection } from '../../core/member-projection';
import { CampaignSupergraph } from './services/campaign-supergraph';

/** What the campaign services need besides a unit of work. */
export interface CampaignDeps {
  /** Members, segments and point awards, through the supergraph as the campaign service. */
  supergraph: CampaignSupergraph;
  /** Campaign's projection of which members exist (`campaign.known_member`), kept from auth's events. */
  memberProjection: MemberProjection;
}
