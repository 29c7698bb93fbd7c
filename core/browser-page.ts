import { Request, RequestHandler, Response } from 'express';
import { dirname, extname, join } from 'node:path';

/** Every character that could end an HTML text or attribute value, as an entity. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"'`=]/g, (char) => `&#${char.charCodeAt(0)};`);
}

/** A file of an installed package, wherever npm put it (its package.json locates it, whatever its `exports` allow). */
export const packageFile = (name: string, file: string): string => join(dirname(require.resolve(`${name}/package.json`)), file);

/**
 * A page for developers' browsers (the GraphQL explorer, the v1 reference) built only of files this
 * process serves: its stylesheets and scripts come from installed packages and our own files, never
 * from another origin, so it works on a machine without internet access. No inline script: the page's
 * settings travel as a JSON data block the scripts read (`#page-config`).
 */
export interface BrowserPage {
  title: string;
  /** Where the assets are served: `${assetsPath}/<name>`. */
  assetsPath: string;
  /** Stylesheets (`.css`) and scripts (`.js`) by the name they are served under, in the order the page loads them. */
  assets: Record<string, string>;
  /** What the page's scripts read from `#page-config`. */
  config: unknown;
  /** The page's Content-Security-Policy. */
  policy: string;
}

/** Whether a GET is a browser asking for a page (rather than a client asking for data at the same path). */
export const wantsPage = (req: Request): boolean => req.accepts(['application/json', 'text/html']) === 'text/html';

/** The page's HTML, sent with its policy and never cached (its settings may change with the deployment). */
export function pageHandler(page: BrowserPage): RequestHandler {
  const html = pageHtml(page);
  return (_req, res) => void sendWithHeaders(res, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store', 'Content-Security-Policy': page.policy }).send(html);
}

/** Serves the page's assets by name (no other file is reachable), cached for a day. */
export function assetsHandler(page: BrowserPage): RequestHandler {
  return (req, res, next) => {
    const name = req.params.name;
    const file = typeof name === 'string' && Object.hasOwn(page.assets, name) ? page.assets[name] : undefined;
    if (!file) return next();
    sendWithHeaders(res, { 'Cache-Control': 'public, max-age=86400' }).sendFile(file, (error) => error && next(error));
  };
}

function sendWithHeaders(res: Response, headers: Record<string, string>): Response {
  return res.set({ ...headers, 'X-Content-Type-Options': 'nosniff', 'X-Frame-Options': 'DENY', 'Referrer-Policy': 'no-referrer' });
}

function pageHtml(page: BrowserPage): string {
  const names = Object.keys(page.assets);
  const link = (name: string) => `${page.assetsPath}/${encodeURIComponent(name)}`;
  const styles = names.filter((name) => extname(name) === '.css').map((name) => `<link rel="stylesheet" href="${escapeHtml(link(name))}">`);
  const scripts = names.filter((name) => extname(name) === '.js').map((name) => `<script src="${escapeHtml(link(name))}"></script>`);
  // `<` escaped: no string in the settings can end the data block.
  const config = JSON.stringify(page.config).replace(/</g, '\\u003c');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(page.title)}</title>
${styles.join('\n')}
</head>
<body>
<div id="page-root">Loading…</div>
<script type="application/json" id="page-config">${config}</script>
${scripts.join('\n')}
</body>
</html>
`;
}
