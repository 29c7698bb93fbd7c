/** The GraphQL documents behind the /auth/api routes; CI validates each against the supergraph. */

const STAFF_FIELDS = 'id email firstname lastname phoneNumber roleId storeId status locale createdAt updatedAt';
const MEMBER_FIELDS = `id openId nickName avatarUrl name phoneNumber gender birthDate status createdAt updatedAt
  address { address subDistrict district province postCode country latitude longitude }`;
/** The member's tier, contributed by the cluster subgraph (`includeTier`, localized by `locale`). */
const MEMBER_TIER = 'tier(locale: $locale) @include(if: $includeTier) { id name_en name_th name_cn level }';
const PAGE_META = 'meta { page limit total totalPages }';
const CONSENT_VERSION_FIELDS = 'id type version content_en content_th content_cn url effectiveAt createdAt';
const CONSENT_STATUS_FIELDS = `type acceptedVersion acceptedAt hasAcceptedCurrent currentVersion { ${CONSENT_VERSION_FIELDS} }`;

export const AUTH_OPERATIONS = {
  CheckAccessTokenSession: 'query CheckAccessTokenSession { checkAccessTokenSession { valid } }',
  RefreshAccessToken: `mutation RefreshAccessToken($refreshToken: String) {
    refreshAccessToken(refreshToken: $refreshToken) { accessToken refreshToken } }`,

  StaffLogin: 'mutation StaffLogin($input: StaffLoginInput!) { staffLogin(input: $input) { accessToken refreshToken } }',
  RequestStaffPasswordReset: `mutation RequestStaffPasswordReset($input: RequestPasswordResetInput!) {
    requestStaffPasswordReset(input: $input) }`,
  RequestStaffPasswordResetByEmail: `mutation RequestStaffPasswordResetByEmail($input: RequestPasswordResetByEmailInput!) {
    requestStaffPasswordResetByEmail(input: $input) }`,
  ResetStaffPassword: `mutation ResetStaffPassword($sessionId: ID!, $input: ResetPasswordInput!) {
    resetStaffPassword(sessionId: $sessionId, input: $input) }`,
  StaffResetSession: 'query StaffResetSession($sessionId: ID!) { staffResetSession(sessionId: $sessionId) { isValid } }',

  Staffs: `query Staffs($page: Int, $limit: Int, $storeId: String, $roleId: ID, $status: StaffStatus, $search: String) {
    staffs(page: $page, limit: $limit, storeId: $storeId, roleId: $roleId, status: $status, search: $search) {
      ${PAGE_META} data { ${STAFF_FIELDS} } } }`,
  CurrentStaff: `query CurrentStaff { currentStaff { ${STAFF_FIELDS} } }`,
  Staff: `query Staff($id: ID!) { staff(id: $id) { ${STAFF_FIELDS} } }`,
  CreateStaff: `mutation CreateStaff($input: CreateStaffInput!) { createStaff(input: $input) { ${STAFF_FIELDS} } }`,
  UpdateStaff: `mutation UpdateStaff($id: ID!, $input: UpdateStaffInput!) { updateStaff(id: $id, input: $input) { ${STAFF_FIELDS} } }`,
  DeleteStaff: 'mutation DeleteStaff($id: ID!) { deleteStaff(id: $id) { id } }',

  GenerateApiKey: `mutation GenerateApiKey($input: GenerateApiKeyInput!) {
    generateApiKey(input: $input) { id name apiKey roleId expiresAt createdAt } }`,
  MyApiKeys: `query MyApiKeys($page: Int, $limit: Int) {
    myApiKeys(page: $page, limit: $limit) { ${PAGE_META} data { id name prefix roleId expiresAt revokedAt lastUsedAt createdAt } } }`,
  ApiKeys: `query ApiKeys($page: Int, $limit: Int, $createdById: ID) {
    apiKeys(page: $page, limit: $limit, createdById: $createdById) { ${PAGE_META} data {
      id name prefix roleId role { id key } createdById createdBy { id email firstname lastname deletedAt }
      expiresAt revokedAt lastUsedAt createdAt } } }`,
  RevokeApiKey: 'mutation RevokeApiKey($id: ID!) { revokeApiKey(id: $id) }',
  ExchangeApiKey: 'mutation ExchangeApiKey($apiKey: String!) { exchangeApiKey(apiKey: $apiKey) { accessToken expiresIn } }',

  ChatappLogin: 'mutation ChatappLogin($code: String!) { chatappLogin(code: $code) { status accessToken refreshToken } }',
  CurrentMember: `query CurrentMember { currentMember { ${MEMBER_FIELDS} } }`,
  UpdateCurrentMember: 'mutation UpdateCurrentMember($input: MemberProfileInput!) { updateCurrentMember(input: $input) { id } }',
  CurrentMemberQrCode: 'query CurrentMemberQrCode { currentMemberQrCode { qrCodeUrl memberId } }',
  Members: `query Members($page: Int, $limit: Int, $birthdayFrom: String, $search: String, $includePointBalance: Boolean = false,
    $includeTier: Boolean = false, $locale: Locale) {
    members(page: $page, limit: $limit, birthdayFrom: $birthdayFrom, search: $search) {
      ${PAGE_META} data { ${MEMBER_FIELDS} pointBalance @include(if: $includePointBalance) ${MEMBER_TIER} } } }`,
  MembersByIds: 'query MembersByIds($ids: [ID!]!) { membersByIds(ids: $ids) { id nickName name status } }',
  Member: `query Member($id: ID!, $includePointBalance: Boolean = false, $includeTier: Boolean = false, $locale: Locale) {
    member(id: $id) { ${MEMBER_FIELDS} pointBalance @include(if: $includePointBalance) ${MEMBER_TIER} } }`,
  SyncChatappMember: `mutation SyncChatappMember($memberId: ID!, $input: ChatappProfileInput!) {
    syncChatappMember(memberId: $memberId, input: $input) { id } }`,
  UpdateMember: `mutation UpdateMember($memberId: ID!, $input: MemberProfileInput!) {
    updateMember(memberId: $memberId, input: $input) { id } }`,
  CreateMemberDirect: 'mutation CreateMemberDirect($input: CreateMemberDirectInput!) { createMemberDirect(input: $input) { id } }',
  UpdateMemberDirect: `mutation UpdateMemberDirect($memberId: ID!, $input: MemberDirectUpdateInput!) {
    updateMemberDirect(memberId: $memberId, input: $input) { id } }`,

  Roles: 'query Roles($locale: Locale) { roles(locale: $locale) { id key name_en name_th name_cn permissions createdAt updatedAt } }',
  ConsentVersions: `query ConsentVersions($type: ConsentType, $locale: Locale) {
    consentVersions(type: $type, locale: $locale) { ${CONSENT_VERSION_FIELDS} } }`,
  CurrentConsentVersions: `query CurrentConsentVersions($locale: Locale) { currentConsentVersions(locale: $locale) { ${CONSENT_VERSION_FIELDS} } }`,
  PublishConsentVersion: `mutation PublishConsentVersion($input: PublishConsentVersionInput!) {
    publishConsentVersion(input: $input) { ${CONSENT_VERSION_FIELDS} } }`,
  AcceptConsent: `mutation AcceptConsent($consentVersionId: ID!) { acceptConsent(consentVersionId: $consentVersionId) { ${CONSENT_STATUS_FIELDS} } }`,
  MyConsentStatus: `query MyConsentStatus { myConsentStatus { ${CONSENT_STATUS_FIELDS} } }`,
  MemberConsentStatus: `query MemberConsentStatus($id: ID!) { memberConsentStatus(id: $id) { ${CONSENT_STATUS_FIELDS} } }`,

  Health: 'query Health { health { ok } }',
};
