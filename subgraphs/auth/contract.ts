import type { DomainContract } from '../../core/module';

/** The auth domain's contract: staff, members, roles, API keys and consents. Plain data, importable by any domain. */
export const AUTH = {
  name: 'auth',
  permissions: {
    staffManage: 'staff:manage',
    memberManage: 'member:manage',
    memberRead: 'member:read',
    serviceKeyManage: 'service-key:manage',
    roleRead: 'role:read',
    consentManage: 'consent:manage',
  },
  grants: {
    marketing: ['member:read', 'member:manage', 'consent:manage', 'role:read'],
    tenant: ['member:read', 'role:read'],
  },
  events: { memberProfileChanged: 'member.profile_changed' },
} as const satisfies DomainContract;

/** `member.profile_changed`: every write of a member's profile (aggregate: the member). */
export interface MemberProfileChanged {
  memberId: string;
  birthDate: string | null;
  status: string;
  updatedAt: string;
}
