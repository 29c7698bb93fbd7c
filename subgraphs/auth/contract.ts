import { event } from '../../core/events/event-type';
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
    customerCreated: event<CustomerCreated>('customer.created'),
    customerUpdated: event<CustomerUpdated>('customer.updated'),
    customerDeleted: event<CustomerDeleted>('customer.deleted'),
  },
} as const satisfies DomainContract;

/** `member.profile_changed`: every write of a member's profile (aggregate: the member). */
export interface MemberProfileChanged {
  memberId: string;
  birthDate: string | null;
  status: string;
  updatedAt: string;
}

/** A member as the v1 customer events show it (snake_case, Part 3); tier and points belong to other domains. */
export interface CustomerEventRecord {
  id: string;
  name: string | null;
  email: string | null;
  phone: string | null;
}

/**
 * `customer.created` (aggregate: the member), Part 3's exact shape: `tier` is the name of the tier the
 * customer starts in (the cluster's entry tier for v1 creations, which the cluster then applies; null for
 * the Part 1 paths, whose members start without a tier), `points_balance` 0.
 */
export interface CustomerCreated {
  customer: CustomerEventRecord & { tier: string | null; points_balance: number; created_at: string };
}

/** `customer.updated` (aggregate: the member): the profile after the change and which v1 fields changed. */
export interface CustomerUpdated {
  customer: CustomerEventRecord & {
    date_of_birth: string | null;
    gender: string | null;
    address: { street: string | null; city: string | null; postal_code: string | null } | null;
    language: string | null;
    status: 'active' | 'inactive';
    chatapp: { openid: string | null; unionid: string | null } | null;
    updated_at: string;
  };
  changed: string[];
}

/** `customer.deleted` (aggregate: the member): `DELETE /api/v1/customers/{id}` (CustomerService.delete). */
export interface CustomerDeleted {
  customer_id: string;
  deleted_at: string;
}
