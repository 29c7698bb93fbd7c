import { LockMode } from '@mikro-orm/core';
import { EntityManager, UniqueConstraintViolationException } from '@mikro-orm/postgresql';
import { Principal } from '../../../core/auth/principal';
import { INCLUDING_DELETED } from '../../../core/db/soft-deletable';
import { AppError, conflict, notFound, validationError } from '../../../core/errors';
import { ENTRY_TIER_PROMISE } from '../../cluster/contract';
import { AuthDeps } from '../auth-deps';
import { Address, Gender, Member, MemberStatus } from '../entities/member';
import { MemberTier } from '../entities/member-tier';
import { CreateCustomerInput, CustomerFieldsInput, UpdateCustomerInput } from '../types/customer.inputs';
import { CustomerCreation, CustomerDeletion } from '../types/customer.types';
import { announceCustomerCreated, announceCustomerDeleted, announceCustomerUpdated, customerProfileOf } from './customer-events';
import { announceProfile, MemberService } from './member.service';
import { SessionService } from './session.service';

const GENDER_OF: Record<string, Gender> = { male: Gender.Male, female: Gender.Female, other: Gender.Other };
const DUPLICATE_EMAIL = 'Another customer has this e-mail address';
/** What a customer changing its own e-mail hears when the address is taken: nothing about whose it is. */
const EMAIL_REFUSED = 'This e-mail address cannot be used for this account';
const DUPLICATE_CHATAPP = 'This chat-app identity belongs to another customer';

/**
 * What a deletion erases (subgraphs/auth/DECISIONS.md, v1 follow-ups): every field that names or reaches the
 * person. The id, status, createdAt and deletedAt stay, so that the ledger, purchases and claims other
 * domains keep under the id still add up, and name no one.
 */
const ERASED: Partial<Member> = {
  name: null,
  nickName: null,
  avatarUrl: null,
  phoneNumber: null,
  email: null,
  birthDay: null,
  gender: null,
  address: null,
  language: null,
  openId: null,
  unionId: null,
};

/** v1 customers (contract section 5): members created, changed and linked to the chat app with the v1 fields. */
export class CustomerService {
  constructor(
    private readonly em: EntityManager,
    private readonly deps: AuthDeps,
  ) {}

  /**
   * A new active member with the v1 fields, announced as `customer.created` starting in the entry tier
   * (the cluster places it there on receipt). Auth's projection (`member_tier`) holds the promise
   * (ENTRY_TIER_PROMISE) in the same transaction: until the cluster has placed the member, its
   * `Member.tier` reads the promise as the entry tier (`@requires`), and the tier filter finds the
   * customer at once. `chatapp.code` links the identity the provider returns for it: a refused code is
   * 400 on `chatapp.code` (the caller's credential is fine).
   */
  async create(input: CreateCustomerInput): Promise<CustomerCreation> {
    if (input.email) await this.assertEmailFree(input.email);
    const identity = input.chatapp ? await this.chatappIdentity(input.chatapp.code) : null;
    if (identity && (await this.em.count(Member, { openId: identity.openId }, INCLUDING_DELETED))) throw conflict(DUPLICATE_CHATAPP, 'chatapp.code');
    const member = this.em.create(Member, { status: MemberStatus.ACTIVE, openId: identity?.openId ?? null, unionId: identity?.unionId ?? null });
    applyCustomer(member, input);
    this.em.create(MemberTier, { memberId: member.id, tierId: ENTRY_TIER_PROMISE, changedAt: member.createdAt });
    announceProfile(this.em, member);
    announceCustomerCreated(this.em, member, true, input.referralCode);
    await this.flush('chatapp.code');
    return { member };
  }

  /**
   * The given fields; absent ones stay, null clears (the name stays). A customer token reaches only
   * itself (resolver). An e-mail another member has is 409 DUPLICATE for staff, who read the customer
   * list anyway; a customer changing its own is answered a 400 on `email` that does not say the address
   * is someone's (subgraphs/auth/DECISIONS.md, issue 24).
   */
  async update(id: string, input: UpdateCustomerInput, caller: Principal): Promise<Member> {
    const member = await new MemberService(this.em, this.deps).get(id);
    const emailTaken = caller.kind === 'member' ? () => validationError([{ field: 'email', message: EMAIL_REFUSED }]) : undefined;
    if (input.email && input.email.toLowerCase() !== member.email?.toLowerCase()) await this.assertEmailFree(input.email, emailTaken);
    const before = customerProfileOf(member);
    applyCustomer(member, input);
    announceProfile(this.em, member);
    announceCustomerUpdated(this.em, before, member);
    await this.flush('code', emailTaken);
    return member;
  }

  /**
   * Links the chat-app identity of a login code to the customer. The same identity again changes
   * nothing; one of another member is 409 on `code`; a customer linked to another identity is 409
   * (no field: its state). A code of another app is 400 on `appId`, a refused code 401.
   */
  async linkChatapp(id: string, code: string, appId?: string): Promise<Member> {
    this.deps.chatapp.checkAppId(appId);
    const member = await new MemberService(this.em, this.deps).get(id);
    const identity = await this.deps.chatapp.exchangeCode(code);
    if (member.openId === identity.openId) return member;
    const owner = await this.em.findOne(Member, { openId: identity.openId }, INCLUDING_DELETED);
    if (owner) throw conflict(DUPLICATE_CHATAPP, 'code');
    if (member.openId) throw conflict('The customer is linked to another chat-app identity');
    const before = customerProfileOf(member);
    member.openId = identity.openId;
    member.unionId = identity.unionId ?? member.unionId;
    announceProfile(this.em, member);
    announceCustomerUpdated(this.em, before, member);
    await this.flush('code');
    return member;
  }

  /**
   * Soft-deletes a customer: erases its personal data (ERASED), marks it deleted and inactive, ends its
   * sessions and announces `customer.deleted` (and the erased profile), all in one transaction. Under
   * the member's row lock: of two deletions at once, the second finds no live member (404).
   */
  async delete(id: string): Promise<CustomerDeletion> {
    return this.em.transactional(async (em) => {
      const member = await em.findOne(Member, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
      if (!member) throw notFound('Member', id);
      const deletedAt = new Date();
      em.assign(member, { ...ERASED, status: MemberStatus.INACTIVE, deletedAt });
      announceProfile(em, member);
      announceCustomerDeleted(em, member, deletedAt);
      await new SessionService(em, this.deps).revokeAllOf('member', member.id);
      return { id: member.id, deletedAt };
    });
  }

  /** 409 DUPLICATE on `email` when a member has the address, or what `taken` makes. */
  private async assertEmailFree(email: string, taken = duplicateEmail): Promise<void> {
    const [row] = await this.em.execute('select exists (select 1 from auth.member where lower(email) = lower(?)) as taken', [email]);
    if (row.taken) throw taken();
  }

  private async chatappIdentity(code: string) {
    try {
      return await this.deps.chatapp.exchangeCode(code);
    } catch (error) {
      if (error instanceof AppError && error.code === 'UNAUTHENTICATED') throw validationError([{ field: 'chatapp.code', message: error.message }]);
      throw error;
    }
  }

  /** Flushes; a race on a unique value (e-mail, chat-app identity) is the same failure as the check before it. */
  private async flush(chatappField: string, emailTaken = duplicateEmail): Promise<void> {
    try {
      await this.em.flush();
    } catch (error) {
      if (!(error instanceof UniqueConstraintViolationException)) throw error;
      if (String(error.message).includes('member_email_lower_uniq')) throw emailTaken();
      throw conflict(DUPLICATE_CHATAPP, chatappField);
    }
  }
}

const duplicateEmail = (): AppError => conflict(DUPLICATE_EMAIL, 'email');

/** The v1 fields onto the member: absent fields stay, null clears one (the name is never cleared). */
function applyCustomer(member: Member, input: CustomerFieldsInput & { name?: string }): void {
  if (input.name !== undefined && input.name !== null) member.name = input.name;
  if (input.email !== undefined) member.email = input.email ? input.email.trim() : null;
  if (input.phone !== undefined) member.phoneNumber = input.phone;
  if (input.dateOfBirth !== undefined) member.birthDay = input.dateOfBirth;
  if (input.gender !== undefined) member.gender = input.gender ? GENDER_OF[input.gender] : null;
  if (input.language !== undefined) member.language = input.language ? Intl.getCanonicalLocales(input.language)[0] : null;
  if (input.address === null) member.address = null;
  else if (input.address) {
    const { street, city, postalCode } = input.address;
    const address: Record<string, unknown> = { ...member.address };
    for (const [key, value] of [['address', street], ['province', city], ['postCode', postalCode]] as const) {
      if (value === null) delete address[key];
      else if (value !== undefined) address[key] = value;
    }
    member.address = Object.keys(address).length > 0 ? (address as Address) : null;
  }
}
