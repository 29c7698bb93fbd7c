import { REFRESH_COOKIE, setRefreshCookie } from '../cookies';
import { LegacyRoute } from './legacy';

const BASE = '/auth/api';

/** Spec Part 1, auth service. Order matters where a literal segment and a parameter compete (/staffs/me). */
export const AUTH_ROUTES: LegacyRoute[] = [
  // Sessions
  { method: 'get', path: `${BASE}/check-access-token-session`, operation: 'CheckAccessTokenSession', envelope: 'nested', message: 'Access token checked' },
  {
    method: 'post',
    path: `${BASE}/get-new-access-token`,
    operation: 'RefreshAccessToken',
    public: true,
    limitByAddress: true,
    variables: ({ body, cookies }) => ({ refreshToken: body.refreshToken ?? cookies[REFRESH_COOKIE] }),
    envelope: 'data',
    after: setRefreshCookie,
    credential: true,
  },

  // Staff actions without a token
  { method: 'post', path: `${BASE}/staffs/login`, operation: 'StaffLogin', public: true, limitByAddress: true, envelope: 'nested', message: 'Login successful', after: setRefreshCookie, credential: true },
  { method: 'post', path: `${BASE}/staffs/request-reset-password`, operation: 'RequestStaffPasswordReset', public: true, limitByAddress: true, envelope: 'message', message: 'Password reset code sent' },
  {
    method: 'post',
    path: `${BASE}/staffs/request-reset-password-by-email`,
    operation: 'RequestStaffPasswordResetByEmail',
    public: true,
    limitByAddress: true,
    envelope: 'message',
    message: 'If the email belongs to a staff account, a reset code has been sent',
  },
  { method: 'post', path: `${BASE}/staffs/reset-password/:sessionId`, operation: 'ResetStaffPassword', public: true, limitByAddress: true, envelope: 'message', message: 'Password has been reset' },
  { method: 'get', path: `${BASE}/staffs/check-session/:sessionId`, operation: 'StaffResetSession', public: true, limitByAddress: true, envelope: 'nested', message: 'Reset session checked' },

  // Staff management
  { method: 'get', path: `${BASE}/staffs`, operation: 'Staffs', envelope: 'nested', message: 'Staff list' },
  { method: 'get', path: `${BASE}/staffs/me`, operation: 'CurrentStaff', envelope: 'nested', message: 'Current staff' },
  { method: 'get', path: `${BASE}/staffs/:id`, operation: 'Staff', envelope: 'nested', message: 'Staff found' },
  { method: 'post', path: `${BASE}/staffs`, operation: 'CreateStaff', envelope: 'nested', message: 'Staff created', status: 201 },
  { method: 'put', path: `${BASE}/staffs/:id`, operation: 'UpdateStaff', envelope: 'nested', message: 'Staff updated' },
  { method: 'delete', path: `${BASE}/staffs/:id`, operation: 'DeleteStaff', envelope: 'nested', message: 'Staff deleted' },

  // Service API keys
  { method: 'post', path: `${BASE}/services/generate-api-key`, operation: 'GenerateApiKey', envelope: 'data', status: 201, credential: true },
  { method: 'get', path: `${BASE}/services/me`, operation: 'MyApiKeys', envelope: 'data' },
  { method: 'get', path: `${BASE}/services`, operation: 'ApiKeys', envelope: 'data' },
  { method: 'delete', path: `${BASE}/services/revoke/:id`, operation: 'RevokeApiKey', envelope: 'empty', status: 204 },
  {
    method: 'post',
    path: `${BASE}/services/get-access-token`,
    operation: 'ExchangeApiKey',
    public: true,
    limitByAddress: true,
    variables: ({ body }) => ({ apiKey: body.apiKey }),
    envelope: 'data',
    credential: true,
  },

  // Members
  {
    method: 'post',
    path: `${BASE}/members/chatapp/login`,
    operation: 'ChatappLogin',
    public: true,
    limitByAddress: true,
    variables: ({ body }) => ({ code: body.code }),
    envelope: 'nested',
    message: 'Login successful',
    after: setRefreshCookie,
    credential: true,
  },
  { method: 'get', path: `${BASE}/members/me`, operation: 'CurrentMember', envelope: 'nested', message: 'Current member' },
  { method: 'put', path: `${BASE}/members/me`, operation: 'UpdateCurrentMember', envelope: 'message', message: 'Profile updated' },
  { method: 'get', path: `${BASE}/members/me/qr-code`, operation: 'CurrentMemberQrCode', envelope: 'data' },
  { method: 'get', path: `${BASE}/members/me/consents`, operation: 'MyConsentStatus', envelope: 'nested', message: 'Consent status' },
  {
    method: 'post',
    path: `${BASE}/members/me/consents`,
    operation: 'AcceptConsent',
    variables: ({ body }) => ({ consentVersionId: body.consentVersionId }),
    envelope: 'nested',
    message: 'Consent accepted',
  },
  { method: 'get', path: `${BASE}/members`, operation: 'Members', envelope: 'nested', message: 'Member list' },
  { method: 'post', path: `${BASE}/members/bulk`, operation: 'MembersByIds', variables: ({ body }) => ({ ids: body.ids }), envelope: 'nested', message: 'Members found' },
  { method: 'post', path: `${BASE}/members/direct`, operation: 'CreateMemberDirect', envelope: 'message', message: 'Member created' },
  { method: 'get', path: `${BASE}/members/:id`, operation: 'Member', envelope: 'nested', message: 'Member found' },
  { method: 'get', path: `${BASE}/members/:id/consents`, operation: 'MemberConsentStatus', envelope: 'nested', message: 'Consent status' },
  { method: 'post', path: `${BASE}/members/chatapp/sync/:memberId`, operation: 'SyncChatappMember', envelope: 'message', message: 'Member synced' },
  { method: 'put', path: `${BASE}/members/:memberId`, operation: 'UpdateMember', envelope: 'message', message: 'Member updated' },
  { method: 'put', path: `${BASE}/members/:memberId/direct`, operation: 'UpdateMemberDirect', envelope: 'message', message: 'Member updated' },

  // Roles and consent versions
  { method: 'get', path: `${BASE}/roles`, operation: 'Roles', envelope: 'nested', message: 'Roles' },
  { method: 'get', path: `${BASE}/consents`, operation: 'ConsentVersions', public: true, envelope: 'nested', message: 'Consent versions' },
  { method: 'get', path: `${BASE}/consents/current`, operation: 'CurrentConsentVersions', public: true, envelope: 'nested', message: 'Current consent versions' },
  { method: 'post', path: `${BASE}/consents`, operation: 'PublishConsentVersion', envelope: 'nested', message: 'Consent version published', status: 201 },
];
