import { EntityManager } from '@mikro-orm/postgresql';
import { ClientBase } from 'pg';
import { payloadOf } from '../../../core/events/event-type';
import { PublishedEvent } from '../../../core/events/outbox-event';
import { AUTH, customerCreatedOf, customerDeletedOf, customerUpdateOf } from '../../auth/contract';
import { BOOKING } from '../../booking/contract';
import { CAMPAIGN } from '../../campaign/contract';
import { CLUSTER } from '../../cluster/contract';
import { NOTIFICATION } from '../../notification/contract';
import { POINT, PointLedgerEntry } from '../../point/contract';
import { REWARD } from '../../reward/contract';

/** The queue of the read model's consumer. */
export const ANALYTICS_READ_MODEL_QUEUE = 'analytics.read-model';

/** Every event type the read model is built from, with the domain (Postgres schema) that publishes it. */
export const ANALYTICS_EVENT_SOURCES: Readonly<Record<string, string>> = {
  [AUTH.events.customerCreated]: AUTH.name,
  [AUTH.events.customerUpdated]: AUTH.name,
  [AUTH.events.customerDeleted]: AUTH.name,
  [CLUSTER.events.tierChanged]: CLUSTER.name,
  [POINT.events.earned]: POINT.name,
  [POINT.events.redeemed]: POINT.name,
  [POINT.events.expired]: POINT.name,
  [POINT.events.transactionCompleted]: POINT.name,
  [POINT.events.transactionRefunded]: POINT.name,
  [POINT.events.referralCreated]: POINT.name,
  [POINT.events.referralCompleted]: POINT.name,
  [REWARD.events.claimed]: REWARD.name,
  [REWARD.events.redeemed]: REWARD.name,
  [CAMPAIGN.events.created]: CAMPAIGN.name,
  [CAMPAIGN.events.started]: CAMPAIGN.name,
  [CAMPAIGN.events.ended]: CAMPAIGN.name,
  [CAMPAIGN.events.participantJoined]: CAMPAIGN.name,
  [CAMPAIGN.events.participantCompleted]: CAMPAIGN.name,
  [BOOKING.events.created]: BOOKING.name,
  [BOOKING.events.cancelled]: BOOKING.name,
  [BOOKING.events.checkedIn]: BOOKING.name,
  [NOTIFICATION.events.read]: NOTIFICATION.name,
};
export const ANALYTICS_EVENTS = Object.keys(ANALYTICS_EVENT_SOURCES);

/** The tables of the read model, emptied by a rebuild (the reports are not part of it). */
export const READ_MODEL_TABLES = ['applied_event', 'customer', 'customer_day', 'day_total', 'sales_day', 'purchase', 'points_entry', 'reward_claim', 'campaign', 'campaign_participant', 'booking'];

type DayColumn =
  | 'actions'
  | 'purchases'
  | 'purchase_amount'
  | 'bookings'
  | 'check_ins'
  | 'points_earned'
  | 'points_redeemed'
  | 'points_expired'
  | 'rewards_claimed'
  | 'rewards_redeemed'
  | 'campaign_joins';

/** The UTC day of a timestamp, `YYYY-MM-DD`. */
export const utcDay = (timestamp: string): string => new Date(timestamp).toISOString().slice(0, 10);

const abs = (amount: string) => amount.replace(/^-/, '');

/**
 * The changes one event makes, as ONE statement: `fresh` records the event id (nothing when it was
 * applied before) and every step is a data-modifying CTE that runs only when `fresh` holds a row (or a
 * step it names, such as a purchase row inserted just now). One round trip per event, whatever the type.
 */
class EventStatement {
  private readonly steps: string[] = [];
  private readonly params: unknown[];

  constructor(event: PublishedEvent) {
    this.params = [event.id, event.type];
  }

  /** A data-modifying step (gated by its own `where exists`); returns its name, for steps that need its rows. */
  step(sql: string, params: unknown[]): string {
    const name = `s${this.steps.length}`;
    this.steps.push(`${name} as (${sql})`);
    this.params.push(...params);
    return name;
  }

  /**
   * A customer's action (what makes it active): its row (created when the action comes before its
   * `customer.created`) keeps the latest day with one, and the figures are added to its day and the day's total.
   */
  action(at: string, customerId: string, figures: Partial<Record<DayColumn, string | number>>): void {
    this.step(
      `insert into analytics.customer (customer_id, last_active_day) select ?::uuid, ?::date where exists (select 1 from fresh)
       on conflict (customer_id) do update set last_active_day = greatest(customer.last_active_day, excluded.last_active_day)`,
      [customerId, utcDay(at)],
    );
    this.addToDay(at, customerId, { actions: 1, ...figures });
  }

  /** Adds to a customer's figures of one day and to the day's total (the rows created at zero). */
  addToDay(at: string, customerId: string, figures: Partial<Record<DayColumn, string | number>>): void {
    const columns = Object.keys(figures) as DayColumn[];
    const values = columns.map((column) => figures[column]);
    const add = (table: string) => columns.map((column) => `${column} = ${table}.${column} + excluded.${column}`).join(', ');
    this.step(
      `insert into analytics.customer_day (day, customer_id, ${columns.join(', ')})
       select ?::date, ?::uuid, ${columns.map(() => '?::numeric').join(', ')} where exists (select 1 from fresh)
       on conflict (day, customer_id) do update set ${add('customer_day')}`,
      [utcDay(at), customerId, ...values],
    );
    this.step(
      `insert into analytics.day_total (day, ${columns.join(', ')}) select ?::date, ${columns.map(() => '?::numeric').join(', ')} where exists (select 1 from fresh)
       on conflict (day) do update set ${add('day_total')}`,
      [utcDay(at), ...values],
    );
  }

  sql(): { sql: string; params: unknown[] } {
    return {
      sql: `with fresh as (insert into analytics.applied_event (event_id, type) values (?, ?) on conflict do nothing returning event_id)
            ${this.steps.map((step) => `, ${step}`).join('\n')}
            select count(*)::int as fresh from fresh`,
      params: this.params,
    };
  }
}

function ledgerEntry(statement: EventStatement, type: 'earned' | 'redeemed' | 'expired', entry: PointLedgerEntry): void {
  const points = abs(entry.amount);
  statement.step(
    `insert into analytics.points_entry (transaction_id, customer_id, type, points, reason, balance_after, created_at)
     select ?, ?::uuid, ?, ?::numeric, ?, ?::numeric, ?::timestamptz where exists (select 1 from fresh) on conflict do nothing`,
    [entry.transactionId, entry.memberId, type, points, entry.note ?? null, entry.balanceAfter, entry.createdAt],
  );
  statement.step(
    `insert into analytics.customer (customer_id, points_balance, points_earned, points_redeemed)
     select ?::uuid, ?::numeric, ?::numeric, ?::numeric where exists (select 1 from fresh)
     on conflict (customer_id) do update set points_balance = excluded.points_balance,
       points_earned = customer.points_earned + excluded.points_earned, points_redeemed = customer.points_redeemed + excluded.points_redeemed`,
    [entry.memberId, entry.balanceAfter, type === 'earned' ? points : 0, type === 'redeemed' ? points : 0],
  );
  statement.addToDay(entry.createdAt, entry.memberId, { [`points_${type}`]: points });
}

/** A profile event's name, e-mail and phone replace the row's unless the row's are newer (a deletion's erasure included). */
const NEWER_PROFILE = `name = case when newer then excluded.name else customer.name end, email = case when newer then excluded.email else customer.email end,
  phone = case when newer then excluded.phone else customer.phone end, profile_at = greatest(customer.profile_at, excluded.profile_at)`.replace(
  /newer/g,
  `customer.deleted_at is null and coalesce(customer.profile_at, '-infinity') <= excluded.profile_at`,
);

/** The statement of one event of the read model's types. */
function statementOf(event: PublishedEvent<any>): EventStatement {
  const statement = new EventStatement(event);
  switch (event.type) {
    case AUTH.events.customerCreated: {
      const created = customerCreatedOf(payloadOf(event, AUTH.events.customerCreated));
      statement.step(
        `insert into analytics.customer (customer_id, name, email, phone, profile_at, registered_at)
         select ?::uuid, ?, ?, ?, ?::timestamptz, ?::timestamptz where exists (select 1 from fresh)
         on conflict (customer_id) do update set registered_at = excluded.registered_at, ${NEWER_PROFILE}`,
        [created.memberId, created.name, created.email, created.phone, created.createdAt, created.createdAt],
      );
      statement.step(
        `insert into analytics.day_total (day, registrations) select ?::date, 1 where exists (select 1 from fresh)
         on conflict (day) do update set registrations = day_total.registrations + 1`,
        [utcDay(created.createdAt)],
      );
      break;
    }
    case AUTH.events.customerUpdated: {
      const customer = customerUpdateOf(payloadOf(event, AUTH.events.customerUpdated));
      statement.step(
        `insert into analytics.customer (customer_id, name, email, phone, profile_at) select ?::uuid, ?, ?, ?, ?::timestamptz where exists (select 1 from fresh)
         on conflict (customer_id) do update set ${NEWER_PROFILE}`,
        [customer.id, customer.name, customer.email, customer.phone, customer.updatedAt],
      );
      break;
    }
    case AUTH.events.customerDeleted: {
      // The auth domain erases a deleted customer's personal data: so does the read model (the figures stay).
      const deleted = customerDeletedOf(payloadOf(event, AUTH.events.customerDeleted));
      statement.step(
        `insert into analytics.customer (customer_id, deleted_at, profile_at) select ?::uuid, ?::timestamptz, ?::timestamptz where exists (select 1 from fresh)
         on conflict (customer_id) do update set deleted_at = excluded.deleted_at, name = null, email = null, phone = null,
           profile_at = greatest(customer.profile_at, excluded.profile_at)`,
        [deleted.memberId, deleted.deletedAt, deleted.deletedAt],
      );
      break;
    }
    case CLUSTER.events.tierChanged: {
      const change = payloadOf(event, CLUSTER.events.tierChanged);
      statement.step(
        `insert into analytics.customer (customer_id, tier_id, tier_name) select ?::uuid, ?, ? where exists (select 1 from fresh)
         on conflict (customer_id) do update set tier_id = excluded.tier_id, tier_name = excluded.tier_name`,
        [change.customer_id, change.to_tier?.id ?? null, change.to_tier?.name ?? null],
      );
      break;
    }
    case POINT.events.earned:
      ledgerEntry(statement, 'earned', payloadOf(event, POINT.events.earned));
      break;
    case POINT.events.redeemed:
      ledgerEntry(statement, 'redeemed', payloadOf(event, POINT.events.redeemed));
      break;
    case POINT.events.expired:
      ledgerEntry(statement, 'expired', payloadOf(event, POINT.events.expired));
      break;
    case POINT.events.transactionRefunded: {
      const refund = payloadOf(event, POINT.events.transactionRefunded);
      const refunded = statement.step(
        `update analytics.purchase set refunded = refunded + ?::numeric, status = ? where transaction_id = ? and exists (select 1 from fresh)
         returning coalesce(store_id, '') as store_id, coalesce(category, '') as category`,
        [refund.amount, refund.status, refund.transactionId],
      );
      statement.step(
        `insert into analytics.sales_day (day, store_id, category, refunded) select ?::date, store_id, category, ?::numeric from ${refunded}
         on conflict (day, store_id, category) do update set refunded = sales_day.refunded + excluded.refunded`,
        [utcDay(refund.refundedAt), refund.amount],
      );
      break;
    }
    case POINT.events.referralCreated:
    case POINT.events.referralCompleted: {
      const referral = payloadOf(event, POINT.events.referralCreated, POINT.events.referralCompleted);
      const column = event.type === POINT.events.referralCreated ? 'referrals_created' : 'referrals_completed';
      statement.step(
        `insert into analytics.day_total (day, ${column}) select ?::date, 1 where exists (select 1 from fresh)
         on conflict (day) do update set ${column} = day_total.${column} + 1`,
        [utcDay(referral.completedAt ?? referral.createdAt)],
      );
      break;
    }
    case REWARD.events.claimed: {
      const claim = payloadOf(event, REWARD.events.claimed);
      statement.step(
        `insert into analytics.reward_claim (reward_code_id, customer_id, reward_id, points, claimed_at) select ?, ?::uuid, ?, ?::numeric, ?::timestamptz
          where exists (select 1 from fresh) on conflict do nothing`,
        [claim.rewardCodeId, claim.memberId, claim.rewardCatalogId, claim.pointUsage, claim.claimedAt],
      );
      statement.action(claim.claimedAt, claim.memberId, { rewards_claimed: 1 });
      break;
    }
    case REWARD.events.redeemed: {
      const used = payloadOf(event, REWARD.events.redeemed);
      statement.step(
        `insert into analytics.reward_claim (reward_code_id, customer_id, reward_id, points, claimed_at, redeemed_at) select ?, ?::uuid, ?, 0, ?::timestamptz, ?::timestamptz
          where exists (select 1 from fresh) on conflict (reward_code_id) do update set redeemed_at = excluded.redeemed_at`,
        [used.rewardCodeId, used.memberId, used.rewardCatalogId, used.usedAt, used.usedAt],
      );
      statement.action(used.usedAt, used.memberId, { rewards_redeemed: 1 });
      break;
    }
    case CAMPAIGN.events.created:
    case CAMPAIGN.events.started:
    case CAMPAIGN.events.ended: {
      const campaign = payloadOf(event, CAMPAIGN.events.created, CAMPAIGN.events.started, CAMPAIGN.events.ended);
      statement.step(
        `insert into analytics.campaign (campaign_id, name, type, status, start_date, end_date, created_at)
         select ?::uuid, ?, ?, ?, ?::timestamptz, ?::timestamptz, ?::timestamptz where exists (select 1 from fresh)
         on conflict (campaign_id) do update set name = excluded.name, type = excluded.type, status = excluded.status,
           start_date = excluded.start_date, end_date = excluded.end_date`,
        [campaign.campaignId, campaign.name, campaign.type, campaign.status, campaign.startDate, campaign.endDate, campaign.occurredAt],
      );
      break;
    }
    case CAMPAIGN.events.participantJoined: {
      const joined = payloadOf(event, CAMPAIGN.events.participantJoined);
      statement.step(
        `insert into analytics.campaign_participant (campaign_id, customer_id, joined_at) select ?::uuid, ?::uuid, ?::timestamptz where exists (select 1 from fresh)
         on conflict do nothing`,
        [joined.campaignId, joined.customerId, joined.joinedAt],
      );
      statement.action(joined.joinedAt, joined.customerId, { campaign_joins: 1 });
      break;
    }
    case CAMPAIGN.events.participantCompleted: {
      const completed = payloadOf(event, CAMPAIGN.events.participantCompleted);
      const points = completed.reward?.type === 'points' ? String(completed.reward.value ?? 0) : '0';
      // The customer's latest open participation joined before the completion (its join is earlier in the same stream).
      statement.step(
        `update analytics.campaign_participant set completed_at = ?::timestamptz, reward_points = ?::numeric
          where exists (select 1 from fresh) and (campaign_id, customer_id, joined_at) = (
            select campaign_id, customer_id, joined_at from analytics.campaign_participant
             where campaign_id = ?::uuid and customer_id = ?::uuid and completed_at is null and joined_at <= ?::timestamptz order by joined_at desc limit 1)`,
        [completed.completedAt, points, completed.campaignId, completed.customerId, completed.completedAt],
      );
      break;
    }
    case BOOKING.events.created: {
      const booking = payloadOf(event, BOOKING.events.created);
      statement.step(
        `insert into analytics.booking (booking_id, customer_id, booked_day) select ?, ?::uuid, ?::date where exists (select 1 from fresh) on conflict do nothing`,
        [booking.bookingId, booking.memberId, utcDay(booking.occurredAt)],
      );
      statement.action(booking.occurredAt, booking.memberId, { bookings: 1 });
      break;
    }
    case BOOKING.events.cancelled: {
      // The booking leaves the bookings of the day it was made (a cancellation is not an action of the customer's: staff cancel too).
      const booking = payloadOf(event, BOOKING.events.cancelled);
      const cancelled = statement.step(
        `update analytics.booking set cancelled_at = ?::timestamptz where booking_id = ? and cancelled_at is null and exists (select 1 from fresh)
         returning customer_id, booked_day`,
        [booking.occurredAt, booking.bookingId],
      );
      statement.step(`update analytics.customer_day d set bookings = d.bookings - 1 from ${cancelled} b where d.day = b.booked_day and d.customer_id = b.customer_id`, []);
      statement.step(`update analytics.day_total d set bookings = d.bookings - 1 from ${cancelled} b where d.day = b.booked_day`, []);
      break;
    }
    case BOOKING.events.checkedIn: {
      const booking = payloadOf(event, BOOKING.events.checkedIn);
      statement.action(booking.checkedInAt ?? booking.occurredAt, booking.memberId, { check_ins: 1 });
      break;
    }
    case NOTIFICATION.events.read: {
      const read = payloadOf(event, NOTIFICATION.events.read);
      statement.action(read.readAt, read.memberId, {});
      break;
    }
  }
  return statement;
}

/**
 * Purchases (`transaction.completed`), the bulk of the history, applied as a set in one statement: the
 * new event ids, their purchase rows, and the daily figures summed per customer and day, per day, store
 * and category. `input` is the set: one purchase for the live consumer, thousands of the rebuild's
 * staged outbox rows at once (straight from the table: the rows never leave the database).
 */
const purchasesSql = (input: string) => `
  with input as (${input}),
  fresh as (insert into analytics.applied_event (event_id, type) select id, type from input on conflict do nothing returning event_id),
  inserted as (
    insert into analytics.purchase (transaction_id, customer_id, amount, status, store_id, category, points_earned, occurred_at)
    select transaction_id, customer_id, amount, 'completed', store_id, category, points_earned, occurred_at from input join fresh on fresh.event_id = input.id
    on conflict do nothing returning customer_id, amount, store_id, category, (occurred_at at time zone 'UTC')::date as day),
  customers as (
    insert into analytics.customer (customer_id, last_active_day) select customer_id, max(day) from inserted group by customer_id
    on conflict (customer_id) do update set last_active_day = greatest(customer.last_active_day, excluded.last_active_day)),
  totals as (
    insert into analytics.day_total (day, actions, purchases, purchase_amount) select day, count(*), count(*), sum(amount) from inserted group by day
    on conflict (day) do update set actions = day_total.actions + excluded.actions, purchases = day_total.purchases + excluded.purchases,
      purchase_amount = day_total.purchase_amount + excluded.purchase_amount),
  days as (
    insert into analytics.customer_day (day, customer_id, actions, purchases, purchase_amount)
    select day, customer_id, count(*), count(*), sum(amount) from inserted group by day, customer_id
    on conflict (day, customer_id) do update set actions = customer_day.actions + excluded.actions, purchases = customer_day.purchases + excluded.purchases,
      purchase_amount = customer_day.purchase_amount + excluded.purchase_amount),
  sales as (
    insert into analytics.sales_day (day, store_id, category, transactions, gross)
    select day, coalesce(store_id, ''), coalesce(category, ''), count(*), sum(amount) from inserted group by 1, 2, 3
    on conflict (day, store_id, category) do update set transactions = sales_day.transactions + excluded.transactions, gross = sales_day.gross + excluded.gross)
  select count(*)::int as fresh from fresh`;

/** A purchase's fields, read from its event's JSON (`e`). */
const PURCHASE_FIELDS = `e.id, e.type, e.payload->>'transactionId' as transaction_id, (e.payload->>'customerId')::uuid as customer_id, (e.payload->>'amount')::numeric as amount,
  e.payload->>'storeId' as store_id, e.payload->>'category' as category, (e.payload->>'pointsEarned')::numeric as points_earned, (e.payload->>'occurredAt')::timestamptz as occurred_at`;

/** One purchase event of the live consumer. */
const LIVE_PURCHASE_SQL = purchasesSql(`select ${PURCHASE_FIELDS} from (select ?::uuid as id, ?::text as type, ?::jsonb as payload) e`);

/**
 * The rebuild's purchases: the rows of a staging table (`n`, `id`, `type`, `payload`) numbered in
 * commit order, those with `from < n <= to`, in one statement. Returns how many were new.
 */
export async function applyStagedPurchases(client: ClientBase, staged: string, from: number, to: number): Promise<number> {
  const { rows } = await client.query(
    purchasesSql(`select ${PURCHASE_FIELDS} from ${staged} e where e.n > $1 and e.n <= $2 and e.type = '${POINT.events.transactionCompleted}'`),
    [from, to],
  );
  return rows[0].fresh;
}

/** The statement of an event of the read model's types. */
const statementOfEvent = (event: PublishedEvent<any>): { sql: string; params: unknown[] } =>
  event.type === POINT.events.transactionCompleted ? { sql: LIVE_PURCHASE_SQL, params: [event.id, event.type, JSON.stringify(event.data)] } : statementOf(event).sql();

/**
 * Applies one published event to the read model, once per event id: a duplicate delivery, a redelivery
 * after a crash, or a replay by the rebuild changes nothing. One statement, in the caller's transaction;
 * true when the event was new.
 */
export async function applyAnalyticsEvent(em: EntityManager, event: PublishedEvent<any>): Promise<boolean> {
  const { sql, params } = statementOfEvent(event);
  const [{ fresh }] = await em.execute(sql, params);
  return fresh === 1;
}

/**
 * The same for events in commit order, one by one on a plain connection (the rebuild's), each type's
 * statement prepared once per connection (its text never changes). Returns how many were new.
 */
export async function applyAnalyticsEventsOn(client: ClientBase, events: PublishedEvent<any>[]): Promise<number> {
  let applied = 0;
  for (const event of events) {
    const { sql, params } = statementOfEvent(event);
    let index = 0;
    const text = sql.replace(/\?/g, () => `$${++index}`);
    const { rows } = await client.query({ name: `analytics:${event.type}`, text, values: params });
    applied += rows[0].fresh;
  }
  return applied;
}
