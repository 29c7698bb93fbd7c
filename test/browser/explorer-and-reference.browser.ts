import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BrowserContext, chromium, Page } from 'playwright-core';
import { usePlatform } from '../support/use-platform';
import { waitFor } from '../support/wait-for';

/**
 * The gateway's GraphQL explorer and the v1 API reference in a real browser (Debian's Chromium,
 * headless), as on a machine without internet access: every request the page makes goes to the
 * platform's own origin, no policy violation is reported, and the pages work (GraphiQL runs a query
 * and a subscription with the header editor's token; the reference shows an operation).
 */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

let context: BrowserContext | undefined;
let userDataDir = '';

const { platform, admin, member } = usePlatform({ staff: ['admin'], members: 1, beforeClose: async () => context?.close() });

beforeAll(async () => {
  userDataDir = mkdtempSync(join(tmpdir(), 'explorer-chromium-'));
  context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    viewport: { width: 1280, height: 900 },
  });
}, 60_000);
afterAll(() => rmSync(userDataDir, { recursive: true, force: true }));

/**
 * A page that records the requests it makes (and which of them its policy blocked before they left)
 * and what the console says of the policy.
 */
async function watchedPage(): Promise<{ page: Page; requested: Set<string>; blocked: Set<string>; violations: string[] }> {
  const page = await context!.newPage();
  const requested = new Set<string>();
  const blocked = new Set<string>();
  const violations: string[] = [];
  page.on('request', (request) => void requested.add(request.url()));
  page.on('requestfailed', (request) => request.failure()?.errorText === 'csp' && blocked.add(request.url()));
  page.on('websocket', (socket) => void requested.add(socket.url().replace(/^ws/, 'http')));
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy|Refused to/.test(message.text())) violations.push(message.text());
  });
  return { page, requested, blocked, violations };
}

/** The requests to an origin other than `own`. */
const foreign = (requested: Set<string>, own: string) => [...requested].filter((url) => new URL(url).origin !== new URL(own).origin);

/** Replaces the text of a GraphiQL editor as a user does: selects all of it and types. */
async function typeInto(page: Page, editor: string, text: string): Promise<void> {
  await page.locator(`${editor} .CodeMirror`).click();
  await page.keyboard.press('Control+A');
  await page.keyboard.insertText(text);
}
const QUERY_EDITOR = '.graphiql-query-editor';
/** The header editor, the tool GraphiQL opens on (`defaultEditorToolsVisibility`). */
const HEADER_EDITOR = '.graphiql-editor-tool .graphiql-editor:not(.hidden)';
/** A CodeMirror editor's element, which holds the editor. */
type EditorElement = { CodeMirror: { getValue(): string } };
const editorText = (page: Page, editor: string) => page.locator(`${editor} .CodeMirror`).evaluate((element) => (element as unknown as EditorElement).CodeMirror.getValue());
/** Waits until GraphiQL has read the edited operation (it does so shortly after the text changes), as its tab's name shows. */
const operationNamed = (page: Page, name: string) => page.getByRole('tab', { name, exact: true }).waitFor();
/** Runs the query editor's operation and waits for a response that says `expected`. */
async function run(page: Page, expected: string): Promise<unknown> {
  await page.locator('.graphiql-execute-button').click();
  await page.locator('.graphiql-response', { hasText: expected }).waitFor();
  return JSON.parse(await editorText(page, '.graphiql-response'));
}

it('serves GraphiQL from its own files: opens on the example query, runs a query and a subscription with the header editor’s token', async () => {
  const { page, requested, violations } = await watchedPage();
  const response = await page.goto(platform.gatewayUrl);
  expect(response?.status()).toBe(200);
  expect(response?.headers()['content-security-policy']).toMatch(/^default-src 'none'; script-src 'self'; style-src 'self';/);
  await page.locator(`${QUERY_EDITOR} .CodeMirror`).waitFor();
  expect(await editorText(page, QUERY_EDITOR)).toContain('query DemoMembers');
  expect(await editorText(page, HEADER_EDITOR)).toContain('"Authorization": "Bearer <accessToken>"');

  await typeInto(page, HEADER_EDITOR, JSON.stringify({ Authorization: `Bearer ${admin.token}` }));
  await typeInto(page, QUERY_EDITOR, 'query Me { currentStaff { email } }');
  await operationNamed(page, 'Me');
  expect(await run(page, admin.email)).toEqual({ data: { currentStaff: { email: admin.email } } });

  await typeInto(page, HEADER_EDITOR, JSON.stringify({ Authorization: `Bearer ${member.token}` }));
  await typeInto(page, QUERY_EDITOR, 'subscription Mine { myNotificationEvents { type } }');
  await operationNamed(page, 'Mine');
  expect(await run(page, 'connected')).toEqual({ data: { myNotificationEvents: { type: 'connected' } } });

  expect(foreign(requested, platform.gatewayUrl)).toEqual([]);
  expect(violations).toEqual([]);
}, 60_000);

it('serves the v1 API reference from its own files, rendering the OpenAPI document with its operations', async () => {
  const { page, requested, blocked, violations } = await watchedPage();
  const response = await page.goto(`${platform.restUrl}/api/v1/docs`);
  expect(response?.status()).toBe(200);
  await page.getByRole('menuitem', { name: 'customers' }).click();
  await page.getByRole('menuitem', { name: 'List customers' }).click();
  await page.getByRole('heading', { name: 'List customers' }).waitFor();
  expect(new URL(page.url()).hash).toMatch(/^#tag\/customers\/operation\//);
  expect(await page.title()).toBe('API reference v1 · Loyalty platform');
  // Redoc's menu footer always asks its CDN for a logo: the policy blocks it before it leaves (the footer shows its text alone).
  await waitFor(async () => foreign(requested, platform.restUrl).every((url) => blocked.has(url)), 'every request to another origin blocked', 10_000);
  expect(foreign(requested, platform.restUrl)).toEqual([...blocked]);
  expect(violations.filter((violation) => !violation.includes("'https://cdn.redoc.ly/redoc/logo-mini.svg'"))).toEqual([]);
}, 60_000);
