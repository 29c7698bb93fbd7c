import { EntityManager } from '@mikro-orm/postgresql';
import { recordEvent } from '../../../core/events/outbox-event';
import { AUTH, CustomerCreated, CustomerDeleted, CustomerUpdated } from '../contract';
import { Member, MemberStatus } from '../entities/member';

type CustomerProfile = CustomerUpdated['customer'];

/** The member as the v1 customer events show it (the v1 spelling, as core/rest/customer.ts reads members). */
export function customerProfileOf(member: Member): CustomerProfile {
  const address = member.address;
  return {
    id: member.id,
    name: member.name ?? member.nickName,
    email: member.email,
    phone: member.phoneNumber,
    date_of_birth: member.birthDay,
    gender: member.gender?.toLowerCase() ?? null,
    address: address ? { street: address.address ?? null, city: address.province ?? address.district ?? null, postal_code: address.postCode ?? null } : null,
    language: member.language,
    status: member.status === MemberStatus.INACTIVE ? 'inactive' : 'active',
    chatapp: member.openId ? { openid: member.openId, unionid: member.unionId } : null,
    updated_at: new Date().toISOString(),
  };
}

/** The v1 fields whose value differs between two views of one member (`updated_at` aside). */
export function changedFields(before: CustomerProfile, after: CustomerProfile): string[] {
  return (Object.keys(after) as Array<keyof CustomerProfile>).filter((key) => key !== 'updated_at' && JSON.stringify(before[key]) !== JSON.stringify(after[key]));
}

/** `customer.created`, in the creation's transaction: Part 3's exact payload. */
export function announceCustomerCreated(em: EntityManager, member: Member, tierName: string | null): void {
  const payload: CustomerCreated = {
    customer: {
      id: member.id,
      name: member.name ?? member.nickName,
      email: member.email,
      phone: member.phoneNumber,
      tier: tierName,
      points_balance: 0,
      created_at: member.createdAt.toISOString(),
    },
  };
  recordEvent(em, AUTH.events.customerCreated, payload, { aggregateId: member.id });
}

/** `customer.updated`, in the change's transaction; nothing when no v1 field changed. */
export function announceCustomerUpdated(em: EntityManager, before: CustomerProfile, member: Member): void {
  const customer = customerProfileOf(member);
  const changed = changedFields(before, customer);
  if (changed.length === 0) return;
  const payload: CustomerUpdated = { customer, changed };
  recordEvent(em, AUTH.events.customerUpdated, payload, { aggregateId: member.id });
}

/** `customer.deleted`, in the deletion's transaction: Part 3's payload `{customer_id, deleted_at}`. */
export function announceCustomerDeleted(em: EntityManager, member: Member, deletedAt: Date): void {
  const payload: CustomerDeleted = { customer_id: member.id, deleted_at: deletedAt.toISOString() };
  recordEvent(em, AUTH.events.customerDeleted, payload, { aggregateId: member.id });
}
