import { Route } from '../../../core/rest/route';
import { REFRESH_COOKIE, setRefreshCookie } from './refresh-cookie';

const STAFF_FIELDS = 'id email firstname lastname phoneNumber roleId storeId status locale createdAt updatedAt';
const MEMBER_FIELDS = `id openId nickName avatarUrl name phoneNumber gender birthDate status createdAt updatedAt
  address { address subDistrict district province postCode country latitude longitude }`;
/** The member's tier, contributed by the cluster subgraph (`includeTier`, localized by `locale`). */
const MEMBER_TIER = 'tier(locale: $locale) @include(if: $includeTier) { id name_en name_th name_cn level }';
const PAGE_META = 'meta { page limit total totalPages }';
const CONSENT_VERSION_FIELDS = 'id type version content_en content_th content_cn url effectiveAt createdAt';
const CONSENT_STATUS_FIELDS = `type acceptedVersion acceptedAt hasAcceptedCurrent currentVersion { ${CONSENT_VERSION_FIELDS} }`;

const BASE = '/auth/api';

/** Spec Part 1, auth service. Order matters where a literal segment and a parameter compete (/staffs/me). */
export const AUTH_ROUTES: Route[] = [
  // Sessions
  { method: 'get', path: `${BASE}/check-access-token-session`, document: 'query CheckAccessTokenSession { checkAccessTokenSession { valid } }', envelope: 'nested', message: 'Access token checked' },
  {
    method: 'post',
    path: `${BASE}/get-new-access-token`,
    document: `mutation RefreshAccessToken($refreshToken: String) {
      refreshAccessToken(refreshToken: $refreshToken) { accessToken refreshToken } }`,
    public: true,
    limitByAddress: true,
    variables: ({ body, cookies }) => ({ refreshToken: body.refreshToken ?? cookies[REFRESH_COOKIE] }),
    envelope: 'data',
    after: setRefreshCookie,
    credential: true,
  },

  // Staff actions without a token
  { method: 'post', path: `${BASE}/staffs/login`, document: 'mutation StaffLogin($input: StaffLoginInput!) { staffLogin(input: $input) { accessToken refreshToken } }', public: true, limitByAddress: true, envelope: 'nested', message: 'Login successful', after: setRefreshCookie, credential: true },
  {
    method: 'post',
    path: `${BASE}/staffs/request-reset-password`,
    document: `mutation RequestStaffPasswordReset($input: RequestPasswordResetInput!) {
      requestStaffPasswordReset(input: $input) }`,
    public: true,
    limitByAddress: true,
    envelope: 'message',
    message: 'Password reset code sent',
  },
  {
    method: 'post',
    path: `${BASE}/staffs/request-reset-password-by-email`,
    document: `mutation RequestStaffPasswordResetByEmail($input: RequestPasswordResetByEmailInput!) {
      requestStaffPasswordResetByEmail(input: $input) }`,
    public: true,
    limitByAddress: true,
    envelope: 'message',
    message: 'If the email belongs to a staff account, a reset code has been sent',
  },
  {
    method: 'post',
    path: `${BASE}/staffs/reset-password/:sessionId`,
    document: `mutation ResetStaffPassword($sessionId: ID!, $input: ResetPasswordInput!) {
      resetStaffPassword(sessionId: $sessionId, input: $input) }`,
    public: true,
    limitByAddress: true,
    envelope: 'message',
    message: 'Password has been reset',
  },
  { method: 'get', path: `${BASE}/staffs/check-session/:sessionId`, document: 'query StaffResetSession($sessionId: ID!) { staffResetSession(sessionId: $sessionId) { isValid } }', public: true, limitByAddress: true, envelope: 'nested', message: 'Reset session checked' },

  // Staff management
  {
    method: 'get',
    path: `${BASE}/staffs`,
    document: `query Staffs($page: Int, $limit: Int, $storeId: String, $roleId: ID, $status: StaffStatus, $search: String) {
      staffs(page: $page, limit: $limit, storeId: $storeId, roleId: $roleId, status: $status, search: $search) {
      ${PAGE_META} data { ${STAFF_FIELDS} } } }`,
    envelope: 'nested',
    message: 'Staff list',
  },
  { method: 'get', path: `${BASE}/staffs/me`, document: `query CurrentStaff { currentStaff { ${STAFF_FIELDS} } }`, envelope: 'nested', message: 'Current staff' },
  { method: 'get', path: `${BASE}/staffs/:id`, document: `query Staff($id: ID!) { staff(id: $id) { ${STAFF_FIELDS} } }`, envelope: 'nested', message: 'Staff found' },
  { method: 'post', path: `${BASE}/staffs`, document: `mutation CreateStaff($input: CreateStaffInput!) { createStaff(input: $input) { ${STAFF_FIELDS} } }`, envelope: 'nested', message: 'Staff created', status: 201 },
  { method: 'put', path: `${BASE}/staffs/:id`, document: `mutation UpdateStaff($id: ID!, $input: UpdateStaffInput!) { updateStaff(id: $id, input: $input) { ${STAFF_FIELDS} } }`, envelope: 'nested', message: 'Staff updated' },
  { method: 'delete', path: `${BASE}/staffs/:id`, document: 'mutation DeleteStaff($id: ID!) { deleteStaff(id: $id) { id } }', envelope: 'nested', message: 'Staff deleted' },

  // Service API keys
  {
    method: 'post',
    path: `${BASE}/services/generate-api-key`,
    document: `mutation GenerateApiKey($input: GenerateApiKeyInput!) {
      generateApiKey(input: $input) { id name apiKey roleId expiresAt createdAt } }`,
    envelope: 'data',
    status: 201,
    credential: true,
  },
  {
    method: 'get',
    path: `${BASE}/services/me`,
    document: `query MyApiKeys($page: Int, $limit: Int) {
      myApiKeys(page: $page, limit: $limit) { ${PAGE_META} data { id name prefix roleId expiresAt revokedAt lastUsedAt createdAt } } }`,
    envelope: 'data',
  },
  {
    method: 'get',
    path: `${BASE}/services`,
    document: `query ApiKeys($page: Int, $limit: Int, $createdById: ID) {
      apiKeys(page: $page, limit: $limit, createdById: $createdById) { ${PAGE_META} data {
      id name prefix roleId role { id key } createdById createdBy { id email firstname lastname deletedAt }
      expiresAt revokedAt lastUsedAt createdAt } } }`,
    envelope: 'data',
  },
  { method: 'delete', path: `${BASE}/services/revoke/:id`, document: 'mutation RevokeApiKey($id: ID!) { revokeApiKey(id: $id) }', envelope: 'empty', status: 204 },
  {
    method: 'post',
    path: `${BASE}/services/get-access-token`,
    document: 'mutation ExchangeApiKey($apiKey: String!) { exchangeApiKey(apiKey: $apiKey) { accessToken expiresIn } }',
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
    document: 'mutation ChatappLogin($code: String!) { chatappLogin(code: $code) { status accessToken refreshToken } }',
    public: true,
    limitByAddress: true,
    variables: ({ body }) => ({ code: body.code }),
    envelope: 'nested',
    message: 'Login successful',
    after: setRefreshCookie,
    credential: true,
  },
  { method: 'get', path: `${BASE}/members/me`, document: `query CurrentMember { currentMember { ${MEMBER_FIELDS} } }`, envelope: 'nested', message: 'Current member' },
  { method: 'put', path: `${BASE}/members/me`, document: 'mutation UpdateCurrentMember($input: MemberProfileInput!) { updateCurrentMember(input: $input) { id } }', envelope: 'message', message: 'Profile updated' },
  { method: 'get', path: `${BASE}/members/me/qr-code`, document: 'query CurrentMemberQrCode { currentMemberQrCode { qrCodeUrl memberId } }', envelope: 'data' },
  { method: 'get', path: `${BASE}/members/me/consents`, document: `query MyConsentStatus { myConsentStatus { ${CONSENT_STATUS_FIELDS} } }`, envelope: 'nested', message: 'Consent status' },
  {
    method: 'post',
    path: `${BASE}/members/me/consents`,
    document: `mutation AcceptConsent($consentVersionId: ID!) { acceptConsent(consentVersionId: $consentVersionId) { ${CONSENT_STATUS_FIELDS} } }`,
    variables: ({ body }) => ({ consentVersionId: body.consentVersionId }),
    envelope: 'nested',
    message: 'Consent accepted',
  },
  {
    method: 'get',
    path: `${BASE}/members`,
    document: `query Members($page: Int, $limit: Int, $birthdayFrom: String, $search: String, $includePointBalance: Boolean = false,
      $includeTier: Boolean = false, $locale: Locale) {
      members(page: $page, limit: $limit, birthdayFrom: $birthdayFrom, search: $search) {
      ${PAGE_META} data { ${MEMBER_FIELDS} pointBalance @include(if: $includePointBalance) ${MEMBER_TIER} } } }`,
    envelope: 'nested',
    message: 'Member list',
  },
  { method: 'post', path: `${BASE}/members/bulk`, document: 'query MembersByIds($ids: [ID!]!) { membersByIds(ids: $ids) { id nickName name status } }', variables: ({ body }) => ({ ids: body.ids }), envelope: 'nested', message: 'Members found' },
  { method: 'post', path: `${BASE}/members/direct`, document: 'mutation CreateMemberDirect($input: CreateMemberDirectInput!) { createMemberDirect(input: $input) { id } }', envelope: 'message', message: 'Member created' },
  {
    method: 'get',
    path: `${BASE}/members/:id`,
    document: `query Member($id: ID!, $includePointBalance: Boolean = false, $includeTier: Boolean = false, $locale: Locale) {
      member(id: $id) { ${MEMBER_FIELDS} pointBalance @include(if: $includePointBalance) ${MEMBER_TIER} } }`,
    envelope: 'nested',
    message: 'Member found',
  },
  { method: 'get', path: `${BASE}/members/:id/consents`, document: `query MemberConsentStatus($id: ID!) { memberConsentStatus(id: $id) { ${CONSENT_STATUS_FIELDS} } }`, envelope: 'nested', message: 'Consent status' },
  {
    method: 'post',
    path: `${BASE}/members/chatapp/sync/:memberId`,
    document: `mutation SyncChatappMember($memberId: ID!, $input: ChatappProfileInput!) {
      syncChatappMember(memberId: $memberId, input: $input) { id } }`,
    envelope: 'message',
    message: 'Member synced',
  },
  {
    method: 'put',
    path: `${BASE}/members/:memberId`,
    document: `mutation UpdateMember($memberId: ID!, $input: MemberProfileInput!) {
      updateMember(memberId: $memberId, input: $input) { id } }`,
    envelope: 'message',
    message: 'Member updated',
  },
  {
    method: 'put',
    path: `${BASE}/members/:memberId/direct`,
    document: `mutation UpdateMemberDirect($memberId: ID!, $input: MemberDirectUpdateInput!) {
      updateMemberDirect(memberId: $memberId, input: $input) { id } }`,
    envelope: 'message',
    message: 'Member updated',
  },

  // Roles and consent versions
  { method: 'get', path: `${BASE}/roles`, document: 'query Roles($locale: Locale) { roles(locale: $locale) { id key name_en name_th name_cn permissions createdAt updatedAt } }', envelope: 'nested', message: 'Roles' },
  {
    method: 'get',
    path: `${BASE}/consents`,
    document: `query ConsentVersions($type: ConsentType, $locale: Locale) {
      consentVersions(type: $type, locale: $locale) { ${CONSENT_VERSION_FIELDS} } }`,
    public: true,
    envelope: 'nested',
    message: 'Consent versions',
  },
  { method: 'get', path: `${BASE}/consents/current`, document: `query CurrentConsentVersions($locale: Locale) { currentConsentVersions(locale: $locale) { ${CONSENT_VERSION_FIELDS} } }`, public: true, envelope: 'nested', message: 'Current consent versions' },
  {
    method: 'post',
    path: `${BASE}/consents`,
    document: `mutation PublishConsentVersion($input: PublishConsentVersionInput!) {
      publishConsentVersion(input: $input) { ${CONSENT_VERSION_FIELDS} } }`,
    envelope: 'nested',
    message: 'Consent version published',
    status: 201,
  },
];
