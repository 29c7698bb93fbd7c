import { Migration20261122AuthOutbox } from './migration-20261122-auth-outbox';
import { Migration20261122Initial } from './migration-20261122-initial';
import { Migration20261122PointPermissions } from './migration-20261122-point-permissions';
import { Migration20261122TierPermissions } from './migration-20261122-tier-permissions';
import { Migration20261122TierRead } from './migration-20261122-tier-read';
import { Migration20261122BadgePermissions } from './migration-20261122-badge-permissions';
import { Migration20261122SegmentPermissions } from './migration-20261122-segment-permissions';
import { Migration20261123SessionsKeys } from './migration-20261123-sessions-keys';
import { Migration20261123AuthOutboxChain } from './migration-20261123-outbox-chain';
import { Migration20261124AuthLargeMembers } from './migration-20261124-large-members';
import { Migration20261125ApiKeyScopes } from './migration-20261125-api-key-scopes';
import { Migration20261126ApiKeyRateLimit } from './migration-20261126-api-key-rate-limit';
import { Migration20261126CustomerFields } from './migration-20261126-customer-fields';
import { Migration20261127RewardRead } from './migration-20261127-reward-read';
import { Migration20261127OAuth } from './migration-20261127-oauth';
import { Migration20261201OAuthClientState } from './migration-20261201-oauth-client-state';
import { Migration20261202TierCatalog } from './migration-20261202-tier-catalog';
import { Migration20261216AuthConsumerParkedFlag } from './migration-20261216-consumer-parked-flag';

/** Every auth migration, by name, in the order they apply. */
export const authMigrations = {
  Migration20261122Initial,
  Migration20261122PointPermissions,
  Migration20261122TierPermissions,
  Migration20261122TierRead,
  Migration20261122SegmentPermissions,
  Migration20261122BadgePermissions,
  Migration20261122AuthOutbox,
  Migration20261123SessionsKeys,
  Migration20261123AuthOutboxChain,
  Migration20261124AuthLargeMembers,
  Migration20261125ApiKeyScopes,
  Migration20261126ApiKeyRateLimit,
  Migration20261126CustomerFields,
  Migration20261127RewardRead,
  Migration20261127OAuth,
  Migration20261201OAuthClientState,
  Migration20261202TierCatalog,
  Migration20261216AuthConsumerParkedFlag,
};
