import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BrowserContext, chromium } from 'playwright-core';
import { pkcePair, registerClient } from '../support/oauth';
import { usePlatform } from '../support/use-platform';

/**
 * The OAuth sign-in and consent page in a real browser (Debian's Chromium, headless) at a phone's
 * viewport: labelled inputs, no horizontal scrolling, the client named, allow redirects with a code.
 * Run with `npm run test:browser` (needs `apt-get install -y chromium`). The screenshot goes to
 * SCREENSHOT_DIR, or a temporary directory; its path is printed.
 */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const PHONE = { width: 390, height: 844 };

let context: BrowserContext | undefined;
let userDataDir = '';
/** The app's callback: a loopback server (redirects to it are allowed over http) that answers the browser. */
let callbackServer: Server | undefined;
let redirectUri = '';

// The browser is closed before the platform, whose server would otherwise wait for its connections.
const { platform, admin } = usePlatform({ staff: ['admin'], beforeClose: async () => context?.close() });

beforeAll(async () => {
  callbackServer = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('callback reached'));
  await new Promise<void>((resolve) => callbackServer!.listen(0, '127.0.0.1', resolve));
  redirectUri = `http://127.0.0.1:${(callbackServer.address() as AddressInfo).port}/callback`;
  userDataDir = mkdtempSync(join(tmpdir(), 'oauth-consent-chromium-'));
  context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    viewport: PHONE,
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
  });
}, 60_000);
afterAll(async () => {
  await new Promise((resolve) => callbackServer?.close(resolve));
  rmSync(userDataDir, { recursive: true, force: true });
});

it('shows a readable, labelled sign-in and consent page on a phone, and allow redirects with a code', async () => {
  const client = await registerClient(platform, admin, { client_name: 'Partner <b>CRM</b> & Co', scope: 'read write analytics', redirect_uris: [redirectUri] });
  const page = await context!.newPage();
  const state = 'phone-state';
  const url = new URL(`${platform.restUrl}/oauth/authorize`);
  url.search = new URLSearchParams({
    response_type: 'code',
    client_id: client.client_id,
    redirect_uri: redirectUri,
    scope: 'read write',
    state,
    code_challenge: pkcePair().challenge,
    code_challenge_method: 'S256',
  }).toString();
  const response = await page.goto(url.toString());
  expect(response?.status()).toBe(200);

  await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Sign in to allow Partner <b>CRM</b> & Co');
  expect(await page.locator('b').count()).toBe(0);
  const email = page.getByLabel('Staff e-mail');
  const password = page.getByLabel('Password');
  expect(await email.getAttribute('type')).toBe('email');
  expect(await password.getAttribute('type')).toBe('password');
  expect(await page.getByRole('button', { name: 'Allow' }).isVisible()).toBe(true);
  expect(await page.getByRole('button', { name: 'Deny' }).isVisible()).toBe(true);
  expect(await page.locator('li').allTextContents()).toEqual([expect.stringMatching(/^read: /), expect.stringMatching(/^write: /)]);
  // Fits the phone: no horizontal scrolling, inputs and buttons large enough to touch.
  expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(PHONE.width);
  for (const target of [email, password, page.getByRole('button', { name: 'Allow' })]) {
    const box = await target.boundingBox();
    expect(box!.height).toBeGreaterThanOrEqual(40);
    expect(box!.x + box!.width).toBeLessThanOrEqual(PHONE.width);
  }

  await email.fill(admin.email);
  await password.fill(admin.password);
  const directory = process.env.SCREENSHOT_DIR ?? mkdtempSync(join(tmpdir(), 'oauth-consent-screenshot-'));
  const screenshot = join(directory, 'oauth-consent-page.png');
  await page.screenshot({ path: screenshot, fullPage: true });
  console.log(`consent page screenshot: ${screenshot}`);

  await Promise.all([page.waitForURL((target) => target.href.startsWith(redirectUri)), page.getByRole('button', { name: 'Allow' }).click()]);
  const callback = new URL(page.url());
  expect(callback.searchParams.get('code')).toEqual(expect.any(String));
  expect(callback.searchParams.get('state')).toBe(state);
  expect(callback.searchParams.get('iss')).toBe(platform.config.publicUrl);
  expect(await page.textContent('body')).toBe('callback reached');
}, 60_000);
