import { Migration20261122PointInitial } from './migration-20261122-initial';
import { Migration20261122PointReceiptsRules } from './migration-20261122-receipts-rules';
import { Migration20261123PointOutboxChain } from './migration-20261123-outbox-chain';
import { Migration20261124PointLargeLedger } from './migration-20261124-large-ledger';
import { Migration20261129PointExpiryNotice } from './migration-20261129-expiry-notice';
import { Migration20261130PointAwardReference } from './migration-20261130-award-reference';
import { Migration20261201PointPurchases } from './migration-20261201-purchases';
import { Migration20261202PointMemberActivity } from './migration-20261202-member-activity';
import { Migration20261203PointKnownMembers } from './migration-20261203-known-members';
import { Migration20261216PointConsumerParkedFlag } from './migration-20261216-consumer-parked-flag';
import { Migration20261230PointMemberProfile } from './migration-20261230-member-profile';
import { Migration20261231PointEarningRules } from './migration-20261231-earning-rules';
import { Migration20270101PointCustomEvents } from './migration-20270101-custom-events';
import { Migration20270102PointPendingPoints } from './migration-20270102-pending-points';
import { Migration20270103PointReferrals } from './migration-20270103-referrals';

/** Every point migration, by name, in the order they apply. */
export const pointMigrations = {
  Migration20261122PointInitial,
  Migration20261122PointReceiptsRules,
  Migration20261123PointOutboxChain,
  Migration20261124PointLargeLedger,
  Migration20261129PointExpiryNotice,
  Migration20261130PointAwardReference,
  Migration20261201PointPurchases,
  Migration20261202PointMemberActivity,
  Migration20261203PointKnownMembers,
  Migration20261216PointConsumerParkedFlag,
  Migration20261230PointMemberProfile,
  Migration20261231PointEarningRules,
  Migration20270101PointCustomEvents,
  Migration20270102PointPendingPoints,
  Migration20270103PointReferrals,
};
