import { randomUUID } from 'node:crypto';
import { unique } from './support/test-platform';
import { usePlatform } from './support/use-platform';
import { waitFor } from './support/wait-for';
import { bookingClient } from './support/bookings';

// Custom events (issue 29): types an admin declares, events the retailer sends (once per sender and
// event id), the rules of `custom_event:<type>`, and the rules of other domains' events.
const TYPES = '/api/v1/events/types';
const RULES = '/api/v1/loyalty/rules';

const { platform, admin, marketing, tenant } = usePlatform({ staff: ['admin', 'marketing', 'tenant'] });

const api = (method: string, path: string, body?: unknown, token: string = admin.token) => platform.api(method, path, { token, body });
const detailFields = (body: { error: { details?: Array<{ field: string }> } }) => [...new Set((body.error.details ?? []).map((detail) => detail.field))].sort();
const balanceOf = async (customerId: string) => (await api('GET', `/api/v1/customers/${customerId}/points/balance`)).body.data.balance as number;

/** A declared type with a string, a number and a boolean attribute (`channel` required). */
async function surveyType(): Promise<string> {
  const name = unique('survey').replace(/[^a-z0-9_]/g, '_');
  const created = await api('POST', TYPES, {
    name,
    description: 'A survey answered',
    attributes: { channel: { type: 'string', required: true }, nps_score: { type: 'number' }, first_time: { type: 'boolean' } },
  });
  if (created.status !== 201) throw new Error(`type: ${JSON.stringify(created.body)}`);
  return name;
}
async function activeRule(body: Record<string, unknown>): Promise<string> {
  const created = await api('POST', RULES, { name: unique('Rule '), ...body });
  if (created.status !== 201) throw new Error(`rule: ${JSON.stringify(created.body)}`);
  expect((await api('POST', `${RULES}/${created.body.data.id}/activate`)).status).toBe(200);
  return created.body.data.id;
}
const send = (body: Record<string, unknown>, token?: string) => api('POST', '/api/v1/events', body, token);

describe('/api/v1/events/types', () => {
  it('declares a type (201) with its attributes spelled as given, reads and lists it; refuses bad declarations naming each', async () => {
    const name = await surveyType();
    const read = await api('GET', `${TYPES}/${name}`, undefined, tenant.token);
    expect(read.status).toBe(200);
    expect(read.body.data).toEqual({
      id: expect.any(String),
      name,
      description: 'A survey answered',
      attributes: { channel: { type: 'string', required: true }, nps_score: { type: 'number' }, first_time: { type: 'boolean' } },
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect((await api('GET', `${TYPES}?limit=100`)).body.data.map((type: { name: string }) => type.name)).toContain(name);
    const duplicate = await api('POST', TYPES, { name });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body.error.code).toBe('DUPLICATE');
    const bad = await api('POST', TYPES, { name: 'Bad Name', attributes: { ok: { type: 'string' }, NotSnake: { type: 'string' }, size: { type: 'date' }, flag: { type: 'boolean', required: 'yes', extra: 1 } } });
    expect(bad.status).toBe(400);
    expect(detailFields(bad.body)).toEqual(['attributes', 'attributes.flag.extra', 'attributes.flag.required', 'attributes.size.type', 'name']);
    expect(bad.body.error.details.find((detail: { field: string }) => detail.field === 'attributes').message).toContain('"NotSnake"');
    expect((await api('POST', TYPES, { name: unique('x').replace(/[^a-z0-9_]/g, '_') }, marketing.token)).status).toBe(403);
    const missing = await api('GET', `${TYPES}/${unique('nothing').replace(/[^a-z0-9_]/g, '_')}`);
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('EVENT_TYPE_NOT_FOUND');
  });

  it('refuses to delete or retype a type that a live rule tests (409), and allows it once the rule is gone', async () => {
    const name = await surveyType();
    const rule = await activeRule({ trigger: `custom_event:${name}`, conditions: { fact: 'attributes.nps_score', op: 'gte', value: 9 }, effect: { type: 'fixed', points: 5 } });
    const retyped = await api('PATCH', `${TYPES}/${name}`, { attributes: { channel: { type: 'string' }, nps_score: { type: 'string' } } });
    expect(retyped.status).toBe(409);
    expect(retyped.body.error.code).toBe('INVALID_STATE');
    const widened = await api('PATCH', `${TYPES}/${name}`, { description: 'Wider', attributes: { channel: { type: 'string' }, nps_score: { type: 'number' }, device: { type: 'string' } } });
    expect(widened.status).toBe(200);
    expect(widened.body.data.attributes.device).toEqual({ type: 'string' });
    expect((await api('DELETE', `${TYPES}/${name}`)).status).toBe(409);
    expect((await api('DELETE', `${RULES}/${rule}`)).status).toBe(204);
    expect((await api('DELETE', `${TYPES}/${name}`)).status).toBe(204);
    expect((await api('GET', `${TYPES}/${name}`)).status).toBe(404);
    const orphan = await api('POST', RULES, { name: 'x', trigger: `custom_event:${name}`, effect: { type: 'fixed', points: 1 } });
    expect(detailFields(orphan.body)).toEqual(['trigger']);
  });
});

describe('POST /api/v1/events', () => {
  it('records an event (201) with the points of the rules of its type, tested on its attributes', async () => {
    const name = await surveyType();
    const promoter = await activeRule({
      trigger: `custom_event:${name}`,
      conditions: { all: [{ fact: 'attributes.nps_score', op: 'gte', value: 9 }, { fact: 'attributes.channel', op: 'in', value: ['app', 'web'] }] },
      effect: { type: 'fixed', points: 30 },
    });
    const anyAnswer = await activeRule({ trigger: `custom_event:${name}`, effect: { type: 'fixed', points: 10 }, limits: { member: [{ period: 'day', count: 1 }] } });
    const customer = await platform.loginMember();
    const eventId = unique('evt');
    const sent = await send({ type: name, customer_id: customer.id, event_id: eventId, attributes: { channel: 'app', nps_score: 9.5, first_time: true } });
    expect(sent.status).toBe(201);
    expect(sent.body.data).toEqual({
      id: expect.any(String),
      type: name,
      customer_id: customer.id,
      event_id: eventId,
      occurred_at: expect.any(String),
      attributes: { channel: 'app', nps_score: 9.5, first_time: true },
      points_earned: 40,
      rules: [
        { rule_id: promoter, version: 1, points: 30 },
        { rule_id: anyAnswer, version: 1, points: 10 },
      ],
      created_at: expect.any(String),
    });
    expect(await balanceOf(customer.id)).toBe(40);
    const detractor = await send({ type: name, customer_id: customer.id, event_id: unique('evt'), attributes: { channel: 'app', nps_score: 3 } });
    expect(detractor.body.data).toMatchObject({ points_earned: 0, rules: [] });
    const history = await api('GET', `/api/v1/customers/${customer.id}/events`, undefined, customer.token);
    expect(history.status).toBe(200);
    expect(history.body.data.map((event: { event_id: string }) => event.event_id)).toEqual([detractor.body.data.event_id, eventId]);
    expect((await api('GET', `/api/v1/customers/${customer.id}/events?type=${name}&limit=1`)).body.pagination.total).toBe(2);
    const other = await platform.loginMember();
    expect((await api('GET', `/api/v1/customers/${customer.id}/events`, undefined, other.token)).status).toBe(403);
  });

  it('is exactly once per sender and event id, also under concurrent duplicates; another type or customer under the id is 409', async () => {
    const name = await surveyType();
    await activeRule({ trigger: `custom_event:${name}`, effect: { type: 'fixed', points: 7 } });
    const customer = await platform.loginMember();
    const eventId = unique('evt');
    const body = { type: name, customer_id: customer.id, event_id: eventId, attributes: { channel: 'web' } };
    const answers = await Promise.all(Array.from({ length: 8 }, () => send(body)));
    expect(answers.map((answer) => answer.status)).toEqual(Array(8).fill(201));
    expect(new Set(answers.map((answer) => answer.body.data.id)).size).toBe(1);
    expect(answers.every((answer) => answer.body.data.points_earned === 7)).toBe(true);
    expect(await balanceOf(customer.id)).toBe(7);
    const other = await platform.loginMember();
    const reused = await send({ ...body, customer_id: other.id });
    expect(reused.status).toBe(409);
    expect(reused.body.error.code).toBe('DUPLICATE');
    expect(detailFields(reused.body)).toEqual(['event_id']);
    // Another sender's id space is its own.
    expect((await send(body, marketing.token)).body.data.id).not.toBe(answers[0].body.data.id);
    expect(await balanceOf(customer.id)).toBe(14);
  });

  it('refuses an unknown type, undeclared or mistyped attributes, a missing required one, a future time, an unknown customer; changes nothing', async () => {
    const name = await surveyType();
    const customer = await platform.loginMember();
    const count = async () => (await platform.sql.query('select count(*)::int as n from point.custom_event where member_id = $1', [customer.id])).rows[0].n;
    const unknownType = await send({ type: 'no_such_type', customer_id: customer.id, event_id: unique('e') });
    expect(detailFields(unknownType.body)).toEqual(['type']);
    const wrong = await send({ type: name, customer_id: customer.id, event_id: unique('e'), attributes: { nps_score: 'ten', first_time: 1, shoe: 'x', __proto__: { channel: 'app' } } });
    expect(wrong.status).toBe(400);
    expect(detailFields(wrong.body)).toEqual(['attributes.channel', 'attributes.first_time', 'attributes.nps_score', 'attributes.shoe']);
    const future = await send({ type: name, customer_id: customer.id, event_id: unique('e'), occurred_at: '2999-01-01T00:00:00Z', attributes: { channel: 'x' } });
    expect(detailFields(future.body)).toEqual(['occurred_at']);
    const nul = await send({ type: name, customer_id: customer.id, event_id: 'a\u0000b', attributes: { channel: 'x\ud800' } });
    expect(nul.status).toBe(400);
    const nobody = await send({ type: name, customer_id: randomUUID(), event_id: unique('e'), attributes: { channel: 'x' } });
    expect(nobody.status).toBe(404);
    expect(nobody.body.error.code).toBe('CUSTOMER_NOT_FOUND');
    expect((await send({ type: name, customer_id: customer.id, event_id: unique('e'), attributes: { channel: 'x' } }, tenant.token)).status).toBe(403);
    expect((await send({ type: name, customer_id: customer.id, event_id: unique('e'), attributes: { channel: 'x' } }, customer.token)).status).toBe(403);
    expect(await count()).toBe(0);
  });

  it('simulates an event as it then records it', async () => {
    const name = await surveyType();
    await activeRule({ trigger: `custom_event:${name}`, conditions: { fact: 'attributes.first_time', op: 'eq', value: true }, effect: { type: 'fixed', points: 50 }, limits: { member: [{ period: 'lifetime', count: 1 }] } });
    const customer = await platform.loginMember();
    for (let round = 0; round < 2; round++) {
      const predicted = await api('POST', `${RULES}/simulate`, { trigger: `custom_event:${name}`, customer_id: customer.id, attributes: { channel: 'app', first_time: true } });
      expect(predicted.status).toBe(200);
      const sent = await send({ type: name, customer_id: customer.id, event_id: unique('e'), attributes: { channel: 'app', first_time: true } });
      expect(sent.body.data.points_earned).toBe(predicted.body.data.points);
      expect(sent.body.data.points_earned).toBe(round === 0 ? 50 : 0);
    }
    const unknown = await api('POST', `${RULES}/simulate`, { trigger: 'custom_event:nothing_declared', customer_id: customer.id });
    expect(detailFields(unknown.body)).toEqual(['trigger']);
    const noAmount = await api('POST', `${RULES}/simulate`, { trigger: 'purchase', customer_id: customer.id });
    expect(detailFields(noAmount.body)).toEqual(['amount']);
  });
});

describe('rules of other domains’ events', () => {
  it('earns on a customer’s creation, once', async () => {
    const welcome = await activeRule({ trigger: 'customer.created', effect: { type: 'fixed', points: 20 } });
    const created = await api('POST', '/api/v1/customers', { name: unique('Welcome ') });
    expect(created.status).toBe(200);
    const customerId = created.body.data.id;
    await waitFor(async () => (await balanceOf(customerId)) === 20, 'the welcome points');
    const { rows } = await platform.sql.query('select rule_id::text, source_type from point.rule_application where member_id = $1', [customerId]);
    expect(rows).toEqual([{ rule_id: welcome, source_type: 'customer' }]);
    // Deactivated, the rule gives a later customer nothing.
    await api('POST', `${RULES}/${welcome}/deactivate`);
    const later = (await api('POST', '/api/v1/customers', { name: unique('Later ') })).body.data.id;
    await waitFor(async () => (await platform.sql.query('select 1 from point.rule_source where source_id = $1', [later])).rowCount === 1, 'the later creation evaluated');
    expect(await balanceOf(later)).toBe(0);
    await api('DELETE', `${RULES}/${welcome}`);
  });

  it('earns on a booking’s check-in by its rules (at most once a day), once per booking', async () => {
    const customer = await platform.loginMember();
    const { bookSoon } = bookingClient(platform, admin, customer);
    const visit = await activeRule({ trigger: 'booking.checked_in', conditions: { fact: 'weekday', op: 'in', value: [1, 2, 3, 4, 5, 6, 7] }, effect: { type: 'fixed', points: 10 }, limits: { member: [{ period: 'day', count: 1 }] } });
    const checkIn = async () => {
      const booking = await bookSoon();
      expect((await api('POST', `/api/v1/bookings/${booking.id}/checkin`, { check_in_code: booking.check_in_code })).status).toBe(200);
      await waitFor(async () => (await platform.sql.query('select 1 from point.rule_source where source_id = $1', [booking.id])).rowCount === 1, 'the check-in evaluated');
      return booking.id;
    };
    const first = await checkIn();
    const second = await checkIn();
    const { rows } = await platform.sql.query('select rule_id::text, source_id from point.rule_application where member_id = $1', [customer.id]);
    expect(rows).toEqual([{ rule_id: visit, source_id: first }]);
    expect(second).not.toBe(first);
    expect(await balanceOf(customer.id)).toBe(10);
  });
});
