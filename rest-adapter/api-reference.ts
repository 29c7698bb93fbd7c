import { Express } from 'express';
import { join } from 'node:path';
import { assetsHandler, BrowserPage, packageFile, pageHandler } from '../core/browser-page';

/**
 * The v1 API reference (Redoc, from its npm package: it works without internet access) at `path`,
 * rendering the OpenAPI document at `specUrl` with its examples. Redoc's components style themselves
 * with inline `<style>` elements and its search runs in a worker made from a blob: the policy allows
 * those and nothing from another origin.
 */
export function serveApiReference(app: Express, path: string, specUrl: string): void {
  const page: BrowserPage = {
    title: 'API reference v1 · Loyalty platform',
    assetsPath: `${path}/assets`,
    assets: {
      'redoc.js': packageFile('redoc', 'bundles/redoc.standalone.js'),
      'reference.js': join(__dirname, 'api-reference', 'reference.js'),
    },
    config: { specUrl },
    policy: "default-src 'none'; script-src 'self'; worker-src blob:; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
  };
  app.get(path, pageHandler(page));
  app.get(`${page.assetsPath}/:name`, assetsHandler(page));
}
