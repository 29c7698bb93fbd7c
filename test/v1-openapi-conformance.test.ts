import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { dayFromNow, OPEN_ALL_DAY, slotSoon } from './support/bookings';
import { ApiResponse, unique } from './support/test-platform';
import { usePlatform } from './support/use-platform';

/**
 * What the v1 OpenAPI description claims of requests, checked against the running platform, generated
 * from the description itself: a client generated from it refuses what the server refuses. Each request
 * field is sent missing, null, and breaking each of its bounds, enums, formats, patterns and lengths, in
 * an otherwise valid body (so no earlier check hides the one probed); and every answer of every probe,
 * success or error, must be a status (and `error.code`) the description lists for that route.
 */

type Schema = Record<string, any>;
type Operation = { parameters: Array<{ name: string; in: string; schema: Schema }>; requestBody?: { content: { 'application/json': { schema: Schema } } }; responses: Record<string, any> };
type Segment = string | number;

const document = JSON.parse(readFileSync(join(__dirname, '..', 'schema', 'openapi-v1.json'), 'utf8'));
const operations: Array<[string, string, Operation]> = Object.entries<Record<string, Operation>>(document.paths).flatMap(([path, methods]) =>
  Object.entries(methods).map(([method, operation]) => [method, path, operation] as [string, string, Operation]),
);
const withBody = operations.filter(([, , operation]) => operation.requestBody);

const { platform, admin } = usePlatform({ staff: ['admin'], env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } });

const call = (method: string, path: string, body?: unknown) => platform.api(method.toUpperCase(), path, { token: admin.token, body });
async function created(method: string, path: string, body: unknown): Promise<string> {
  const response = await call(method, path, body);
  if (response.status >= 300) throw new Error(`fixture ${path}: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body.data.id;
}

/** A fresh record for a path parameter, after the collection it follows (`/bookings/{id}`): each probe gets its own, whatever the one before did to its. */
const FIXTURES: Record<string, () => Promise<string>> = {
  customers: () => created('post', '/api/v1/customers', { name: unique('Customer ') }),
  transactions: async () => created('post', '/api/v1/transactions', { customer_id: await FIXTURES.customers(), amount: 100 }),
  webhooks: () => created('post', '/api/v1/webhooks', { url: 'http://127.0.0.1:9/hook', events: ['customer.deleted'] }),
  venues: () => created('post', '/api/v1/venues', { name: unique('Venue '), type: 'restaurant', capacity: 10, ...OPEN_ALL_DAY }),
  bookings: async () =>
    created('post', '/api/v1/bookings', { customer_id: await FIXTURES.customers(), venue_id: await FIXTURES.venues(), type: 'table', ...slotSoon(), duration: 5, guests: 2 }),
  rules: () => created('post', '/api/v1/loyalty/rules', { name: unique('Rule '), trigger: 'purchase', effect: { type: 'fixed', points: 1 } }),
  campaigns: () => created('post', '/api/v1/campaigns', { name: unique('Campaign '), type: 'promotion', start_date: dayFromNow(0), end_date: dayFromNow(30) }),
};

async function concretePath(path: string): Promise<string> {
  const segments = path.split('/');
  for (const [index, segment] of segments.entries()) {
    if (segment.startsWith('{')) segments[index] = FIXTURES[segments[index - 1]] ? await FIXTURES[segments[index - 1]]() : randomUUID();
  }
  return segments.join('/');
}

const BAD_FORMAT: Record<string, string> = { date: 'not-a-date', 'date-time': 'not-a-time', email: 'not-an-email', uri: 'not a uri', uuid: 'not-a-uuid' };
const isNullable = (schema: Schema): boolean => (schema.anyOf ?? []).some((branch: Schema) => branch.type === 'null');
/** The schema of a value that is not null. */
const valueSchema = (schema: Schema): Schema => (isNullable(schema) ? schema.anyOf.find((branch: Schema) => branch.type !== 'null') : schema);
/** The string formats a schema names (`anyOf` formats: one of them). */
const formatsOf = (schema: Schema): string[] => [schema.format, ...(schema.anyOf ?? []).map((branch: Schema) => branch.format)].filter((format) => format in BAD_FORMAT);

/** Strings to fill a field with (the first that fits): unique, as names must often be. */
const strings = () => [unique('x'), 'x', '10:00', '12345', '+66812345678'];
const FORMATTED: Record<string, () => string> = {
  date: () => dayFromNow(3),
  'date-time': () => `${dayFromNow(3)}T10:00:00Z`,
  email: () => `${unique('someone')}@example.com`,
  uri: () => 'https://example.com/page',
  uuid: () => randomUUID(),
};

/** The fields of an object schema a valid value holds: its required ones, and those of one of its required groups (`anyOf`). */
const fieldsToFill = (value: Schema, alternative = 0): string[] => [...(value.required ?? []), ...(value.anyOf?.[alternative]?.required ?? [])];

/** A value the schema accepts (an object with the fields of `alternative` of its groups); ids of fields naming a customer or a venue are real ones. */
async function validValue(schema: Schema, name?: string, alternative = 0): Promise<unknown> {
  if (name === 'customer_id') return FIXTURES.customers();
  if (name === 'venue_id') return FIXTURES.venues();
  if (name === 'customer_ids') return [await FIXTURES.customers()];
  const value = valueSchema(schema);
  if (value.enum) return value.enum[0];
  if (value.anyOf && !value.type) return validValue(value.anyOf[0], name);
  if (value.type === 'object') {
    return Object.fromEntries(await Promise.all(fieldsToFill(value, alternative).map(async (key: string) => [key, await validValue(value.properties[key], key)])));
  }
  if (value.type === 'array') return Promise.all(Array.from({ length: Math.max(value.minItems ?? 1, 1) }, () => validValue(value.items)));
  if (value.type === 'integer' || value.type === 'number') return Math.max(value.minimum ?? 1, value.exclusiveMinimum !== undefined ? value.exclusiveMinimum + 1 : 1);
  if (value.type === 'boolean') return true;
  const format = formatsOf(value)[0];
  if (format) return FORMATTED[format]();
  const fits = (text: string) => text.length >= (value.minLength ?? 0) && text.length <= (value.maxLength ?? Infinity) && (!value.pattern || new RegExp(value.pattern, 'u').test(text));
  const text = strings().find(fits);
  if (text === undefined) throw new Error(`no valid string for ${JSON.stringify(value)}`);
  return text;
}

/** Values that break one keyword each of what the schema says of a value (its type aside). */
function violations(schema: Schema): Array<[string, unknown]> {
  const value = valueSchema(schema);
  const found: Array<[string, unknown]> = [];
  if (value.enum && typeof value.enum[0] === 'string') found.push(['enum', 'not-one-of-them']);
  if (typeof value.maxLength === 'number') found.push(['maxLength', 'x'.repeat(value.maxLength + 1)]);
  if (value.minLength > 0) found.push(['minLength', 'x'.repeat(value.minLength - 1)]);
  if (value.pattern) found.push(['pattern', ['', '!', 'x', '0', 'x y z'].find((text) => !new RegExp(value.pattern, 'u').test(text))]);
  const format = formatsOf(value)[0];
  if (format) found.push(['format', BAD_FORMAT[format]]);
  if (typeof value.maximum === 'number') found.push(['maximum', value.maximum + 1]);
  if (typeof value.minimum === 'number') found.push(['minimum', value.minimum - 1]);
  if (typeof value.exclusiveMinimum === 'number') found.push(['exclusiveMinimum', value.exclusiveMinimum]);
  if (value.minItems > 0) found.push(['minItems', []]);
  if (typeof value.maxItems === 'number') found.push(['maxItems', Array.from({ length: value.maxItems + 1 }, () => randomUUID())]);
  return found;
}

/** Every property of a body schema, at any depth (an array's first item), with the schema of the object holding it. */
function propertiesOf(schema: Schema, path: Segment[] = []): Array<{ path: Segment[]; schema: Schema; parent: Schema }> {
  const value = valueSchema(schema);
  if (value.type === 'array') return propertiesOf(value.items, [...path, 0]);
  if (value.type !== 'object') return [];
  return Object.entries<Schema>(value.properties ?? {}).flatMap(([key, property]) => [{ path: [...path, key], schema: property, parent: value }, ...propertiesOf(property, [...path, key])]);
}

/** A field as a v1 error names it: `address.postal_code`, `awards[0].points`. */
const fieldName = (path: Segment[]) => path.map((segment, index) => (typeof segment === 'number' ? `[${segment}]` : `${index > 0 ? '.' : ''}${segment}`)).join('');

/** The body with `value` at `path` (undefined: left out), its missing parents made valid first. */
async function bodyWith(body: Record<string, unknown>, schema: Schema, path: Segment[], value: unknown): Promise<Record<string, unknown>> {
  const copy = structuredClone(body);
  let holder: any = copy;
  let holderSchema = valueSchema(schema);
  for (const segment of path.slice(0, -1)) {
    const inner = holderSchema.type === 'array' ? valueSchema(holderSchema.items) : valueSchema(holderSchema.properties[segment]);
    if (holder[segment] === undefined || holder[segment] === null) holder[segment] = await validValue(inner, String(segment));
    holder = holder[segment];
    holderSchema = inner;
  }
  const last = path[path.length - 1];
  if (value === undefined) delete holder[last];
  else holder[last] = value;
  return copy;
}

const namedFields = (response: ApiResponse) => (response.status === 400 ? (response.body.error.details ?? []).map((detail: { field: string }) => detail.field) : []);

/** The answer must be one the description lists for the route: its status, and its `error.code` (or OAuth `error`) among those of that status. */
function expectDocumented(operation: Operation, route: string, response: ApiResponse): void {
  const listed = operation.responses[String(response.status)];
  const documented = listed?.$ref ? document.components.responses[listed.$ref.split('/').pop()] : listed;
  expect({ route, status: response.status, documented: documented !== undefined }).toEqual({ route, status: response.status, documented: true });
  const error = response.body?.error;
  if (response.status < 400 || error === undefined) return;
  const schema = documented.content['application/json'].schema;
  const allowed = (schema.oneOf ?? [schema]).flatMap((branch: Schema) => {
    const narrowing = branch.allOf[1].properties.error;
    return narrowing.properties ? narrowing.properties.code.enum : [narrowing.const];
  });
  const answered = typeof error === 'string' ? error : error.code;
  expect({ route, status: response.status, answered, allowed: allowed.includes(answered) }).toEqual({ route, status: response.status, answered, allowed: true });
}

interface Probe {
  what: string;
  body: Record<string, unknown>;
  /** The fields the probe concerns: a 400 must name one of them exactly when `refused`. */
  fields: string[];
  refused: boolean;
}

/**
 * Each claim the body schema makes, as a request and whether the server must refuse it on the field.
 * A field of a required group (`anyOf`: one of its alternatives must be given, not null) is probed in a
 * body of its alternative (null refused there), and null in a body of another alternative (refused unless
 * nullable); the group itself by a body of each alternative (accepted) and of none (refused).
 */
async function probesOf(schema: Schema): Promise<Probe[]> {
  const root = valueSchema(schema);
  const alternatives: string[][] = (root.anyOf ?? []).map((alternative: Schema) => alternative.required ?? []);
  const group = alternatives.flat();
  const bases = await Promise.all((alternatives.length > 0 ? alternatives : [[]]).map((_alternative, index) => validValue(schema, undefined, index) as Promise<Record<string, unknown>>));
  const alternativeOf = (key: Segment) => Math.max(0, alternatives.findIndex((alternative) => alternative.includes(String(key))));
  const baseFor = (key: Segment) => bases[alternativeOf(key)];
  // The valid body itself: whatever it is answered (a body valid by the schema may still break a rule between fields), the answer is documented.
  const probes: Probe[] = [{ what: 'valid by the description', body: bases[0], fields: [], refused: false }];
  for (const { path, schema: property, parent } of propertiesOf(schema)) {
    const field = fieldName(path);
    const key = path[path.length - 1];
    const base = baseFor(path[0]);
    const required = typeof key === 'string' && (parent.required ?? []).includes(key);
    const nullable = isNullable(property);
    if (path.length === 1 && group.includes(String(key))) {
      probes.push({ what: 'null in its alternative of the group', body: await bodyWith(base, schema, path, null), fields: group, refused: true });
      const other = bases.find((_base, index) => index !== alternativeOf(key));
      if (other) probes.push({ what: `null beside another alternative (${nullable ? 'nullable' : 'not nullable'})`, body: await bodyWith(other, schema, path, null), fields: [field], refused: !nullable });
    } else {
      probes.push({ what: required ? 'left out (required)' : 'left out (optional)', body: await bodyWith(base, schema, path, undefined), fields: [field], refused: required });
      // What null means for a field with a default (the default, or a 400) is decided with the explicit nulls of issue 24 item 9.
      if (!(property.default !== undefined && !nullable)) {
        probes.push({ what: `null (${nullable ? 'nullable' : 'not nullable'})`, body: await bodyWith(base, schema, path, null), fields: [field], refused: !nullable });
      }
    }
    for (const [keyword, value] of violations(property)) probes.push({ what: `breaking ${keyword}`, body: await bodyWith(base, schema, path, value), fields: [field], refused: true });
  }
  if (group.length > 0) {
    alternatives.forEach((alternative, index) => probes.push({ what: `given as ${alternative.join(' and ')}`, body: bases[index], fields: group, refused: false }));
    const none = Object.fromEntries(Object.entries(bases[0]).filter(([key]) => !group.includes(key)));
    probes.push({ what: `none of ${group.join(', ')} given`, body: none, fields: group, refused: true });
  }
  return probes;
}

describe('request bodies of the v1 OpenAPI description', () => {
  it.each(withBody)('%s %s: each field is refused (400 naming it) exactly when the description says it is required, not nullable, or out of its bounds, enum, format, pattern or length', async (method, path, operation) => {
    const schema = operation.requestBody!.content['application/json'].schema;
    const mismatches: string[] = [];
    for (const probe of await probesOf(schema)) {
      const response = await call(method, await concretePath(path), probe.body);
      expectDocumented(operation, `${method} ${path} ${probe.fields.join(', ')} ${probe.what}`, response);
      const refused = namedFields(response).some((named: string) => probe.fields.some((field) => named === field || named.startsWith(`${field}.`) || named.startsWith(`${field}[`)));
      if (refused !== probe.refused) mismatches.push(`${probe.fields.join(', ')} ${probe.what}: answered ${response.status} ${JSON.stringify(response.body?.error ?? '')}`);
    }
    expect(mismatches).toEqual([]);
  });
});

describe('query parameters of the v1 OpenAPI description', () => {
  const withQuery = operations.filter(([, , operation]) => operation.parameters.some((parameter) => parameter.in === 'query' && violations(parameter.schema).length > 0));
  it.each(withQuery)('%s %s: a value out of a parameter\'s enum, format, pattern or bounds is refused, naming it', async (method, path, operation) => {
    const mismatches: string[] = [];
    for (const parameter of operation.parameters.filter((candidate) => candidate.in === 'query')) {
      for (const [keyword, value] of violations(parameter.schema)) {
        if (Array.isArray(value)) continue;
        const response = await call(method, `${await concretePath(path)}?${new URLSearchParams({ [parameter.name]: String(value) })}`);
        expectDocumented(operation, `${method} ${path}?${parameter.name} breaking ${keyword}`, response);
        if (!namedFields(response).includes(parameter.name)) mismatches.push(`${parameter.name} breaking ${keyword} (${String(value).slice(0, 40)}): answered ${response.status} ${JSON.stringify(response.body?.error ?? '')}`);
      }
    }
    expect(mismatches).toEqual([]);
  });
});

describe('errors of the v1 OpenAPI description', () => {
  const withPathIds = operations.filter(([, path]) => path.includes('{'));
  it.each(withPathIds)('%s %s: an unknown id answers a 404 code the description lists', async (method, path, operation) => {
    const body = operation.requestBody && (await validValue(operation.requestBody.content['application/json'].schema));
    const response = await call(method, path.replace(/\{\w+\}/g, () => randomUUID()), body);
    expect(response.status).toBe(404);
    expectDocumented(operation, `${method} ${path}`, response);
  });

  const operation = (method: string, path: string) => document.paths[path][method] as Operation;

  it('a campaign join refused by a business rule answers 422 with its code, as documented (CAMPAIGN_NOT_ACTIVE)', async () => {
    const campaign = await FIXTURES.campaigns();
    const response = await call('post', `/api/v1/campaigns/${campaign}/join`, { customer_id: await FIXTURES.customers() });
    expect(response.status).toBe(422);
    expect(response.body.error.code).toBe('CAMPAIGN_NOT_ACTIVE');
    expectDocumented(operation('post', '/api/v1/campaigns/{id}/join'), 'join', response);
  });

  it('without a credential, and with one lacking the scope, the OAuth forms are documented with their WWW-Authenticate header', async () => {
    const anonymous = await platform.api('GET', '/api/v1/customers');
    const customers = operation('get', '/api/v1/customers');
    expectDocumented(customers, 'anonymous', anonymous);
    expect(document.components.responses.InvalidToken.headers['WWW-Authenticate']).toBeDefined();
    expect(customers.responses['401']).toEqual({ $ref: '#/components/responses/InvalidToken' });
    expect(anonymous.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"');
    const member = await platform.loginMember();
    const forbidden = await platform.api('GET', '/api/v1/customers', { token: member.token });
    expectDocumented(customers, 'customer token', forbidden);
    expect(customers.responses['403'].headers['WWW-Authenticate']).toBeDefined();
  });

  it('a batch award row that fails answers its error as the object the description gives', async () => {
    const response = await call('post', '/api/v1/points/batch-award', { awards: [{ customer_id: randomUUID(), points: 5 }] });
    expect(response.status).toBe(200);
    const row = document.components.schemas.BatchAwardReport.properties.results.items;
    expect(row.properties.error.type).toBe('object');
    expect(Object.keys(response.body.data.results[0].error).sort()).toEqual([...row.properties.error.required].sort());
  });
});
