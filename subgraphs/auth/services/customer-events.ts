import { EntityManager } from '@mikro-orm/postgresql';
import { recordEvent } from '../../../core/events/outbox-event';
import { AUTH, CustomerProfile } from '../contract';
import { Member, MemberStatus } from '../entities/member';

/** The member's v1 customer fields (as auth/surface/v1-customer.ts reads members, before the v1 spelling). */
export function customerProfileOf(member: Member): CustomerProfile {
  const address = member.address;
  return {
    id: member.id,
    name: member.name ?? member.nickName,
    email: member.email,
    phone: member.phoneNumber,
    dateOfBirth: member.birthDay,
    gender: member.gender?.toLowerCase() ?? null,
    address: address ? { street: address.address ?? null, city: address.province ?? address.district ?? null, postalCode: address.postCode ?? null } : null,
    language: member.language,
    status: member.status === MemberStatus.INACTIVE ? 'inactive' : 'active',
    chatapp: member.openId ? { openid: member.openId, unionid: member.unionId } : null,
    updatedAt: new Date().toISOString(),
  };
}

/** The v1 fields whose value differs between two views of one member (`updatedAt` aside). */
export function changedFields(before: CustomerProfile, after: CustomerProfile): Array<keyof CustomerProfile> {
  return (Object.keys(after) as Array<keyof CustomerProfile>).filter((key) => key !== 'updatedAt' && JSON.stringify(before[key]) !== JSON.stringify(after[key]));
}

/**
 * `customer.created`, in the creation's transaction; `startsInEntryTier` for v1 creations (the cluster places
 * the member), with the referral code it signed up with, upper case (the point domain links the referral).
 */
export function announceCustomerCreated(em: EntityManager, member: Member, startsInEntryTier: boolean, referralCode?: string | null): void {
  const payload = {
    memberId: member.id,
    name: member.name ?? member.nickName,
    email: member.email,
    phone: member.phoneNumber,
    createdAt: member.createdAt.toISOString(),
    startsInEntryTier,
    referralCode: referralCode?.toUpperCase() ?? null,
  };
  recordEvent(em, AUTH.events.customerCreated, payload, { aggregateId: member.id });
}

/** `customer.updated`, in the change's transaction; nothing when no v1 field changed. */
export function announceCustomerUpdated(em: EntityManager, before: CustomerProfile, member: Member): void {
  const customer = customerProfileOf(member);
  const changed = changedFields(before, customer);
  if (changed.length === 0) return;
  recordEvent(em, AUTH.events.customerUpdated, { customer, changed }, { aggregateId: member.id });
}

/** `customer.deleted`, in the deletion's transaction. */
export function announceCustomerDeleted(em: EntityManager, member: Member, deletedAt: Date): void {
  recordEvent(em, AUTH.events.customerDeleted, { memberId: member.id, deletedAt: deletedAt.toISOString() }, { aggregateId: member.id });
}
