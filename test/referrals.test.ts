import { unique } from './support/test-platform';
import { usePlatform } from './support/use-platform';
import { waitFor } from './support/wait-for';

// Referrals (issue 29): each customer's code, sign-ups with a code linked or refused (and why), the first
// qualifying transaction completing the referral once, both sides earning by the referral.completed rules.
const SETTINGS = '/api/v1/loyalty/referral-settings';
const RULES = '/api/v1/loyalty/rules';

const { platform, admin, marketing, tenant } = usePlatform({ staff: ['admin', 'marketing', 'tenant'] });

const api = (method: string, path: string, body?: unknown, token: string = admin.token) => platform.api(method, path, { token, body });
const detailFields = (body: { error: { details?: Array<{ field: string }> } }) => [...new Set((body.error.details ?? []).map((detail) => detail.field))].sort();
const balanceOf = async (customerId: string) => (await api('GET', `/api/v1/customers/${customerId}/points/balance`)).body.data.balance as number;
const outboxTypes = async (memberId: string) =>
  (await platform.sql.query(`select type from point.outbox_event where aggregate_id = $1 and type like 'referral.%'`, [memberId])).rows.map((row) => row.type as string);

async function customer(body: Record<string, unknown> = {}): Promise<string> {
  const created = await api('POST', '/api/v1/customers', { name: unique('Customer '), ...body });
  if (created.status !== 200) throw new Error(`customer: ${JSON.stringify(created.body)}`);
  return created.body.data.id;
}
const codeOf = async (customerId: string) => (await api('GET', `/api/v1/customers/${customerId}/referral`)).body.data.code as string;
/** The sign-up of `customerId` with a code, once the point domain has linked or refused it. */
async function signUpOf(customerId: string): Promise<Record<string, any>> {
  let found: Record<string, any> | undefined;
  await waitFor(async () => {
    found = (await api('GET', `/api/v1/loyalty/referrals?customer_id=${customerId}`)).body.data[0];
    return found !== undefined;
  }, `the sign-up of ${customerId} linked`);
  return found!;
}
async function purchase(customerId: string, amount: number): Promise<number> {
  const response = await api('POST', '/api/v1/transactions', { customer_id: customerId, amount });
  if (response.status !== 201) throw new Error(`purchase: ${JSON.stringify(response.body)}`);
  return response.body.data.points_earned;
}
const referralFigures = async () => {
  const { referrals_created, referrals_completed } = (await api('GET', '/api/v1/analytics/dashboard?time_range=today')).body.data.loyalty;
  return { created: referrals_created as number, completed: referrals_completed as number };
};
async function settings(body: Record<string, unknown>): Promise<void> {
  const changed = await api('PATCH', SETTINGS, body);
  if (changed.status !== 200) throw new Error(`settings: ${JSON.stringify(changed.body)}`);
}

describe('a customer’s referral code', () => {
  it('is made at its first read and stays; a customer reads its own only; 404 for nobody', async () => {
    const owner = await platform.loginMember();
    const first = await api('GET', `/api/v1/customers/${owner.id}/referral`, undefined, owner.token);
    expect(first.status).toBe(200);
    expect(first.body.data).toEqual({ customer_id: owner.id, code: expect.stringMatching(/^[A-HJ-NP-Z2-9]{8}$/), referred_by: null, referrals: { pending: 0, completed: 0, refused: 0 } });
    expect(await codeOf(owner.id)).toBe(first.body.data.code);
    expect((await api('GET', `/api/v1/customers/${owner.id}/referral`, undefined, tenant.token)).status).toBe(200);
    const other = await platform.loginMember();
    expect((await api('GET', `/api/v1/customers/${owner.id}/referral`, undefined, other.token)).status).toBe(403);
    const nobody = await api('GET', '/api/v1/customers/00000000-0000-4000-8000-000000000000/referral');
    expect(nobody.status).toBe(404);
    expect(nobody.body.error.code).toBe('CUSTOMER_NOT_FOUND');
    expect((await api('GET', '/api/v1/customers/not-an-id/referral')).status).toBe(404);
    const graphql = await platform.graphql(`query { memberReferral(memberId: "${owner.id}") { code pending referredBy { id } } referralSettings { enabled referrerLimit } }`, {}, admin.token);
    expect(graphql.body).toEqual({ data: { memberReferral: { code: first.body.data.code, pending: 0, referredBy: null }, referralSettings: { enabled: true, referrerLimit: null } } });
  });

  it('settings: read with read, changed by admin only, bad values named and changing nothing', async () => {
    const before = (await api('GET', SETTINGS, undefined, tenant.token)).body.data;
    expect(before).toEqual({ enabled: true, referrer_limit: null, min_purchase_amount: 0, completion_days: null, updated_at: expect.any(String) });
    expect((await api('PATCH', SETTINGS, { enabled: false }, marketing.token)).status).toBe(403);
    const bad = await api('PATCH', SETTINGS, { enabled: null, referrer_limit: -1, min_purchase_amount: 1.234, completion_days: 0 });
    expect(bad.status).toBe(400);
    expect(detailFields(bad.body)).toEqual(['completion_days', 'min_purchase_amount', 'referrer_limit']);
    const nullEnabled = await api('PATCH', SETTINGS, { enabled: null });
    expect(nullEnabled.status).toBe(400);
    expect(detailFields(nullEnabled.body)).toEqual(['enabled']);
    expect((await api('GET', SETTINGS)).body.data).toEqual(before);
    const badCode = await api('POST', '/api/v1/customers', { name: unique('Bad code '), referral_code: 'no spaces\u0000' });
    expect(badCode.status).toBe(400);
    expect(detailFields(badCode.body)).toEqual(['referral_code']);
  });
});

describe('a referral', () => {
  it('is linked at sign-up, completed once by the first qualifying transaction, and earns both sides by the referral.completed rules', async () => {
    await settings({ min_purchase_amount: 50 });
    for (const [role, points] of [['referrer', 500], ['referred', 200]] as const) {
      const rule = await api('POST', RULES, { name: unique(`Referral ${role} `), trigger: 'referral.completed', conditions: { fact: 'referral_role', op: 'eq', value: role }, effect: { type: 'fixed', points } });
      expect(rule.status).toBe(201);
      expect((await api('POST', `${RULES}/${rule.body.data.id}/activate`)).status).toBe(200);
    }
    const simulated = await api('POST', `${RULES}/simulate`, { trigger: 'referral.completed', customer_id: await customer(), referral_role: 'referrer' });
    expect(simulated.body.data.points).toBe(500);
    const roleless = await api('POST', `${RULES}/simulate`, { trigger: 'referral.completed', customer_id: await customer() });
    expect(detailFields(roleless.body)).toEqual(['referral_role']);

    const figures = await referralFigures();
    const referrer = await customer();
    const code = await codeOf(referrer);
    const referred = await customer({ referral_code: code.toLowerCase() });
    const linked = await signUpOf(referred);
    expect(linked).toEqual({
      id: expect.any(String),
      code,
      referrer_id: referrer,
      customer_id: referred,
      status: 'pending',
      refusal: null,
      purchase_id: null,
      created_at: expect.any(String),
      completed_at: null,
    });
    expect(await outboxTypes(referred)).toEqual(['referral.created']);

    const small = await purchase(referred, 30);
    const [first, second] = await Promise.all([purchase(referred, 60), purchase(referred, 75)]);
    await waitFor(async () => (await balanceOf(referrer)) === 500, 'the referrer’s points');
    await waitFor(async () => (await balanceOf(referred)) === small + first + second + 200, 'the referred customer’s points');
    const completed = await signUpOf(referred);
    expect(completed).toMatchObject({ status: 'completed', completed_at: expect.any(String) });
    const transactions = (await api('GET', `/api/v1/transactions?customer_id=${referred}&limit=10`)).body.data as Array<{ id: string; amount: number }>;
    expect(transactions.filter((transaction) => transaction.amount >= 50).map((transaction) => transaction.id)).toContain(completed.purchase_id);
    expect(transactions.find((transaction) => transaction.amount === 30)!.id).not.toBe(completed.purchase_id);
    expect(await outboxTypes(referred)).toEqual(['referral.created', 'referral.completed']);
    await waitFor(async () => {
      const now = await referralFigures();
      return now.created === figures.created + 1 && now.completed === figures.completed + 1;
    }, 'the analytics dashboard counting the referral');

    expect((await api('GET', `/api/v1/customers/${referrer}/referral`)).body.data.referrals).toEqual({ pending: 0, completed: 1, refused: 0 });
    expect((await api('GET', `/api/v1/customers/${referred}/referral`)).body.data.referred_by).toMatchObject({ referrer_id: referrer, status: 'completed' });
    await purchase(referred, 80);
    await waitFor(async () => (await platform.sql.query(`select 1 from point.rule_source where source_id like $1`, [`${linked.id}:%`])).rowCount === 2, 'both sides evaluated');
    expect(await balanceOf(referrer)).toBe(500);
    await settings({ min_purchase_amount: 0 });
  });

  it('records each refusal with its reason, announces none, and a refused sign-up’s purchase completes nothing', async () => {
    const refusalOf = async (body: Record<string, unknown>) => {
      const referred = await customer(body);
      const signUp = await signUpOf(referred);
      await purchase(referred, 100);
      expect(await outboxTypes(referred)).toEqual([]);
      expect((await signUpOf(referred)).status).toBe('refused');
      return signUp;
    };
    expect(await refusalOf({ referral_code: 'NOSUCHCODE' })).toMatchObject({ status: 'refused', refusal: 'unknown_code', referrer_id: null, code: 'NOSUCHCODE' });

    const email = `${unique('self')}@example.com`;
    const self = await customer({ email });
    const selfCode = await codeOf(self);
    expect(await refusalOf({ referral_code: selfCode, email: email.replace('@', '+again@').toUpperCase() })).toMatchObject({ refusal: 'self_referral', referrer_id: self });

    const gone = await customer();
    const goneCode = await codeOf(gone);
    expect((await api('DELETE', `/api/v1/customers/${gone}`)).status).toBe(204);
    expect(await refusalOf({ referral_code: goneCode })).toMatchObject({ refusal: 'referrer_deleted', referrer_id: gone });

    const once = `${unique('once')}@example.com`;
    const first = await customer({ email: once, referral_code: await codeOf(await customer()) });
    expect((await signUpOf(first)).status).toBe('pending');
    expect((await api('DELETE', `/api/v1/customers/${first}`)).status).toBe(204);
    expect(await refusalOf({ email: once, referral_code: await codeOf(await customer()) })).toMatchObject({ refusal: 'already_referred' });

    await settings({ enabled: false });
    expect(await refusalOf({ referral_code: await codeOf(await customer()) })).toMatchObject({ refusal: 'program_disabled' });
    await settings({ enabled: true });
  });

  it('completes only within completion_days of the sign-up', async () => {
    await settings({ completion_days: 1 });
    const referred = await customer({ referral_code: await codeOf(await customer()) });
    const late = await signUpOf(referred);
    // The sign-up was two days ago (a fixture: sign-ups are made now).
    await platform.sql.query(`update point.referral set created_at = now() - interval '2 days' where id = $1`, [late.id]);
    await purchase(referred, 100);
    expect((await signUpOf(referred)).status).toBe('pending');
    const inTime = await customer({ referral_code: await codeOf(await customer()) });
    await signUpOf(inTime);
    await purchase(inTime, 100);
    expect((await signUpOf(inTime)).status).toBe('completed');
    await settings({ completion_days: null });
  });

  it('links a chat-app sign-up (v1 login) with a code; a later login with another code changes nothing', async () => {
    const referrer = await customer();
    const code = await codeOf(referrer);
    const chatappCode = unique('signup');
    const login = async (referralCode: string) => platform.api('POST', '/api/v1/auth/chatapp/login', { body: { code: chatappCode, referral_code: referralCode } });
    const first = await login(code);
    expect(first.status).toBe(200);
    const memberId = first.body.data.user.id as string;
    expect(await signUpOf(memberId)).toMatchObject({ referrer_id: referrer, status: 'pending' });
    const other = await codeOf(await customer());
    expect((await login(other)).status).toBe(200);
    const bad = await login('bad code');
    expect(bad.status).toBe(400);
    expect(detailFields(bad.body)).toEqual(['referral_code']);
    const signUps = (await api('GET', `/api/v1/loyalty/referrals?customer_id=${memberId}`)).body.data;
    expect(signUps.map((signUp: { code: string }) => signUp.code)).toEqual([code]);
  });

  it('holds a referrer to its limit under concurrent sign-ups', async () => {
    await settings({ referrer_limit: 3 });
    const referrer = await customer();
    const code = await codeOf(referrer);
    const signUps = await Promise.all(Array.from({ length: 6 }, () => customer({ referral_code: code })));
    const outcomes = await Promise.all(signUps.map(signUpOf));
    expect(outcomes.filter((signUp) => signUp.status === 'pending')).toHaveLength(3);
    expect(outcomes.filter((signUp) => signUp.refusal === 'referrer_limit')).toHaveLength(3);
    expect((await api('GET', `/api/v1/customers/${referrer}/referral`)).body.data.referrals).toEqual({ pending: 3, completed: 0, refused: 3 });
    const listed = await api('GET', `/api/v1/loyalty/referrals?referrer_id=${referrer}&status=refused&limit=2`, undefined, tenant.token);
    expect(listed.status).toBe(200);
    expect(listed.body.data).toHaveLength(2);
    expect(listed.body.pagination).toMatchObject({ total: 3 });
    expect((await api('GET', '/api/v1/loyalty/referrals?status=lost')).status).toBe(400);
    await settings({ referrer_limit: null });
  });
});
