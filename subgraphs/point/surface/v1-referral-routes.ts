import { customerIdOf } from '../../../core/rest/path-ids';
import { id, oneOf, ref } from '../../../core/rest/json-schema';
import { Route, V1_BASE } from '../../../core/rest/route';
import { MEMBER_REFERRAL_FIELDS, memberReferralOf, REFERRAL, REFERRAL_SETTINGS, REFERRAL_SETTINGS_BODY, REFERRAL_STATUSES, referralListVariables, referralOf } from './v1-referrals';

const SETTINGS = `${V1_BASE}/loyalty/referral-settings`;

/**
 * Referrals (issue 29): a customer's code and how its referrals stand (a customer token reads its own),
 * the sign-ups with a code (refusals with their reason), and the program's settings (`admin` to change).
 */
export const V1_REFERRAL_ROUTES: Route[] = [
  {
    method: 'get',
    path: `${V1_BASE}/customers/:id/referral`,
    document: `query V1CustomerReferral($memberId: ID!) { memberReferral(memberId: $memberId) { ${MEMBER_REFERRAL_FIELDS} } }`,
    envelope: 'v1',
    customer: { param: 'id' },
    notFound: 'CUSTOMER_NOT_FOUND',
    doc: { summary: "A customer's referral code (made at its first read), who referred it, and its referrals by status", response: ref('CustomerReferral') },
    variables: ({ params }) => ({ memberId: customerIdOf(params) }),
    payload: ({ memberReferral }) => memberReferralOf(memberReferral),
  },
  {
    method: 'get',
    path: `${V1_BASE}/loyalty/referrals`,
    document: `query V1Referrals($page: Int, $limit: Int, $status: ReferralStatus, $referrerId: ID, $referredId: ID) {
      referrals(page: $page, limit: $limit, status: $status, referrerId: $referrerId, referredId: $referredId) { meta { page limit total } data { ${REFERRAL} } } }`,
    envelope: 'v1List',
    doc: {
      summary: 'Sign-ups with a referral code, newest first: pending, completed by a transaction, or refused with the reason',
      query: { status: oneOf(...REFERRAL_STATUSES), referrer_id: id({ description: "the code's owner" }), customer_id: id({ description: 'the new customer' }) },
      response: ref('Referral'),
    },
    variables: ({ query }) => referralListVariables(query),
    payload: ({ referrals }) => ({ ...referrals, data: referrals.data.map(referralOf) }),
  },
  {
    method: 'get',
    path: SETTINGS,
    document: `query V1ReferralSettings { referralSettings { ${REFERRAL_SETTINGS} } }`,
    envelope: 'v1',
    doc: { summary: "The referral program's settings", response: ref('ReferralSettings') },
  },
  {
    method: 'patch',
    path: SETTINGS,
    document: `mutation V1UpdateReferralSettings($input: ReferralSettingsInput!) { updateReferralSettings(input: $input) { ${REFERRAL_SETTINGS} } }`,
    envelope: 'v1',
    scope: 'admin',
    doc: { summary: 'Changes the referral settings (fields left out stay, null clears a limit)', body: REFERRAL_SETTINGS_BODY, response: ref('ReferralSettings') },
    variables: ({ body }) => ({ input: body }),
  },
];
