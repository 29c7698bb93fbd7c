import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../core/config';
import { listen, RunningServer } from '../core/http';
import { createLogger } from '../core/logger';
import { apiSchemaOf, readSupergraphSdl } from '../core/supergraph';
import { createRestApp } from '../rest-adapter/app';
import { MAX_UPLOAD_BYTES } from '../rest-adapter/uploads';
import { startTestPlatform, TestPlatform } from './support/test-platform';

// Multipart handling is built before the first domain that uploads; this route table exercises it.
const PUBLIC_URL = 'http://files.example.test';
let platform: TestPlatform;
let adapter: RunningServer;
let dataDir: string;

beforeAll(async () => {
  platform = await startTestPlatform();
  dataDir = mkdtempSync(join(tmpdir(), 'loyalty-uploads-'));
  const config = loadConfig({ DATA_DIR: dataDir, GATEWAY_URL: platform.gatewayUrl, PUBLIC_URL });
  const app = createRestApp({
    config,
    apiSchema: apiSchemaOf(readSupergraphSdl()),
    logger: createLogger('rest', 'silent'),
    rateLimiter: platform.rateLimiter,
    routes: [
      {
        method: 'post',
        path: '/test/uploads',
        operation: 'Health',
        public: true,
        upload: [
          { name: 'image', required: true, accept: /^image\// },
          { name: 'gallery', maxCount: 3, accept: /^image\// },
        ],
        envelope: 'data',
        payload: (_data, input) => ({ uploads: input.uploads, body: input.body }),
      },
    ],
  });
  adapter = await listen(app, 0, '127.0.0.1');
});

afterAll(async () => {
  await adapter.close();
  await platform.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const png = (bytes = 64) => new Blob([Buffer.alloc(bytes, 7)], { type: 'image/png' });
const post = async (form: FormData) => {
  const response = await fetch(`http://127.0.0.1:${adapter.port}/test/uploads`, { method: 'POST', body: form });
  return { status: response.status, body: (await response.json()) as any };
};
const storedFiles = () => readdirSync(join(dataDir, 'uploads'), { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile());

it('stores each file, passes its URL on, keeps text fields as strings, and serves the file back', async () => {
  const form = new FormData();
  form.append('image', png(100), 'logo.PNG');
  form.append('gallery', png(10), 'a.png');
  form.append('gallery', png(20), 'b.png');
  form.append('stock', '12');
  form.append('condition', '{"minimumSpend":"100"}');
  const { status, body } = await post(form);
  expect(status).toBe(200);
  expect(body.data.body).toEqual({ stock: '12', condition: '{"minimumSpend":"100"}' });
  expect(body.data.uploads.image).toMatch(new RegExp(`^${PUBLIC_URL}/files/\\d{4}/\\d{2}/[0-9a-f-]{36}\\.png$`));
  expect(body.data.uploads.gallery).toHaveLength(2);
  const path = new URL(body.data.uploads.image).pathname;
  const served = await fetch(`http://127.0.0.1:${adapter.port}${path}`);
  expect(served.status).toBe(200);
  expect(Buffer.from(await served.arrayBuffer())).toEqual(Buffer.alloc(100, 7));
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
