import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from '../core/config';
import { listen, RunningServer } from '../core/http';
import { createLogger } from '../core/logger';
import { apiSchemaOf, readSupergraphSdl } from '../core/supergraph';
import { createRestApp } from '../rest-adapter/app';
import { MAX_UPLOAD_BYTES } from '../rest-adapter/uploads';
import { IMAGES, png, pngBytes } from './support/images';
import { unique } from './support/test-platform';
import { useTempDirs } from './support/temp-dirs';
import { usePlatform } from './support/use-platform';

// Multipart handling is built before the first domain that uploads; this route table exercises it.
const PUBLIC_URL = 'http://files.example.test';
let adapter: RunningServer;
let dataDir: string;
// The adapter below shares the platform's rate limiter: it closes first.
const { platform, marketing, tenant, member } = usePlatform({ staff: ['marketing', 'tenant'], members: 1, beforeClose: () => adapter.close() });
const tempDir = useTempDirs('loyalty-uploads');

beforeAll(async () => {
  dataDir = tempDir();
  const config = loadConfig({ DATA_DIR: dataDir, GATEWAY_URL: platform.gatewayUrl, PUBLIC_URL });
  const app = createRestApp({
    config,
    apiSchema: apiSchemaOf(readSupergraphSdl()),
    logger: createLogger('rest', 'silent'),
    rateLimiter: platform.rateLimiter,
    surface: {
      components: {},
      publicEvents: [],
      routes: [
      {
        method: 'post',
        path: '/test/uploads',
        document: 'query Health { health { ok } }',
        public: true,
        upload: [{ name: 'image', required: true }, { name: 'gallery', maxCount: 3 }],
        envelope: 'data',
        payload: (_data, input) => ({ uploads: input.uploads, body: input.body }),
      },
      ],
    },
  });
  adapter = await listen(app, 0, '127.0.0.1');
});


const adapterUrl = () => `http://127.0.0.1:${adapter.port}`;
const post = async (form: FormData) => {
  const response = await fetch(`${adapterUrl()}/test/uploads`, { method: 'POST', body: form });
  return { status: response.status, body: (await response.json()) as any };
};
const filesUnder = (directory: string) =>
  existsSync(directory)
    ? readdirSync(directory, { recursive: true, withFileTypes: true })
        .filter((entry) => entry.isFile())
        .map((entry) => join(entry.parentPath, entry.name))
        .sort()
    : [];
const storedFiles = () => filesUnder(join(dataDir, 'uploads'));
/** What the real platform's adapter has stored. */
const platformFiles = () => filesUnder(join(platform.dataDir, 'uploads'));
const fieldsOf = (response: { body: any }) => [...new Set((response.body.data.errors ?? []).map((error: { field: string }) => error.field))];

const HTML = '<!doctype html><html><body><script>fetch("/auth/api/members/me").then(r => r.text()).then(alert)</script></body></html>';
const SVG = '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(document.domain)"><rect width="1" height="1"/></svg>';
const NOT_AN_IMAGE = { field: 'image', message: 'image must be a PNG, JPEG, WebP or GIF image' };

it('stores each file, passes its URL on, keeps text fields as strings, and serves the file back', async () => {
  const form = new FormData();
  form.append('image', png(100), 'logo.PNG');
  form.append('gallery', png(80), 'a.png');
  form.append('gallery', png(90), 'b.png');
  form.append('stock', '12');
  form.append('condition', '{"minimumSpend":"100"}');
  const { status, body } = await post(form);
  expect(status).toBe(200);
  expect(body.data.body).toEqual({ stock: '12', condition: '{"minimumSpend":"100"}' });
  expect(body.data.uploads.image).toMatch(new RegExp(`^${PUBLIC_URL}/files/\\d{4}/\\d{2}/[0-9a-f-]{36}\\.png$`));
  expect(body.data.uploads.gallery).toHaveLength(2);
  const path = new URL(body.data.uploads.image).pathname;
  const served = await fetch(`${adapterUrl()}${path}`);
  expect(served.status).toBe(200);
  expect(Buffer.from(await served.arrayBuffer())).toEqual(pngBytes(100));
});

it('refuses a missing required file with 400 on that field and stores nothing', async () => {
  const before = storedFiles().length;
  const form = new FormData();
  form.append('gallery', png(), 'a.png');
  const { status, body } = await post(form);
  expect(status).toBe(400);
  expect(body).toEqual({ statusCode: 400, data: { message: 'Validation failed', errors: [{ field: 'image', message: 'image file is required' }] } });
  expect(storedFiles().length).toBe(before);
});

it('refuses a file of the wrong type, too many files, an unknown file field and an oversized file', async () => {
  const before = storedFiles().length;
  const wrongType = new FormData();
  wrongType.append('image', new Blob(['hello'], { type: 'text/plain' }), 'notes.txt');
  expect((await post(wrongType)).body.data.errors[0].field).toBe('image');

  const tooMany = new FormData();
  tooMany.append('image', png(), 'a.png');
  for (let i = 0; i < 4; i += 1) tooMany.append('gallery', png(), `${i}.png`);
  const tooManyAnswer = await post(tooMany);
  expect(tooManyAnswer.status).toBe(400);
  expect(tooManyAnswer.body.data.errors[0].field).toBe('gallery');

  const unknown = new FormData();
  unknown.append('image', png(), 'a.png');
  unknown.append('virus', png(), 'v.png');
  const unknownAnswer = await post(unknown);
  expect(unknownAnswer.status).toBe(400);
  expect(unknownAnswer.body.data.errors[0].field).toBe('virus');

  const oversized = new FormData();
  oversized.append('image', png(MAX_UPLOAD_BYTES + 1), 'big.png');
  const oversizedAnswer = await post(oversized);
  expect(oversizedAnswer.status).toBe(400);
  expect(oversizedAnswer.body.data.errors[0]).toEqual({ field: 'image', message: expect.stringContaining('larger than') });
  expect(storedFiles().length).toBe(before);
});

describe('file types come from the bytes', () => {
  it('refuses an HTML page named r.png and sent as image/png, and an SVG, with 400 on the field', async () => {
    const before = storedFiles();
    for (const [content, type, name] of [
      [HTML, 'image/png', 'r.png'],
      [HTML, 'text/html', 'r.html'],
      [SVG, 'image/svg+xml', 'logo.svg'],
      [SVG, 'image/png', 'logo.png'],
    ]) {
      const form = new FormData();
      form.append('image', new Blob([content], { type }), name);
      expect(await post(form)).toEqual({ status: 400, body: { statusCode: 400, data: { message: 'Validation failed', errors: [NOT_AN_IMAGE] } } });
    }
    // One bad file refuses the whole request: the good one beside it is not stored either.
    const mixed = new FormData();
    mixed.append('image', png(), 'a.png');
    mixed.append('gallery', new Blob([HTML], { type: 'image/gif' }), 'b.gif');
    const mixedAnswer = await post(mixed);
    expect(mixedAnswer.status).toBe(400);
    expect(fieldsOf(mixedAnswer)).toEqual(['gallery']);
    expect(storedFiles()).toEqual(before);
  });

  it("accepts PNG, JPEG, WebP and GIF whatever the client calls them, stored under their content's extension", async () => {
    const form = new FormData();
    form.append('image', new Blob([IMAGES.jpeg], { type: 'application/octet-stream' }), 'photo.html');
    form.append('gallery', new Blob([IMAGES.webp], { type: 'text/html' }), 'a.svg');
    form.append('gallery', new Blob([IMAGES.gif]), 'b');
    form.append('gallery', new Blob([IMAGES.png], { type: 'image/jpeg' }), 'c.jpg');
    const { status, body } = await post(form);
    expect(status).toBe(200);
    expect(body.data.uploads.image).toMatch(/\.jpg$/);
    expect(body.data.uploads.gallery.map((url: string) => url.split('.').pop())).toEqual(['webp', 'gif', 'png']);
    const served = await fetch(`${adapterUrl()}${new URL(body.data.uploads.gallery[0]).pathname}`);
    expect(served.headers.get('content-type')).toBe('image/webp');
    expect(Buffer.from(await served.arrayBuffer())).toEqual(IMAGES.webp);
  });
});

describe('/files', () => {
  it('serves a stored image with its type, nosniff and a sandboxing Content-Security-Policy', async () => {
    const form = new FormData();
    form.append('image', png(), 'a.png');
    const { body } = await post(form);
    const served = await fetch(`${adapterUrl()}${new URL(body.data.uploads.image).pathname}`);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(served.headers.get('x-content-type-options')).toBe('nosniff');
    expect(served.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
  });

  it('serves any other stored file as a download of application/octet-stream, never as a page', async () => {
    // As an older version stored a receipt "image" named r.html.
    const uploads = join(dataDir, 'uploads');
    mkdirSync(join(uploads, 'legacy'), { recursive: true });
    writeFileSync(join(uploads, 'legacy', 'r.html'), HTML);
    writeFileSync(join(uploads, 'legacy', 'logo.svg'), SVG);
    for (const name of ['r.html', 'logo.svg']) {
      const served = await fetch(`${adapterUrl()}/files/legacy/${name}`);
      expect(served.status).toBe(200);
      expect(served.headers.get('content-type')).toBe('application/octet-stream');
      expect(served.headers.get('content-disposition')).toBe('attachment');
      expect(served.headers.get('x-content-type-options')).toBe('nosniff');
      expect(served.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
    }
  });

  it('lists no directory and serves no dotfile', async () => {
    const uploads = join(dataDir, 'uploads');
    mkdirSync(join(uploads, 'hidden'), { recursive: true });
    writeFileSync(join(uploads, 'hidden', '.env'), 'SECRET=1');
    writeFileSync(join(uploads, 'hidden', 'index.html'), HTML);
    for (const path of ['/files/hidden/.env', '/files/hidden/', '/files/hidden', '/files/']) {
      const response = await fetch(`${adapterUrl()}${path}`, { redirect: 'manual' });
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({ statusCode: 404, data: { message: 'Not found' } });
    }
  });
});

// The attacks as a client sends them, against the platform's own upload routes.
const RECEIPTS = '/point/api/receipt/verify';
const TIERS = '/cluster/api/tiers';
const BADGES = '/cluster/api/badges';
const REWARDS = '/reward/api/rewards';
interface UploadRoute {
  method: 'POST' | 'PUT';
  path: string;
  file: string;
  /** A caller the route lets in, and callers it refuses (403). */
  allowed: () => string;
  refused: () => string[];
  fields: () => Record<string, string>;
}
const UPLOAD_ROUTES: UploadRoute[] = [
  { method: 'POST', path: `${RECEIPTS}/me`, file: 'image', allowed: () => member.token, refused: () => [marketing.token, tenant.token], fields: () => ({}) },
  { method: 'POST', path: RECEIPTS, file: 'image', allowed: () => marketing.token, refused: () => [member.token, tenant.token], fields: () => ({ memberId: member.id }) },
  {
    method: 'POST',
    path: TIERS,
    file: 'tierLogo',
    allowed: () => marketing.token,
    refused: () => [member.token, tenant.token],
    fields: () => ({ name_en: unique('Tier '), description_en: 'd', requirement: '{}' }),
  },
  { method: 'PUT', path: `${TIERS}/${randomUUID()}`, file: 'tierLogo', allowed: () => marketing.token, refused: () => [member.token, tenant.token], fields: () => ({}) },
  {
    method: 'POST',
    path: BADGES,
    file: 'image',
    allowed: () => marketing.token,
    refused: () => [member.token, tenant.token],
    fields: () => ({ name_en: unique('Badge '), description_en: 'd', rule: JSON.stringify({ type: 'firstTime' }) }),
  },
  { method: 'PUT', path: `${BADGES}/${randomUUID()}`, file: 'image', allowed: () => marketing.token, refused: () => [member.token, tenant.token], fields: () => ({}) },
  {
    method: 'POST',
    path: REWARDS,
    file: 'image',
    allowed: () => marketing.token,
    refused: () => [member.token, tenant.token],
    fields: () => ({ name_en: unique('Reward '), description_en: 'd', type: 'POINT' }),
  },
  { method: 'PUT', path: `${REWARDS}/${randomUUID()}`, file: 'image', allowed: () => marketing.token, refused: () => [member.token, tenant.token], fields: () => ({}) },
];
const label = (route: UploadRoute) => `${route.method} ${route.path.replace(/[0-9a-f-]{36}/, ':id')}`;

async function send(method: string, path: string, token: string, form: FormData) {
  const response = await fetch(`${platform.restUrl}${path}`, { method, headers: token ? { authorization: `Bearer ${token}` } : {}, body: form });
  return { status: response.status, body: (await response.json()) as any };
}
function formOf(fields: Record<string, string>, files: Record<string, Blob[]>) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  for (const [name, blobs] of Object.entries(files)) for (const blob of blobs) form.append(name, blob, `${name}.png`);
  return form;
}

describe('the platform upload routes', () => {
  it('refuse a receipt "image" that is an HTML page, whatever its name and Content-Type claim, and store nothing', async () => {
    const before = platformFiles();
    for (const [type, name] of [
      ['image/png', 'r.html'],
      ['image/png', 'r.png'],
      ['text/html', 'r.html'],
    ]) {
      const form = new FormData();
      form.append('image', new Blob([HTML], { type }), name);
      const response = await send('POST', `${RECEIPTS}/me`, member.token, form);
      expect(response).toEqual({ status: 400, body: { statusCode: 400, data: { message: 'Validation failed', errors: [NOT_AN_IMAGE] } } });
    }
    const tier = await send('POST', TIERS, marketing.token, formOf(UPLOAD_ROUTES[2].fields(), { tierLogo: [new Blob([SVG], { type: 'image/png' })] }));
    expect(tier.status).toBe(400);
    expect(fieldsOf(tier)).toEqual(['tierLogo']);
    expect(platformFiles()).toEqual(before);
  });

  it.each(UPLOAD_ROUTES.map((route) => [label(route), route] as const))('%s checks the token and access before storing: 401 and 403 store nothing', async (_label, route) => {
    const before = platformFiles();
    const anonymous = await send(route.method, route.path, '', formOf(route.fields(), { [route.file]: [png()] }));
    expect(anonymous).toEqual({ status: 401, body: { statusCode: 401, data: { message: 'Unauthorized: missing token (Authorization: Bearer <access token>)' } } });
    for (const token of route.refused()) {
      const refused = await send(route.method, route.path, token, formOf(route.fields(), { [route.file]: [png()] }));
      expect(refused).toEqual({ status: 403, body: { statusCode: 403, data: { message: 'Forbidden: insufficient permissions' } } });
    }
    expect(platformFiles()).toEqual(before);
  });

  it('remove the files of a request the subgraph refuses (400, 404) and keep those of one it accepts', async () => {
    const before = platformFiles();
    const badTier = await send('POST', TIERS, marketing.token, formOf({ ...UPLOAD_ROUTES[2].fields(), name_en: 'x'.repeat(257) }, { tierLogo: [png()], benefitLogos: [png(), png()] }));
    expect(badTier.status).toBe(400);
    expect(fieldsOf(badTier)).toEqual(['name_en']);
    const badReceipt = await send('POST', RECEIPTS, marketing.token, formOf({ memberId: 'not-a-uuid' }, { image: [png()] }));
    expect(badReceipt.status).toBe(400);
    expect(fieldsOf(badReceipt)).toEqual(['memberId']);
    const badBadge = await send('POST', BADGES, marketing.token, formOf({ ...UPLOAD_ROUTES[4].fields(), rule: JSON.stringify({ type: 'purchaseCount' }) }, { image: [png()] }));
    expect(badBadge.status).toBe(400);
    const badReward = await send('POST', REWARDS, marketing.token, formOf({ ...UPLOAD_ROUTES[6].fields(), type: 'VOUCHER' }, { image: [png()] }));
    expect(badReward.status).toBe(400);
    const unknownReward = await send('PUT', `${REWARDS}/${randomUUID()}`, marketing.token, formOf({ name_th: 'x' }, { image: [png()] }));
    expect(unknownReward.status).toBe(404);
    const unknownTier = await send('PUT', `${TIERS}/${randomUUID()}`, marketing.token, formOf({ name_en: 'Gone' }, { tierLogo: [png()] }));
    expect(unknownTier.status).toBe(404);
    expect(platformFiles()).toEqual(before);

    const good = await send('POST', `${RECEIPTS}/me`, member.token, formOf({}, { image: [png()] }));
    expect(good.status).toBe(201);
    expect(platformFiles()).toHaveLength(before.length + 1);
  });

  it('bound the size of a whole request: files each under 10 MB but over 20 MB together are 400 on the field, and nothing is stored', async () => {
    const before = platformFiles();
    const eightMegabytes = () => png(8 * 1024 * 1024);
    const form = formOf(UPLOAD_ROUTES[2].fields(), { tierLogo: [eightMegabytes()], benefitLogos: [eightMegabytes(), eightMegabytes()] });
    const response = await send('POST', TIERS, marketing.token, form);
    expect(response).toEqual({
      status: 400,
      body: { statusCode: 400, data: { message: 'Validation failed', errors: [{ field: 'benefitLogos', message: 'the upload is larger than 20 MB in total' }] } },
    });
    expect(platformFiles()).toEqual(before);
  });

  const BOUNDARY = 'loyalty-test-boundary';
  const filePart = (name: string) =>
    Buffer.concat([Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"; filename="r.png"\r\nContent-Type: image/png\r\n\r\n`), IMAGES.png, Buffer.from('\r\n')]);
  const MALFORMED: Array<[string, (file: string) => { type: string; body: Buffer }]> = [
    ['a body cut off inside a file', (file) => ({ type: `multipart/form-data; boundary=${BOUNDARY}`, body: filePart(file).subarray(0, 150) })],
    ['multipart/form-data without a boundary', (file) => ({ type: 'multipart/form-data', body: Buffer.concat([filePart(file), Buffer.from(`--${BOUNDARY}--\r\n`)]) })],
    ['a body without its closing delimiter', (file) => ({ type: `multipart/form-data; boundary=${BOUNDARY}`, body: filePart(file) })],
  ];
  it.each(UPLOAD_ROUTES.map((route) => [label(route), route] as const))('%s answers malformed multipart with 400 on body, never 500', async (_label, route) => {
    const before = platformFiles();
    for (const [what, malformed] of MALFORMED) {
      const { type, body } = malformed(route.file);
      const response = await fetch(`${platform.restUrl}${route.path}`, { method: route.method, headers: { authorization: `Bearer ${route.allowed()}`, 'content-type': type }, body });
      expect({ what, status: response.status, body: await response.json() }).toEqual({
        what,
        status: 400,
        body: { statusCode: 400, data: { message: 'Malformed multipart body', errors: [{ field: 'body', message: expect.stringContaining('not a valid multipart/form-data body') }] } },
      });
    }
    expect(platformFiles()).toEqual(before);
    // The same part with its closing delimiter gets past parsing.
    const body = Buffer.concat([filePart(route.file), Buffer.from(`--${BOUNDARY}--\r\n`)]);
    const wellFormed = await fetch(`${platform.restUrl}${route.path}`, {
      method: route.method,
      headers: { authorization: `Bearer ${route.allowed()}`, 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
      body,
    });
    expect(wellFormed.status).toBeLessThan(500);
    expect(fieldsOf({ body: await wellFormed.json() })).not.toContain('body');
  });
});
