import { randomUUID } from 'node:crypto';
import { unique } from './support/test-platform';
import { usePlatform } from './support/use-platform';

/**
 * Lists whose total is kept (not counted) and whose far pages are read from the far end in reverse:
 * every page answers the rows OFFSET would, ties included, and the total is the count of the rows.
 * A database of its own, so that the lists hold only what this file writes.
 */
const { platform, admin } = usePlatform({ staff: ['admin'] });

const LIMIT = 4;
const members = Array.from({ length: 23 }, () => randomUUID());
const [heavy, light] = members;
const tiers = [randomUUID(), randomUUID()];
const marker = unique('far');

beforeAll(async () => {
  // Members created in pairs at the same instant (ties broken by id); two soft-deleted; some found by the search.
  await platform.sql.query(
    `insert into auth.member (id, name, status, created_at, updated_at, deleted_at)
     select id, case when ordinality % 3 <> 0 then $2 || ' ' || ordinality else 'Member ' || ordinality end, 'ACTIVE',
            now() - (ordinality / 2) * interval '1 minute', now(), case when ordinality in (5, 12) then now() end
       from unnest($1::uuid[]) with ordinality as id`,
    [members, marker],
  );
  const move = (path: string, memberId: string, amount: number) =>
    platform.api('POST', `/point/api/${path}`, { token: admin.token, body: { memberId, amount, sourceBy: path === 'earn' ? 'Campaign' : 'Reward' } });
  for (let i = 0; i < 13; i++) await move(i % 3 === 2 ? 'spend' : 'earn', heavy, 10);
  for (let i = 0; i < 4; i++) await move('earn', light, 5);
  // Entries in pairs at the same instant, so that the order falls back on the id.
  await platform.sql.query(`update point.point_transaction set created_at = date_trunc('minute', now()) - (extract(second from created_at)::int / 2) * interval '1 second'`);
  await platform.sql.query(
    `insert into cluster.tier (id, name_en, description_en, level, requirement, is_active, is_special, created_at, updated_at)
     select id, 'Tier ' || ordinality, 'fixture', ordinality, '{}', true, false, now(), now() from unnest($1::uuid[]) with ordinality as id`,
    [tiers],
  );
  await platform.sql.query(
    `insert into cluster.tier_projection (id, member_id, tier_id, created_at, updated_at)
     select gen_random_uuid(), id, ($2::uuid[])[1 + ordinality % 2], now() - (ordinality / 3) * interval '1 minute', now()
       from unnest($1::uuid[]) with ordinality as id`,
    [members, tiers],
  );
});

/** Every page of a REST list (one past the end included) beside the same page read with OFFSET. */
async function expectPagesLikeOffset(path: string, body: (response: any) => any, offsetSql: string, countSql: string, params: unknown[] = []) {
  const total = Number((await platform.sql.query(countSql, params)).rows[0].count);
  expect(total).toBeGreaterThan(2 * LIMIT);
  const separator = path.includes('?') ? '&' : '?';
  for (let page = 1; page <= Math.ceil(total / LIMIT) + 1; page++) {
    const response = await platform.api('GET', `${path}${separator}page=${page}&limit=${LIMIT}`, { token: admin.token });
    expect(response.status).toBe(200);
    const { meta, data } = body(response.body);
    expect(meta).toEqual({ page, limit: LIMIT, total, totalPages: Math.ceil(total / LIMIT) });
    const expected = await platform.sql.query(`${offsetSql} limit ${LIMIT} offset ${(page - 1) * LIMIT}`, params);
    expect(data.map((row: { id: string }) => row.id)).toEqual(expected.rows.map((row) => row.id));
  }
}

describe('far pages answer what OFFSET would, with the kept total', () => {
  it('GET /auth/api/members, and with a search', async () => {
    const live = 'from auth.member where deleted_at is null';
    await expectPagesLikeOffset('/auth/api/members', (body) => body.data.data, `select id ${live} order by created_at desc, id asc`, `select count(*) ${live}`);
    const found = `${live} and name ilike $1`;
    await expectPagesLikeOffset(`/auth/api/members?search=${marker}`, (body) => body.data.data, `select id ${found} order by created_at desc, id asc`, `select count(*) ${found}`, [`%${marker}%`]);
  });

  it('GET /point/api/history for a member, for several, for all, and filtered', async () => {
    const history = (where: string) => [`select id from point.point_transaction ${where} order by created_at desc, id desc`, `select count(*) from point.point_transaction ${where}`] as const;
    await expectPagesLikeOffset(`/point/api/history?memberIds=${heavy}`, (body) => body.data, ...history(`where member_id = '${heavy}'`));
    await expectPagesLikeOffset(`/point/api/history?memberIds=${heavy},${light},${heavy}`, (body) => body.data, ...history(`where member_id in ('${heavy}', '${light}')`));
    await expectPagesLikeOffset('/point/api/history', (body) => body.data, ...history(''));
    await expectPagesLikeOffset(`/point/api/history?memberIds=${heavy}&actionType=EARN`, (body) => body.data, ...history(`where member_id = '${heavy}' and action_type = 'EARN'`));
  });

  it('GET /cluster/api/tier-projections, over all tiers and within one', async () => {
    const projections = (where: string) =>
      [`select id from cluster.tier_projection ${where} order by created_at desc, id asc`, `select count(*) from cluster.tier_projection ${where}`] as const;
    await expectPagesLikeOffset('/cluster/api/tier-projections', (body) => body.data, ...projections(''));
    await expectPagesLikeOffset(`/cluster/api/tier-projections?tierId=${tiers[0]}`, (body) => body.data, ...projections(`where tier_id = '${tiers[0]}'`));
  });
});
