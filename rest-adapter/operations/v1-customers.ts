/** The GraphQL documents behind the /api/v1/customers routes; CI validates each against the supergraph. */

/** A member as a v1 customer needs it: the auth fields, its point balance (point) and tier (cluster). */
const CUSTOMER_FIELDS = `id openId unionId nickName avatarUrl name phoneNumber email language gender birthDate status createdAt updatedAt
  address { address district province postCode } pointBalance tier { id name_en name_th name_cn level }`;

/** `include=rewards`: the member's newest 100 reward codes (claims) with their reward's names. */
const REWARDS = `rewardCodes(page: 1, limit: 100) @include(if: $includeRewards) { data { id status reward { id name_en name_th name_cn } } }`;

/** `include=campaigns`: the member's newest 100 participations with their campaigns (campaign subgraph). */
const CAMPAIGNS = `campaignParticipations @include(if: $includeCampaigns) { id status joinedAt progress { current target percentage } campaign { id name type status } }`;

export const V1_CUSTOMER_OPERATIONS = {
  V1Customers: `query V1Customers($page: Int, $limit: Int, $search: String, $statusIn: [MemberStatus!], $createdFrom: String,
    $createdTo: String, $sortBy: MemberSortBy, $sortOrder: MemberSortOrder, $tier: String) {
    members(page: $page, limit: $limit, search: $search, statusIn: $statusIn, createdFrom: $createdFrom, createdTo: $createdTo,
      sortBy: $sortBy, sortOrder: $sortOrder, tier: $tier) { meta { page limit total totalPages } data { ${CUSTOMER_FIELDS} } } }`,
  V1Customer: `query V1Customer($id: ID!, $includePoints: Boolean = false, $includeRewards: Boolean = false, $includeCampaigns: Boolean = false) { member(id: $id) { ${CUSTOMER_FIELDS} ${REWARDS} ${CAMPAIGNS} }
    earned: pointBalance(memberId: $id, format: earn) @include(if: $includePoints) { pointAmount }
    redeemed: pointBalance(memberId: $id, format: burn) @include(if: $includePoints) { pointAmount } }`,
  V1CurrentCustomer: `query V1CurrentCustomer($includePoints: Boolean = false, $includeRewards: Boolean = false, $includeCampaigns: Boolean = false) { currentMember { ${CUSTOMER_FIELDS} ${REWARDS} ${CAMPAIGNS} }
    earned: myPointBalance(format: earn) @include(if: $includePoints) { pointAmount }
    redeemed: myPointBalance(format: burn) @include(if: $includePoints) { pointAmount } }`,
  V1CreateCustomer: `mutation V1CreateCustomer($input: CreateCustomerInput!) {
    createCustomer(input: $input) { member { ${CUSTOMER_FIELDS} } } }`,
  V1UpdateCustomer: `mutation V1UpdateCustomer($id: ID!, $input: UpdateCustomerInput!) { updateCustomer(id: $id, input: $input) { ${CUSTOMER_FIELDS} } }`,
  V1ChangeCustomerTier: `mutation V1ChangeCustomerTier($id: ID!, $input: ChangeCustomerTierInput!) {
    changeCustomerTier(id: $id, input: $input) { member { ${CUSTOMER_FIELDS} } } }`,
  V1LinkCustomerChatapp: `mutation V1LinkCustomerChatapp($id: ID!, $code: String, $appId: String) {
    linkCustomerChatapp(id: $id, code: $code, appId: $appId) { ${CUSTOMER_FIELDS} } }`,
  V1DeleteCustomer: `mutation V1DeleteCustomer($id: ID!) { deleteCustomer(id: $id) { id deletedAt } }`,
  V1CustomerSegments: `query V1CustomerSegments($id: ID!) { member(id: $id) { id } memberSegments(memberId: $id) { id name_en name_th name_cn type } }`,
};
