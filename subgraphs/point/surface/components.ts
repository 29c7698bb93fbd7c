import { EARNING_RULE, EARNING_SIMULATION } from './v1-earning-rules';
import { CUSTOM_EVENT, EVENT_TYPE } from './v1-custom-events';
import { CUSTOMER_REFERRAL, REFERRAL_RECORD, REFERRAL_SETTINGS_RECORD } from './v1-referrals';
import { JsonSchema, arrayOf, boolean, id, integer, nullable, number, object, oneOf, record, string, timestamp } from '../../../core/rest/json-schema';

/** The v1 resources of points, purchase transactions and interactions, as the routes answer them (snake_case). */
export const POINT_COMPONENTS: Record<string, JsonSchema> = {
  EarningRule: EARNING_RULE,
  EarningSimulation: EARNING_SIMULATION,
  CustomEventType: EVENT_TYPE,
  CustomEvent: CUSTOM_EVENT,
  Referral: REFERRAL_RECORD,
  CustomerReferral: CUSTOMER_REFERRAL,
  ReferralSettings: REFERRAL_SETTINGS_RECORD,
  PointsTransaction: record({
    id: id(),
    customer_id: id(),
    points: integer({ description: 'negative for redemptions and expiries' }),
    type: oneOf('earned', 'redeemed', 'expired'),
    reason: nullable(string()),
    balance_after: integer(),
    created_at: timestamp(),
  }),
  PointBalance: record({
    customer_id: id(),
    balance: integer(),
    pending: integer({ description: 'points held (pending): not spendable until activated' }),
    lifetime_earned: integer(),
    lifetime_redeemed: integer(),
    pending_expiration: nullable(record({ points: integer(), expires_at: timestamp() })),
  }),
  PendingPoints: record({
    id: id(),
    customer_id: id(),
    points: integer({ description: 'held now (a refund may have reduced them)' }),
    original_points: integer(),
    source_type: oneOf('purchase', 'custom_event', 'booking', 'customer', 'receipt', 'referral'),
    source_id: string(),
    reference_id: nullable(string()),
    activates_at: timestamp(),
    status: oneOf('pending', 'activated', 'cancelled'),
    earn_entry_id: nullable(id({ description: 'the EARN entry of its activation' })),
    created_at: timestamp(),
    settled_at: nullable(timestamp()),
  }),
  BatchAwardReport: record({
    processed: integer({ description: 'rows awarded' }),
    failed: integer(),
    results: arrayOf(
      object(
        {
          customer_id: string(),
          success: boolean(),
          transaction_id: nullable(id({ description: 'the ledger entry of the award' })),
          error: object({ code: string({ description: 'CUSTOMER_NOT_FOUND, or INTERNAL_ERROR when the row could not be recorded' }), message: string() }, ['code', 'message'], {
            description: 'why the row was not awarded (only on a failed row)',
          }),
        },
        ['customer_id', 'success', 'transaction_id'],
      ),
    ),
  }),
  Transaction: record({
    id: id(),
    customer_id: id(),
    amount: number({ description: 'currency units, 2 decimals' }),
    store_id: nullable(string({ description: 'the shop id of the point shop rules' })),
    category: nullable(string()),
    external_id: nullable(string({ description: "the retailer's own id, unique per store" })),
    status: oneOf('completed', 'partially_refunded', 'refunded'),
    points_earned: integer(),
    refunded_amount: number(),
    points_reversed: integer({ description: 'points the refunds took back' }),
    points_unrecovered: integer({ description: 'points the refunds could not take back (already spent)' }),
    occurred_at: timestamp(),
    created_at: timestamp(),
  }),
  Interaction: record({
    id: id(),
    type: oneOf('purchase', 'refund', 'booking', 'visit', 'click', 'campaign_joined'),
    channel: oneOf('api', 'receipt', 'booking', 'campaign'),
    description: string(),
    amount: nullable(number()),
    points_earned: integer({ description: 'negative for points a refund took back' }),
    created_at: timestamp(),
  }),
};
