import { MEMBER_EMAIL_DOMAIN } from './program';

/**
 * A query of the demo program for the explorer to open on: members with their tier, point balance and
 * latest reward codes. It reads members, so it needs a staff token with `member:read` (an admin's):
 * `Authorization: Bearer <the accessToken of staffLogin>`.
 */
export const exampleQuery = `# The demo program's members (npm run seed:demo), with their tier, points and reward codes.
# Send it with an admin's token: {"Authorization": "Bearer <accessToken>"}, the accessToken from
# mutation { staffLogin(input: {email: "...", password: "..."}) { accessToken } }
query DemoMembers {
  members(limit: 10, search: "@${MEMBER_EMAIL_DOMAIN}", sortBy: name, sortOrder: asc) {
    meta { total }
    data {
      name
      email
      tier { name_en level }
      pointBalance
      rewardCodes(limit: 3) { data { code status reward { name_en } } }
    }
  }
}
`;
