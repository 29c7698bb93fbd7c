/** The GraphQL documents behind the /api/v1/customers routes; CI validates each against the supergraph. */

/** A member as a v1 customer needs it: the auth fields, its point balance (point) and tier (cluster). */
const CUSTOMER_FIELDS = `id openId unionId nickName avatarUrl name phoneNumber gender birthDate status createdAt updatedAt
  address { address district province postCode } pointBalance tier { id name_en name_th name_cn level }`;

export const V1_CUSTOMER_OPERATIONS = {
  V1Customers: `query V1Customers($page: Int, $limit: Int, $search: String, $statusIn: [MemberStatus!], $createdFrom: String,
    $createdTo: String, $sortBy: MemberSortBy, $sortOrder: MemberSortOrder) {
    members(page: $page, limit: $limit, search: $search, statusIn: $statusIn, createdFrom: $createdFrom, createdTo: $createdTo,
      sortBy: $sortBy, sortOrder: $sortOrder) { meta { page limit total totalPages } data { ${CUSTOMER_FIELDS} } } }`,
  V1Customer: `query V1Customer($id: ID!) { member(id: $id) { ${CUSTOMER_FIELDS} } }`,
  V1CurrentCustomer: `query V1CurrentCustomer { currentMember { ${CUSTOMER_FIELDS} } }`,
};
