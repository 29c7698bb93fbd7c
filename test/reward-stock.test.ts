import { randomUUID } from 'node:crypto';
import { unique } from './support/test-platform';
import { usePlatform } from './support/use-platform';

const { platform, marketing, tenant } = usePlatform({ staff: ['marketing', 'tenant'] });

const BASE = '/reward/api/rewards';
const CONCURRENT = 120;

async function createReward(stock: number, stockType = 'LIMITED') {
  const response = await platform.api('POST', BASE, {
    token: marketing.token,
    body: { name_en: unique('Stock '), description_en: 'd', type: 'POINT', stock, stockType },
  });
  expect(response.status).toBe(200);
  return response.body.data.id as string;
}
const change = (id: string, direction: 'increase' | 'decrease', amount: unknown, token = marketing.token) =>
  platform.api('POST', `${BASE}/${id}/${direction}-stock`, { token, body: { amount } });
const storedStock = async (id: string) => (await platform.sql.query('select stock from reward.reward where id = $1', [id])).rows[0].stock as number;
const statuses = (responses: Array<{ status: number }>) => responses.reduce<Record<number, number>>((counts, { status }) => ({ ...counts, [status]: (counts[status] ?? 0) + 1 }), {});

describe('reward stock (increase-stock, decrease-stock)', () => {
  it('answers {id, stock, stockInfinite, stockType} with a message; a short stock is 400 and unchanged', async () => {
    const id = await createReward(5);
    expect((await change(id, 'increase', 7)).body).toEqual({ statusCode: 200, message: 'Stock increased', data: { id, stock: 12, stockInfinite: false, stockType: 'LIMITED' } });
    expect((await change(id, 'decrease', '12')).body).toEqual({ statusCode: 200, message: 'Stock decreased', data: { id, stock: 0, stockInfinite: false, stockType: 'LIMITED' } });
    const short = await change(id, 'decrease', 1);
    expect(short).toMatchObject({ status: 400, body: { statusCode: 400, data: { message: 'Insufficient stock', errors: [{ field: 'amount', message: 'Insufficient stock' }] } } });
    expect(await storedStock(id)).toBe(0);
  });

  it('refuses a missing, fractional or non-positive amount, an overflow, an unknown reward and callers without reward:manage', async () => {
    const id = await createReward(1);
    for (const amount of [undefined, 0, -3, 1.5, 'ten']) {
      const refused = await change(id, 'decrease', amount);
      expect({ amount, status: refused.status, field: refused.body.data.errors?.[0]?.field }).toEqual({ amount, status: 400, field: 'amount' });
    }
    expect((await change(id, 'increase', 1_000_000_000)).status).toBe(400);
    expect(await storedStock(id)).toBe(1);
    expect((await change(randomUUID(), 'increase', 1)).status).toBe(404);
    expect((await change('not-an-id', 'decrease', 1)).status).toBe(404);
    expect((await change(id, 'decrease', 1, tenant.token)).status).toBe(403);
    expect((await change(id, 'decrease', 1, '')).status).toBe(401);
    const deleted = await createReward(3);
    await platform.api('DELETE', `${BASE}/${deleted}`, { token: marketing.token });
    expect((await change(deleted, 'decrease', 1)).status).toBe(404);
    expect(await storedStock(deleted)).toBe(3);
  });

  it(`never goes below zero: ${CONCURRENT} concurrent decrements of a stock of 10 let exactly 10 through`, async () => {
    const id = await createReward(10);
    const responses = await Promise.all(Array.from({ length: CONCURRENT }, () => change(id, 'decrease', 1)));
    expect(statuses(responses)).toEqual({ 200: 10, 400: CONCURRENT - 10 });
    expect(await storedStock(id)).toBe(0);
    // Each success saw its own unit go: the stocks answered are 9..0, once each.
    const answered = responses.filter((response) => response.status === 200).map((response) => response.body.data.stock);
    expect(answered.sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it(`takes whole amounts only: ${CONCURRENT} concurrent decrements of 3 from 10 leave 1`, async () => {
    const id = await createReward(10);
    const responses = await Promise.all(Array.from({ length: CONCURRENT }, () => change(id, 'decrease', 3)));
    expect(statuses(responses)).toEqual({ 200: 3, 400: CONCURRENT - 3 });
    expect(await storedStock(id)).toBe(1);
  });

  it(`loses no increase: ${CONCURRENT} concurrent increments and decrements add up`, async () => {
    const id = await createReward(0);
    const responses = await Promise.all(Array.from({ length: CONCURRENT }, (_, index) => change(id, index % 4 === 0 ? 'decrease' : 'increase', 2)));
    const succeeded = responses.filter((response) => response.status === 200).length;
    const refused = responses.filter((response) => response.status === 400).length;
    expect(succeeded + refused).toBe(CONCURRENT);
    const increases = (CONCURRENT * 3) / 4;
    expect(await storedStock(id)).toBe(2 * increases - 2 * (CONCURRENT / 4 - refused));
  });

  it('INFINITE stock never runs out: every concurrent decrement succeeds and the stock is untouched', async () => {
    const id = await createReward(0, 'INFINITE');
    const responses = await Promise.all(Array.from({ length: CONCURRENT }, () => change(id, 'decrease', 5)));
    expect(statuses(responses)).toEqual({ 200: CONCURRENT });
    expect(responses[0].body.data).toEqual({ id, stock: 0, stockInfinite: true, stockType: 'INFINITE' });
    expect((await change(id, 'increase', 5)).body.data).toEqual({ id, stock: 0, stockInfinite: true, stockType: 'INFINITE' });
    expect(await storedStock(id)).toBe(0);
  });
});
