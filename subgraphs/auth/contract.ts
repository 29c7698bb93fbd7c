import { call } from '../../core/call-type';
import { event, payloadOf } from '../../core/events/event-type';
import type { MemberLifecycle } from '../../core/member-projection';
import type { DomainContract } from '../../core/module';

/** The auth domain's contract: staff, members, roles, API keys and consents. Plain data, importable by any domain. */
export const AUTH = {
  name: 'auth',
  permissions: {
    staffManage: 'staff:manage',
    memberManage: 'member:manage',
    memberRead: 'member:read',
    /** Deleting a customer for good (the `admin` scope, as `DELETE /api/v1/customers/{id}`): admin only, through `*`. */
    memberDelete: 'member:delete',
    serviceKeyManage: 'service-key:manage',
    /** Listing, disabling, deleting OAuth clients and rotating their secrets; registering one (admin, through `*`). */
    oauthClientManage: 'oauth-client:manage',
    roleRead: 'role:read',
    consentManage: 'consent:manage',
  },
  permissionScopes: { staffManage: 'admin', memberManage: 'write', memberRead: 'read', memberDelete: 'admin', serviceKeyManage: 'admin', oauthClientManage: 'admin', roleRead: 'read', consentManage: 'write' },
  grants: {
    marketing: ['member:read', 'member:manage', 'consent:manage', 'role:read'],
    tenant: ['member:read', 'role:read'],
  },
  events: {
    memberProfileChanged: event<MemberProfileChanged>('member.profile_changed'),
    customerCreated: event<CustomerCreated | LegacyCustomerCreated>('customer.created'),
    customerUpdated: event<CustomerUpdated | LegacyCustomerUpdated>('customer.updated'),
    customerDeleted: event<CustomerDeleted | LegacyCustomerDeleted>('customer.deleted'),
  },
  /** What other domains ask auth in-process when they share its process (core/domain-calls.ts). */
  calls: {
    /** A live member by id (`Query.member`), null for none (or what is no id at all). */
    member: call<{ id: string }, MemberFound | null>('auth.member'),
  },
} as const satisfies DomainContract;

/**
 * A live member as the `auth.member` call answers it: its id, and the tier id of auth's projection
 * (`Member.projectedTierId`, what the cluster's `Member.tier` requires for a member it has not placed yet).
 */
export interface MemberFound {
  id: string;
  projectedTierId: string | null;
}

/** `member.profile_changed`: every write of a member's profile (aggregate: the member). */
export interface MemberProfileChanged {
  memberId: string;
  birthDate: string | null;
  status: string;
  updatedAt: string;
}

/**
 * `customer.created` (aggregate: the member): a new member. `startsInEntryTier` for v1 creations, which
 * the cluster places in its entry tier on receipt; the Part 1 paths' members start without a tier. Part 3's
 * shape (the tier's name, `points_balance`) is built by auth's surface when the event goes out.
 */
export interface CustomerCreated {
  memberId: string;
  name: string | null;
  email: string | null;
  phone: string | null;
  createdAt: string;
  startsInEntryTier: boolean;
  /** The referral code the member signed up with (v1 `referral_code`, upper case); absent from events written before it was added. */
  referralCode?: string | null;
}

/** The member's v1 customer fields, as the customer events carry them. */
export interface CustomerProfile {
  id: string;
  name: string | null;
  email: string | null;
  phone: string | null;
  dateOfBirth: string | null;
  gender: string | null;
  address: { street: string | null; city: string | null; postalCode: string | null } | null;
  language: string | null;
  status: 'active' | 'inactive';
  chatapp: { openid: string | null; unionid: string | null } | null;
  updatedAt: string;
}

/** `customer.updated` (aggregate: the member): the profile after the change and which of its fields changed. */
export interface CustomerUpdated {
  customer: CustomerProfile;
  changed: Array<keyof CustomerProfile>;
}

/** `customer.deleted` (aggregate: the member): `DELETE /api/v1/customers/{id}` (CustomerService.delete). */
export interface CustomerDeleted {
  memberId: string;
  deletedAt: string;
}

/**
 * The customer events as they were written before they carried auth's vocabulary: Part 3's shapes,
 * snake_case (outboxes and the analytics rebuild may still hold them). Read through the functions below.
 */
export interface LegacyCustomerCreated {
  customer: { id: string; name: string | null; email: string | null; phone: string | null; tier: string | null; points_balance: number; created_at: string };
}
export interface LegacyCustomerUpdated {
  customer: { id: string; name: string | null; email: string | null; phone: string | null; updated_at: string } & Record<string, unknown>;
  changed: string[];
}
export interface LegacyCustomerDeleted {
  customer_id: string;
  deleted_at: string;
}

/** A `customer.created` of either shape, as today's. */
export function customerCreatedOf(payload: CustomerCreated | LegacyCustomerCreated): CustomerCreated {
  if (!('customer' in payload)) return payload;
  const { customer } = payload;
  return { memberId: customer.id, name: customer.name, email: customer.email, phone: customer.phone, createdAt: customer.created_at, startsInEntryTier: customer.tier != null };
}

/** The fields of a `customer.updated` of either shape that other domains read: who, the contact fields and when. */
export function customerUpdateOf(payload: CustomerUpdated | LegacyCustomerUpdated): Pick<CustomerProfile, 'id' | 'name' | 'email' | 'phone' | 'updatedAt'> {
  const { customer } = payload;
  const updatedAt = 'updated_at' in customer ? customer.updated_at : (customer as CustomerProfile).updatedAt;
  return { id: customer.id, name: customer.name, email: customer.email, phone: customer.phone, updatedAt };
}

/** A `customer.deleted` of either shape, as today's. */
export function customerDeletedOf(payload: CustomerDeleted | LegacyCustomerDeleted): CustomerDeleted {
  return 'customer_id' in payload ? { memberId: payload.customer_id, deletedAt: payload.deleted_at } : payload;
}

/**
 * How a member comes to exist and stops existing, for other domains' projections of which members exist
 * (core/member-projection.ts): every creation (chat-app sign-up, staff's direct creation, v1
 * `POST /customers`) announces `customer.created`, and the one deletion (v1 `DELETE /customers/{id}`, which
 * erases) `customer.deleted`, each in its transaction. A deleted member is never restored.
 */
export const MEMBER_LIFECYCLE: MemberLifecycle = {
  created: AUTH.events.customerCreated,
  deleted: AUTH.events.customerDeleted,
  memberOf: (received) =>
    received.type === AUTH.events.customerDeleted
      ? customerDeletedOf(payloadOf(received, AUTH.events.customerDeleted)).memberId
      : customerCreatedOf(payloadOf(received, AUTH.events.customerCreated)).memberId,
};
