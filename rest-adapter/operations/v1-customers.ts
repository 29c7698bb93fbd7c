/** The GraphQL documents behind the /api/v1/customers routes; CI validates each against the supergraph. */

/** A member as a v1 customer needs it: the auth fields, its point balance (point) and tier (cluster). */
const CUSTOMER_FIELDS = `id openId unionId nickName avatarUrl name phoneNumber gender birthDate status createdAt updatedAt
  address { address district province postCode } pointBalance tier { id name_en name_th name_cn level }`;

export const V1_CUSTOMER_OPERATIONS = {
  V1Customers: `query V1Customers($page: Int, $limit: Int, $search: String, $statusIn: [MemberStatus!], $createdFrom: String,
    $createdTo: String, $sortBy: MemberSortBy, $sortOrder: MemberSortOrder) {
    members(page: $page, limit: $limit, search: $search, statusIn: $statusIn, createdFrom: $createdFrom, createdTo: $createdTo,
      sortBy: $sortBy, sortOrder: $sortOrder) { meta { page limit total totalPages } data { ${CUSTOMER_FIELDS} } } }`,
  V1Customer: `query V1Customer($id: ID!, $includePoints: Boolean = false) { member(id: $id) { ${CUSTOMER_FIELDS} }
    earned: pointBalance(memberId: $id, format: earn) @include(if: $includePoints) { pointAmount }
    redeemed: pointBalance(memberId: $id, format: burn) @include(if: $includePoints) { pointAmount } }`,
  V1CurrentCustomer: `query V1CurrentCustomer($includePoints: Boolean = false) { currentMember { ${CUSTOMER_FIELDS} }
    earned: myPointBalance(format: earn) @include(if: $includePoints) { pointAmount }
    redeemed: myPointBalance(format: burn) @include(if: $includePoints) { pointAmount } }`,
};
