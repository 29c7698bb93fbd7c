import { EntityManager } from '@mikro-orm/postgresql';
import { createHmac } from 'node:crypto';
import { payloadOf } from '../../../core/events/event-type';
import { PublishedEvent, recordEvent } from '../../../core/events/outbox-event';
import { timeOrderedId } from '../../../core/ids';
import { SupergraphClient } from '../../../core/supergraph-client';
import { AUTH, CustomerCreated, customerCreatedOf } from '../../auth/contract';
import { POINT, ReferralChanged } from '../contract';
import { ReferralRefusal } from '../entities/referral';
import { POINT_SUPERGRAPH_OPERATIONS } from './point-members';

export const REFERRALS_QUEUE = 'point.referrals';

/** A member's contact as auth holds it, for telling one person from another. */
interface Contact {
  id: string;
  email: string | null;
  phoneNumber: string | null;
  unionId: string | null;
}

/** What the completing purchase tells of itself. */
export interface ReferralPurchase {
  id: string;
  memberId: string;
  amount: string;
  occurredAt: Date;
}

/** A PostgreSQL array literal of fingerprints (base64url: nothing in them needs quoting). */
const textArray = (prints: string[]): string => `{${prints.join(',')}}`;

const GMAIL = new Set(['gmail.com', 'googlemail.com']);

/** An e-mail address as one mailbox: lower case, without a `+tag`, and without dots for Gmail. */
function mailbox(email: string): string {
  const address = email.trim().toLowerCase();
  const at = address.lastIndexOf('@');
  const domain = address.slice(at + 1);
  const local = address.slice(0, at).replace(/\+.*$/, '');
  return GMAIL.has(domain) ? `${local.replace(/\./g, '')}@gmail.com` : `${local}@${domain}`;
}

/**
 * The referral program's writes: linking a new member who signed up with a code (a consumer of auth's
 * `customer.created`), and completing the link by the member's first qualifying purchase, in the
 * purchase's transaction. The points both sides earn are the `referral.completed` rules' (rule-triggers.ts).
 * A person is told by keyed fingerprints of its mailbox, phone digits and chat-app union id: the same
 * person on both sides is a self-referral, and a person already referred (under any member, a deleted one
 * too: the fingerprints stay when the data is erased) is not referred again.
 */
export class ReferralProgram {
  constructor(
    private readonly supergraph: SupergraphClient,
    /** The fingerprints' key (derived from the JWT secret: module.ts). */
    private readonly key: string,
  ) {}

  get consumer() {
    return {
      queue: REFERRALS_QUEUE,
      events: [AUTH.events.customerCreated],
      apply: (em: EntityManager, event: PublishedEvent) => this.link(em, customerCreatedOf(payloadOf(event, AUTH.events.customerCreated))),
    };
  }

  /** Links a new member to the owner of the code it signed up with, or records why not; once per member. */
  async link(em: EntityManager, created: CustomerCreated): Promise<void> {
    const code = created.referralCode;
    if (!code) return;
    const [done] = await em.execute('select 1 from point.referral where referred_id = ?', [created.memberId]);
    if (done) return;
    const [owner]: Array<{ member_id: string }> = await em.execute('select member_id from point.referral_code where code = ?', [code]);
    const contacts = await this.contacts([created.memberId, ...(owner ? [owner.member_id] : [])]);
    const referred = contacts.get(created.memberId);
    if (!referred) return; // deleted since: nobody to refer
    const fingerprints = this.fingerprintsOf(referred);
    const refusal = await this.refusal(em, owner?.member_id ?? null, owner ? contacts.get(owner.member_id) : undefined, fingerprints);
    const referral = {
      referralId: timeOrderedId(),
      referrerId: owner?.member_id ?? null,
      referredId: created.memberId,
      code,
      purchaseId: null,
      createdAt: created.createdAt,
      completedAt: null,
    };
    await em.execute(
      `insert into point.referral (id, code, referrer_id, referred_id, status, refusal, fingerprints, created_at) values (?, ?, ?, ?, ?, ?, ?::text[], ?)`,
      [referral.referralId, code, referral.referrerId, referral.referredId, refusal ? 'refused' : 'pending', refusal, textArray(fingerprints), created.createdAt],
    );
    if (!refusal) recordEvent(em, POINT.events.referralCreated, { ...referral, referrerId: referral.referrerId! }, { aggregateId: created.memberId });
  }

  /**
   * Completes the purchasing member's pending referral when the purchase qualifies (its amount at least the
   * settings' least, within their days of the sign-up), in the purchase's transaction: the row's lock makes
   * it once, whatever purchases race. Announces `referral.completed`.
   */
  async completeBy(em: EntityManager, purchase: ReferralPurchase): Promise<void> {
    const rows: Array<{ id: string; referrer_id: string; code: string; created_at: Date; completed_at: Date }> = await em.execute(
      `update point.referral r set status = 'completed', purchase_id = ?, completed_at = now()
         from point.referral_settings s
        where s.id = 1 and r.referred_id = ? and r.status = 'pending' and ?::numeric >= s.min_purchase_amount
          and (s.completion_days is null or ?::timestamptz < r.created_at + make_interval(days => s.completion_days))
        returning r.id, r.referrer_id, r.code, r.created_at, r.completed_at`,
      [purchase.id, purchase.memberId, purchase.amount, purchase.occurredAt],
    );
    const [row] = rows;
    if (!row) return;
    const completed: ReferralChanged = {
      referralId: row.id,
      referrerId: row.referrer_id,
      referredId: purchase.memberId,
      code: row.code,
      purchaseId: purchase.id,
      createdAt: new Date(row.created_at).toISOString(),
      completedAt: new Date(row.completed_at).toISOString(),
    };
    recordEvent(em, POINT.events.referralCompleted, completed, { aggregateId: purchase.memberId });
  }

  /**
   * Why a sign-up is not a referral, or null: the program is off, the code is nobody's, its owner was
   * deleted, both sides are one person, the person was referred before, or the owner has its limit. The
   * owner's code row and the person's fingerprints are locked first, so that racing sign-ups count one
   * after another.
   */
  private async refusal(em: EntityManager, ownerId: string | null, owner: Contact | undefined, fingerprints: string[]): Promise<ReferralRefusal | null> {
    const [settings]: Array<{ enabled: boolean; referrer_limit: number | null }> = await em.execute('select enabled, referrer_limit from point.referral_settings where id = 1');
    if (!settings.enabled) return 'program_disabled';
    if (!ownerId) return 'unknown_code';
    if (!owner) return 'referrer_deleted';
    if (this.fingerprintsOf(owner).some((print) => fingerprints.includes(print))) return 'self_referral';
    await em.execute('select 1 from point.referral_code where member_id = ? for update', [ownerId]);
    for (const print of [...fingerprints].sort()) await em.execute('select pg_advisory_xact_lock(hashtextextended(?, 29))', [print]);
    const [seen] = await em.execute(`select 1 from point.referral where status <> 'refused' and fingerprints && ?::text[] limit 1`, [textArray(fingerprints)]);
    if (seen) return 'already_referred';
    if (settings.referrer_limit === null) return null;
    const [{ accepted }]: Array<{ accepted: number }> = await em.execute(
      `select count(*)::int as accepted from point.referral where referrer_id = ? and status <> 'refused'`,
      [ownerId],
    );
    return accepted >= settings.referrer_limit ? 'referrer_limit' : null;
  }

  /** The live members among `ids` with their contact, as auth holds them now (a deleted member is absent). */
  private async contacts(ids: string[]): Promise<Map<string, Contact>> {
    const data = await this.supergraph.run<{ membersByIds: Contact[] }>(POINT_SUPERGRAPH_OPERATIONS.PointMemberContacts, { ids });
    return new Map(data.membersByIds.map((contact) => [contact.id, contact]));
  }

  /** A person's keyed fingerprints: its mailbox, its phone's digits, its chat-app union id (those it has). */
  private fingerprintsOf(contact: Contact): string[] {
    const digits = contact.phoneNumber?.replace(/\D/g, '') ?? '';
    const parts = [contact.email ? `email:${mailbox(contact.email)}` : null, digits ? `phone:${digits}` : null, contact.unionId ? `union:${contact.unionId}` : null];
    return parts.filter((part): part is string => part !== null).map((part) => createHmac('sha256', this.key).update(part).digest('base64url'));
  }
}
