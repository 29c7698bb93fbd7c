import PgBoss from 'pg-boss';
import { randomUUID } from 'node:crypto';
import { startJobQueue, stopJobQueue } from '../core/events/job-queue';
import { createLogger } from '../core/logger';
import { CODE_EXPIRY_NOTICE_QUEUE } from '../subgraphs/reward/services/code-expiry-notice';
import { randomCode } from '../subgraphs/reward/services/reward-code-issuer';
import { TestMember, unique } from './support/test-platform';
import { usePlatform } from './support/use-platform';
import { sendAndWait } from './support/wait-for';

/** Codes expiring within 5 days are announced (the default is 3): the setting is honoured. */
const { platform, marketing, tenant, admin, members } = usePlatform({
  env: { REWARD_CODE_EXPIRY_NOTICE_DAYS: '5' },
  staff: ['marketing', 'tenant', 'admin'],
  members: 2,
});
const [owner, stranger] = members;

let boss: PgBoss;
beforeAll(async () => {
  boss = await startJobQueue(process.env.TEST_DATABASE_URL!, createLogger('test', 'silent'));
});
afterAll(() => stopJobQueue(boss));

const BASE = '/reward/api/reward-codes';
const DAY = 24 * 3600 * 1000;
const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const inDays = (days: number) => new Date(Date.now() + days * DAY);
const errorFields = (body: any) => [...new Set<string>((body.data.errors ?? []).map((error: { field: string }) => error.field))].sort();

interface Offer {
  rewardId: string;
  catalogId: string;
  name_en: string;
}

/** A reward (with a Thai name) and a catalog of it, made through GraphQL by marketing. */
async function createOffer(): Promise<Offer> {
  const name_en = unique('Code reward ');
  const reward = await platform.graphql(
    `mutation ($input: CreateRewardInput!) { createReward(input: $input) { id } }`,
    { input: { name_en, name_th: 'รางวัล', description_en: 'd', type: 'POINT', benefitValue: 10, stock: 10 } },
    marketing.token,
  );
  expect(reward.body.errors).toBeUndefined();
  const rewardId = reward.body.data.createReward.id;
  const catalog = await platform.graphql(
    `mutation ($input: CreateRewardCatalogInput!) { createRewardCatalog(input: $input) { id } }`,
    { input: { name_en: unique('Code catalog '), name_th: 'แคตตาล็อก', rewardId, redeemRule: { pointUsage: 50 } } },
    marketing.token,
  );
  expect(catalog.body.errors).toBeUndefined();
  return { rewardId, catalogId: catalog.body.data.createRewardCatalog.id, name_en };
}

interface InsertedCode {
  id: string;
  code: string;
}

/** A code of `offer` held by `memberId`, written as redemption would (random characters, unique among unused codes). */
async function insertCode(offer: Offer, memberId: string, fields: { expiredAt?: Date; createdAt?: Date; usedBy?: string } = {}): Promise<InsertedCode> {
  const createdAt = fields.createdAt ?? new Date();
  const usedBy = fields.usedBy ?? null;
  for (;;) {
    const { rows } = await platform.sql.query(
      `insert into reward.reward_code (id, code, reward_id, reward_catalog_id, member_id, expired_at, created_at, updated_at, staff_id, used_at)
       values ($1, $2, $3, $4, $5, $6, $7, $7, $8::text, case when $8::text is null then null else now() end)
       on conflict (code) where used_at is null do nothing returning id, code`,
      [randomUUID(), randomCode(), offer.rewardId, offer.catalogId, memberId, fields.expiredAt ?? inDays(30), createdAt, usedBy],
    );
    if (rows.length > 0) return rows[0];
  }
}

const expire = (codeId: string) => platform.sql.query(`update reward.reward_code set expired_at = now() - interval '1 hour' where id = $1`, [codeId]);
const list = (query: string, token = marketing.token) => platform.api('GET', `${BASE}?${query}`, { token });
const ids = (response: { body: any }) => response.body.data.data.map((code: { id: string }) => code.id);
const use = (id: string, code: unknown, token = marketing.token) => platform.api('POST', `${BASE}/${id}/use`, { token, body: { code } });
const check = (code: unknown, token = marketing.token) => platform.api('POST', `${BASE}/check`, { token, body: { code } });
const counts = async (offer: Offer) =>
  (
    await platform.sql.query(
      `select r.used_count as reward_used, c.used_count as catalog_used from reward.reward r, reward.reward_catalog c where r.id = $1 and c.id = $2`,
      [offer.rewardId, offer.catalogId],
    )
  ).rows[0];
const eventsOf = async (type: string, codeId: string) =>
  (await platform.sql.query(`select aggregate_id, payload from reward.outbox_event where type = $1 and payload->>'rewardCodeId' = $2`, [type, codeId])).rows;

describe('GET /reward-codes (reward:manage)', () => {
  let offer: Offer;
  let other: Offer;
  let oldest: InsertedCode;
  let middle: InsertedCode;
  let newest: InsertedCode;
  let strangers: InsertedCode;
  beforeAll(async () => {
    [offer, other] = await Promise.all([createOffer(), createOffer()]);
    oldest = await insertCode(offer, owner.id, { createdAt: inDays(-20) });
    middle = await insertCode(offer, owner.id, { createdAt: inDays(-10) });
    newest = await insertCode(offer, owner.id, { createdAt: inDays(-1) });
    strangers = await insertCode(other, stranger.id, { createdAt: inDays(-5) });
  });

  it('answers the page directly in data, newest first, each code with its status and reward summary', async () => {
    const response = await list(`rewardId=${offer.rewardId}`);
    expect(response.status).toBe(200);
    expect(response.body.data.meta).toEqual({ page: 1, limit: 10, total: 3, totalPages: 1 });
    expect(ids(response)).toEqual([newest.id, middle.id, oldest.id]);
    expect(response.body).toEqual({ statusCode: 200, data: { meta: expect.any(Object), data: expect.any(Array) } });
    expect(response.body.data.data[0]).toEqual({
      id: newest.id,
      code: newest.code,
      rewardId: offer.rewardId,
      rewardCatalogId: offer.catalogId,
      memberId: owner.id,
      staffId: null,
      usedAt: null,
      expiredAt: expect.stringMatching(ISO_MS),
      expirationNotifiedAt: null,
      createdAt: expect.stringMatching(ISO_MS),
      updatedAt: expect.stringMatching(ISO_MS),
      status: 'AVAILABLE',
      reward: { id: offer.rewardId, name_en: offer.name_en, name_th: 'รางวัล', name_cn: null, type: 'POINT', discountType: null, benefitValue: 10, imageUrl: null },
    });
  });

  it('pages with page and limit', async () => {
    const second = await list(`rewardId=${offer.rewardId}&page=2&limit=2`);
    expect(second.body.data.meta).toEqual({ page: 2, limit: 2, total: 3, totalPages: 2 });
    expect(ids(second)).toEqual([oldest.id]);
  });

  it('filters by member, reward, catalog and the createdAt window', async () => {
    expect(ids(await list(`memberId=${stranger.id}`))).toEqual([strangers.id]);
    expect(ids(await list(`rewardCatalogId=${other.catalogId}`))).toEqual([strangers.id]);
    expect(ids(await list(`rewardId=${offer.rewardId}&memberId=${stranger.id}`))).toEqual([]);
    expect(ids(await list(`rewardId=${offer.rewardId}&start=${inDays(-15).toISOString()}`))).toEqual([newest.id, middle.id]);
    expect(ids(await list(`rewardId=${offer.rewardId}&end=${inDays(-15).toISOString()}`))).toEqual([oldest.id]);
    expect(ids(await list(`rewardId=${offer.rewardId}&start=${inDays(-15).toISOString()}&end=${inDays(-5).toISOString()}`))).toEqual([middle.id]);
  });

  it('searches by the start of the code or the whole code, whatever the case', async () => {
    const prefix = middle.code.slice(0, 3);
    const expected = [newest, middle, oldest].filter((code) => code.code.startsWith(prefix)).map((code) => code.id);
    expect(ids(await list(`rewardId=${offer.rewardId}&search=${prefix.toLowerCase()}`))).toEqual(expected);
    expect(ids(await list(`rewardId=${offer.rewardId}&search=${middle.code.toLowerCase()}`))).toEqual([middle.id]);
    expect(ids(await list(`search=${middle.code}`))).toEqual([middle.id]);
    expect(ids(await list(`rewardId=${offer.rewardId}&search=${middle.code.slice(1)}`))).not.toContain(middle.id);
    expect(ids(await list(`rewardId=${offer.rewardId}&search=%25`))).toEqual([]);
  });

  it('adds the member (from the auth subgraph) with includeMember and the catalog with includeLink, localized by locale', async () => {
    const response = await list(`memberId=${stranger.id}&includeMember=true&includeLink=true&locale=th`);
    const profile = (await platform.api('GET', `/auth/api/members/${stranger.id}`, { token: marketing.token })).body.data.data;
    expect(response.body.data.data[0]).toMatchObject({
      id: strangers.id,
      member: { id: stranger.id, name: profile.name, nickName: profile.nickName, phoneNumber: profile.phoneNumber, status: profile.status },
      rewardCatalog: { id: other.catalogId, name_en: null, name_th: 'แคตตาล็อก', name_cn: null, redeemRule: { pointUsage: 50, limitPerUser: null } },
      reward: { id: other.rewardId, name_en: null, name_th: 'รางวัล' },
    });
    const plain = (await list(`memberId=${stranger.id}`)).body.data.data[0];
    expect(plain).not.toHaveProperty('member');
    expect(plain).not.toHaveProperty('rewardCatalog');
  });

  it('answers 400 naming the field for bad filters', async () => {
    const cases: Array<[string, string[]]> = [
      ['limit=0', ['limit']],
      ['limit=101', ['limit']],
      ['page=0', ['page']],
      ['rewardId=not-a-uuid', ['rewardId']],
      ['memberId=42', ['memberId']],
      ['staffId=x', ['staffId']],
      ['rewardCatalogId=x', ['rewardCatalogId']],
      ['status=SOMETIMES', ['status']],
      ['start=yesterday', ['start']],
      [`start=${inDays(1).toISOString()}&end=${inDays(-1).toISOString()}`, ['end']],
      ['search=ABCDEFG', ['search']],
    ];
    for (const [query, fields] of cases) {
      const response = await list(query);
      expect({ query, status: response.status, fields: errorFields(response.body) }).toEqual({ query, status: 400, fields });
    }
  });

  it('is 401 without a token and 403 for tenant staff and members', async () => {
    expect((await platform.api('GET', BASE)).status).toBe(401);
    expect((await list('', tenant.token)).status).toBe(403);
    expect((await list('', owner.token)).status).toBe(403);
    expect((await list(`memberId=${owner.id}`, admin.token)).status).toBe(200);
  });
});

describe('status, evaluated now', () => {
  let offer: Offer;
  let available: InsertedCode;
  let used: InsertedCode;
  let expired: InsertedCode;
  beforeAll(async () => {
    offer = await createOffer();
    available = await insertCode(offer, owner.id);
    used = await insertCode(offer, owner.id);
    expired = await insertCode(offer, owner.id);
    expect((await use(used.id, used.code)).status).toBe(200);
    await expire(expired.id);
  });

  it('filters AVAILABLE, USED and EXPIRED and shows each code\'s status', async () => {
    for (const [status, code] of [['AVAILABLE', available], ['USED', used], ['EXPIRED', expired]] as const) {
      const response = await list(`rewardId=${offer.rewardId}&status=${status}`);
      expect({ status, ids: ids(response), shown: response.body.data.data.map((item: { status: string }) => item.status) }).toEqual({ status, ids: [code.id], shown: [status] });
    }
  });

  it('filters by the staff member who used the codes', async () => {
    expect(ids(await list(`rewardId=${offer.rewardId}&staffId=${marketing.id}`))).toEqual([used.id]);
    expect(ids(await list(`rewardId=${offer.rewardId}&staffId=${admin.id}`))).toEqual([]);
  });

  it('a used code stays USED after its expiry', async () => {
    await expire(used.id);
    expect(ids(await list(`rewardId=${offer.rewardId}&status=USED`))).toEqual([used.id]);
    expect(ids(await list(`rewardId=${offer.rewardId}&status=EXPIRED`))).toEqual([expired.id]);
  });
});

describe('GET /reward-codes/me', () => {
  let offer: Offer;
  let mine: InsertedCode;
  let mineExpired: InsertedCode;
  let theirs: InsertedCode;
  beforeAll(async () => {
    offer = await createOffer();
    mine = await insertCode(offer, owner.id, { createdAt: inDays(-2) });
    mineExpired = await insertCode(offer, owner.id, { createdAt: inDays(-1) });
    theirs = await insertCode(offer, stranger.id);
    await expire(mineExpired.id);
  });

  it("lists the caller's own codes with the same filters; a memberId in the query is ignored", async () => {
    const own = await platform.api('GET', `${BASE}/me?rewardId=${offer.rewardId}`, { token: owner.token });
    expect(own.status).toBe(200);
    expect(ids(own)).toEqual([mineExpired.id, mine.id]);
    const spoofed = await platform.api('GET', `${BASE}/me?rewardId=${offer.rewardId}&memberId=${stranger.id}`, { token: owner.token });
    expect(ids(spoofed)).toEqual([mineExpired.id, mine.id]);
    const available = await platform.api('GET', `${BASE}/me?rewardId=${offer.rewardId}&status=AVAILABLE&includeLink=true`, { token: owner.token });
    expect(ids(available)).toEqual([mine.id]);
    expect(available.body.data.data[0].rewardCatalog).toMatchObject({ id: offer.catalogId });
    const searched = await platform.api('GET', `${BASE}/me?search=${theirs.code}`, { token: owner.token });
    expect(ids(searched)).toEqual([]);
  });

  it('is for members: staff are 403, no token 401, bad filters 400', async () => {
    expect((await platform.api('GET', `${BASE}/me`, { token: marketing.token })).status).toBe(403);
    expect((await platform.api('GET', `${BASE}/me`)).status).toBe(401);
    const bad = await platform.api('GET', `${BASE}/me?limit=500`, { token: owner.token });
    expect({ status: bad.status, fields: errorFields(bad.body) }).toEqual({ status: 400, fields: ['limit'] });
  });
});

describe('GET /reward-codes/:id', () => {
  let offer: Offer;
  let code: InsertedCode;
  beforeAll(async () => {
    offer = await createOffer();
    code = await insertCode(offer, owner.id);
  });

  it('answers reward:manage and the owning member with the code in data', async () => {
    const staff = await platform.api('GET', `${BASE}/${code.id}?includeMember=true`, { token: marketing.token });
    expect(staff.status).toBe(200);
    expect(staff.body.data).toMatchObject({ id: code.id, code: code.code, memberId: owner.id, status: 'AVAILABLE', member: { id: owner.id } });
    const own = await platform.api('GET', `${BASE}/${code.id}`, { token: owner.token });
    expect(own.body).toEqual({ statusCode: 200, data: expect.objectContaining({ id: code.id, code: code.code }) });
  });

  it("is 404 for another member's code, an unknown id and a non-UUID; 403 for tenant staff; 401 without a token", async () => {
    const theirs = await platform.api('GET', `${BASE}/${code.id}`, { token: stranger.token });
    expect(theirs.status).toBe(404);
    expect(theirs.body.data).toMatchObject({ message: 'Reward code not found', data: { id: code.id } });
    expect((await platform.api('GET', `${BASE}/${randomUUID()}`, { token: marketing.token })).status).toBe(404);
    expect((await platform.api('GET', `${BASE}/not-a-code`, { token: marketing.token })).status).toBe(404);
    expect((await platform.api('GET', `${BASE}/${code.id}`, { token: tenant.token })).status).toBe(403);
    expect((await platform.api('GET', `${BASE}/${code.id}`)).status).toBe(401);
  });
});

describe('POST /reward-codes/:id/use', () => {
  let offer: Offer;
  beforeAll(async () => {
    offer = await createOffer();
  });

  it("marks the code used by the caller (lower case accepted), counts it on the reward and the catalog and records reward.redeemed", async () => {
    const code = await insertCode(offer, owner.id);
    const response = await use(code.id, code.code.toLowerCase());
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      statusCode: 200,
      message: 'Reward code used',
      data: expect.objectContaining({ id: code.id, code: code.code, status: 'USED', staffId: marketing.id, usedAt: expect.stringMatching(ISO_MS) }),
    });
    expect(await counts(offer)).toEqual({ reward_used: 1, catalog_used: 1 });
    const stats = await platform.api('GET', `/reward/api/rewards/${offer.rewardId}?includeStats=true`);
    expect(stats.body.data.stats).toMatchObject({ used: 1 });
    const catalogStats = await platform.api('GET', `/reward/api/reward-catalogs/${offer.catalogId}?includeStats=true`);
    expect(catalogStats.body.data.stats).toMatchObject({ used: 1 });
    expect(await eventsOf('reward.redeemed', code.id)).toEqual([
      {
        aggregate_id: owner.id,
        payload: {
          memberId: owner.id,
          rewardId: offer.rewardId,
          rewardCatalogId: offer.catalogId,
          rewardCodeId: code.id,
          staffId: marketing.id,
          usedAt: response.body.data.usedAt,
        },
      },
    ]);
  });

  it("is 400 'already used' the second time, 400 'expired' past its expiry, 400 'Invalid code' for other characters; none changes anything", async () => {
    const before = await counts(offer);
    const code = await insertCode(offer, owner.id);
    expect((await use(code.id, code.code)).status).toBe(200);
    const again = await use(code.id, code.code);
    expect({ status: again.status, message: again.body.data.message, fields: errorFields(again.body) }).toEqual({
      status: 400,
      message: 'Reward code already used',
      fields: ['code'],
    });

    const expired = await insertCode(offer, owner.id);
    await expire(expired.id);
    const late = await use(expired.id, expired.code);
    expect({ status: late.status, message: late.body.data.message }).toEqual({ status: 400, message: 'Reward code expired' });

    const fresh = await insertCode(offer, owner.id);
    const wrong = fresh.code.startsWith('A') ? `B${fresh.code.slice(1)}` : `A${fresh.code.slice(1)}`;
    const mismatch = await use(fresh.id, wrong);
    expect({ status: mismatch.status, message: mismatch.body.data.message, fields: errorFields(mismatch.body) }).toEqual({
      status: 400,
      message: 'Invalid code',
      fields: ['code'],
    });
    const othersCode = await use(fresh.id, code.code);
    expect(othersCode.status).toBe(400);

    expect(await counts(offer)).toEqual({ reward_used: before.reward_used + 1, catalog_used: before.catalog_used + 1 });
    const { rows } = await platform.sql.query('select id, used_at from reward.reward_code where id = any($1)', [[expired.id, fresh.id]]);
    expect(rows.map((row) => row.used_at)).toEqual([null, null]);
    expect(await eventsOf('reward.redeemed', fresh.id)).toEqual([]);
  });

  it('is 400 on a missing, empty or too long code, 404 for an unknown id', async () => {
    const code = await insertCode(offer, owner.id);
    for (const body of [undefined, '', '1234567', 42]) {
      const response = await use(code.id, body);
      expect({ body, status: response.status, fields: errorFields(response.body) }).toEqual({ body, status: 400, fields: ['code'] });
    }
    expect((await use(randomUUID(), code.code)).status).toBe(404);
    expect((await use('nope', code.code)).status).toBe(404);
  });

  it('is for staff with reward:manage: 401 without a token, 403 for tenant staff, members (even the owner) and service keys', async () => {
    const code = await insertCode(offer, owner.id);
    expect((await platform.api('POST', `${BASE}/${code.id}/use`, { body: { code: code.code } })).status).toBe(401);
    expect((await use(code.id, code.code, tenant.token)).status).toBe(403);
    expect((await use(code.id, code.code, owner.token)).status).toBe(403);
    const key = await platform.api('POST', '/auth/api/services/generate-api-key', {
      token: admin.token,
      // A key that may write holds reward:manage; still it is no staff member.
      body: { name: unique('pos'), roleId: await platform.roleId('marketing'), scopes: ['read', 'write'] },
    });
    const service = await platform.api('POST', '/auth/api/services/get-access-token', { body: { apiKey: key.body.data.apiKey } });
    const byService = await use(code.id, code.code, service.body.data.accessToken);
    expect({ status: byService.status, message: byService.body.data.message }).toEqual({ status: 403, message: 'Only a staff member marks a reward code used' });
    expect((await platform.sql.query('select used_at from reward.reward_code where id = $1', [code.id])).rows[0].used_at).toBeNull();
  });

  it('of 20 concurrent uses of one code exactly one succeeds; the count and the event happen once', async () => {
    const racing = await createOffer();
    const code = await insertCode(racing, owner.id);
    const answers = await Promise.all(Array.from({ length: 20 }, () => use(code.id, code.code)));
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1);
    expect(answers.filter((answer) => answer.status === 400 && answer.body.data.message === 'Reward code already used')).toHaveLength(19);
    expect(await counts(racing)).toEqual({ reward_used: 1, catalog_used: 1 });
    expect(await eventsOf('reward.redeemed', code.id)).toHaveLength(1);
  });
});

describe('POST /reward-codes/check', () => {
  let offer: Offer;
  beforeAll(async () => {
    offer = await createOffer();
  });

  it('answers valid with the code and its reward for an available code, whatever the case', async () => {
    const code = await insertCode(offer, owner.id);
    const response = await check(code.code.toLowerCase());
    expect(response.status).toBe(200);
    const { rows } = await platform.sql.query('select expired_at from reward.reward_code where id = $1', [code.id]);
    expect(response.body).toEqual({
      statusCode: 200,
      message: 'Reward code is valid',
      data: {
        valid: true,
        rewardCode: { id: code.id, code: code.code, rewardId: offer.rewardId, expiredAt: rows[0].expired_at.toISOString() },
        reward: { id: offer.rewardId, name_en: offer.name_en, type: 'POINT' },
      },
    });
  });

  it('answers not valid, saying why, for a used or an expired code; the unused code wins over used ones with the same characters', async () => {
    const used = await insertCode(offer, owner.id);
    expect((await use(used.id, used.code)).status).toBe(200);
    const usedCheck = await check(used.code);
    expect(usedCheck.body).toMatchObject({ statusCode: 200, message: 'Reward code already used', data: { valid: false, rewardCode: { id: used.id } } });

    const expired = await insertCode(offer, owner.id);
    await expire(expired.id);
    expect((await check(expired.code)).body).toMatchObject({ message: 'Reward code expired', data: { valid: false, rewardCode: { id: expired.id } } });

    const reissued = randomUUID();
    await platform.sql.query(
      `insert into reward.reward_code (id, code, reward_id, reward_catalog_id, member_id, expired_at, created_at, updated_at)
       values ($1, $2, $3, $4, $5, now() + interval '30 days', now() - interval '1 day', now())`,
      [reissued, used.code, offer.rewardId, offer.catalogId, stranger.id],
    );
    expect((await check(used.code)).body).toMatchObject({ message: 'Reward code is valid', data: { valid: true, rewardCode: { id: reissued } } });
  });

  it("is 400 'Invalid code' when the characters name no code, and on a missing or too long code", async () => {
    let unknown = randomCode();
    while ((await platform.sql.query('select 1 from reward.reward_code where code = $1', [unknown])).rows.length > 0) unknown = randomCode();
    const response = await check(unknown);
    expect({ status: response.status, message: response.body.data.message, fields: errorFields(response.body) }).toEqual({ status: 400, message: 'Invalid code', fields: ['code'] });
    for (const body of [undefined, '', 'ABCDEFG']) {
      const refused = await check(body);
      expect({ body, status: refused.status, fields: errorFields(refused.body) }).toEqual({ body, status: 400, fields: ['code'] });
    }
  });

  it('is for reward:manage: 401 without a token, 403 for tenant staff and members', async () => {
    const code = await insertCode(offer, owner.id);
    expect((await platform.api('POST', `${BASE}/check`, { body: { code: code.code } })).status).toBe(401);
    expect((await check(code.code, tenant.token)).status).toBe(403);
    expect((await check(code.code, owner.token)).status).toBe(403);
  });
});

describe('reward codes through GraphQL', () => {
  let offer: Offer;
  let code: InsertedCode;
  beforeAll(async () => {
    offer = await createOffer();
    code = await insertCode(offer, owner.id);
  });

  it('lists, checks and uses codes, resolving the member through the auth subgraph', async () => {
    const listed = await platform.graphql(
      `query ($rewardId: ID) { rewardCodes(rewardId: $rewardId, status: AVAILABLE) { meta { total } data { id status member { id status } reward(locale: th) { name_th } } } }`,
      { rewardId: offer.rewardId },
      marketing.token,
    );
    expect(listed.body.errors).toBeUndefined();
    expect(listed.body.data.rewardCodes).toEqual({ meta: { total: 1 }, data: [{ id: code.id, status: 'AVAILABLE', member: { id: owner.id, status: expect.any(String) }, reward: { name_th: 'รางวัล' } }] });

    const checked = await platform.graphql(`query ($code: String!) { checkRewardCode(code: $code) { valid message rewardCode { id } } }`, { code: code.code }, marketing.token);
    expect(checked.body.data.checkRewardCode).toEqual({ valid: true, message: 'Reward code is valid', rewardCode: { id: code.id } });

    const used = await platform.graphql(`mutation ($id: ID!, $code: String!) { useRewardCode(id: $id, code: $code) { id status staffId } }`, { id: code.id, code: code.code }, admin.token);
    expect(used.body.data.useRewardCode).toEqual({ id: code.id, status: 'USED', staffId: admin.id });
    const again = await platform.graphql(`mutation ($id: ID!, $code: String!) { useRewardCode(id: $id, code: $code) { id } }`, { id: code.id, code: code.code }, admin.token);
    expect(again.body.errors[0]).toMatchObject({ message: 'Reward code already used', extensions: { code: 'BAD_REQUEST' } });
  });

  it('gives a member its own codes and one code by id; another member is refused', async () => {
    const mine = await platform.graphql(`query { myRewardCodes(limit: 100) { data { id } } }`, {}, owner.token);
    expect(mine.body.data.myRewardCodes.data.map((item: { id: string }) => item.id)).toContain(code.id);
    const one = await platform.graphql(`query ($id: ID!) { rewardCode(id: $id) { id memberId } }`, { id: code.id }, owner.token);
    expect(one.body.data.rewardCode).toEqual({ id: code.id, memberId: owner.id });
    const theirs = await platform.graphql(`query ($id: ID!) { rewardCode(id: $id) { id } }`, { id: code.id }, stranger.token);
    expect(theirs.body.errors[0].extensions.code).toBe('NOT_FOUND');
    const staffList = await platform.graphql(`query { rewardCodes { meta { total } } }`, {}, owner.token);
    expect(staffList.body.errors[0].extensions.code).toBe('FORBIDDEN');
  });
});

describe('Member.rewardCodes (contributed by the reward subgraph)', () => {
  let offer: Offer;
  let member: TestMember;
  let available: InsertedCode;
  let expired: InsertedCode;
  beforeAll(async () => {
    offer = await createOffer();
    member = await platform.loginMember();
    expired = await insertCode(offer, member.id, { createdAt: inDays(-2) });
    available = await insertCode(offer, member.id, { createdAt: inDays(-1) });
    await expire(expired.id);
  });
  const CODES = 'rewardCodes(status: $status, page: $page, limit: $limit) { meta { page limit total totalPages } data { id status } }';

  it('answers staff with reward:manage through the gateway, filtered by status and paged', async () => {
    const query = `query ($id: ID!, $status: RewardCodeStatus, $page: Int, $limit: Int) { member(id: $id) { id ${CODES} } }`;
    const all = await platform.graphql(query, { id: member.id, limit: 1 }, marketing.token);
    expect(all.body.errors).toBeUndefined();
    expect(all.body.data.member).toEqual({
      id: member.id,
      rewardCodes: { meta: { page: 1, limit: 1, total: 2, totalPages: 2 }, data: [{ id: available.id, status: 'AVAILABLE' }] },
    });
    const onlyExpired = await platform.graphql(query, { id: member.id, status: 'EXPIRED' }, marketing.token);
    expect(onlyExpired.body.data.member.rewardCodes.data).toEqual([{ id: expired.id, status: 'EXPIRED' }]);
  });

  it('answers the member itself and staff with reward:read (tenants), and refuses staff without it', async () => {
    const own = await platform.graphql(`query ($status: RewardCodeStatus, $page: Int, $limit: Int) { currentMember { id ${CODES} } }`, { status: 'AVAILABLE' }, member.token);
    expect(own.body.errors).toBeUndefined();
    expect(own.body.data.currentMember.rewardCodes.data).toEqual([{ id: available.id, status: 'AVAILABLE' }]);
    const query = `query ($id: ID!, $status: RewardCodeStatus, $page: Int, $limit: Int) { member(id: $id) { id ${CODES} } }`;
    const byTenant = await platform.graphql(query, { id: member.id }, tenant.token);
    expect(byTenant.body.errors).toBeUndefined();
    expect(byTenant.body.data.member.rewardCodes.meta.total).toBe(2);
    // A role without reward:read or reward:manage (the seeded customer role, given to a staff account here).
    const unprivileged = await platform.createStaff('customer');
    const refused = await platform.graphql(query, { id: member.id }, unprivileged.token);
    expect(refused.body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    expect(refused.body.data?.member ?? null).toBeNull();
  });
});

describe('the expiration notice job', () => {
  it('announces unused codes expiring within the horizon once each, through the job queue', async () => {
    const offer = await createOffer();
    const member = await platform.loginMember();
    // Every platform of the run (other test files' too) works this queue with its own horizon (3 days
    // by default, 5 here): `soon` is inside all of them and `later` outside all, whichever runs the job.
    const soon = await insertCode(offer, member.id, { expiredAt: inDays(2) });
    const later = await insertCode(offer, member.id, { expiredAt: inDays(6) });
    const usedSoon = await insertCode(offer, member.id, { expiredAt: inDays(1), usedBy: marketing.id });
    const gone = await insertCode(offer, member.id, { expiredAt: inDays(-1) });

    await sendAndWait(boss, CODE_EXPIRY_NOTICE_QUEUE, {});
    await sendAndWait(boss, CODE_EXPIRY_NOTICE_QUEUE, {});
    const { rows } = await platform.sql.query(
      'select id, expiration_notified_at, expired_at from reward.reward_code where member_id = $1',
      [member.id],
    );
    const notified = Object.fromEntries(rows.map((row) => [row.id, row.expiration_notified_at]));
    expect(notified[soon.id]).toBeInstanceOf(Date);
    expect([notified[later.id], notified[usedSoon.id], notified[gone.id]]).toEqual([null, null, null]);
    const events = await eventsOf('reward.code-expiring', soon.id);
    expect(events).toEqual([
      {
        aggregate_id: member.id,
        payload: {
          memberId: member.id,
          rewardId: offer.rewardId,
          rewardCatalogId: offer.catalogId,
          rewardCodeId: soon.id,
          expiredAt: rows.find((row) => row.id === soon.id).expired_at.toISOString(),
          notifiedAt: notified[soon.id].toISOString(),
        },
      },
    ]);
    for (const code of [later, usedSoon, gone]) expect(await eventsOf('reward.code-expiring', code.id)).toEqual([]);
    const shown = await platform.api('GET', `${BASE}/${soon.id}`, { token: member.token });
    expect(shown.body.data.expirationNotifiedAt).toBe(notified[soon.id].toISOString());
  });
});
