import { Response } from 'express';
import { escapeHtml } from '../../core/browser-page';

const SCOPE_MEANINGS: Record<string, string> = {
  read: 'Read customers, points, rewards and other data',
  write: 'Create and change data (award points, record transactions, ...)',
  admin: 'Administrative operations (webhooks, venues, batch awards, OAuth clients)',
  analytics: 'Analytics and reports',
};

/** The request parameters the consent form carries back (hidden inputs). */
export const AUTHORIZATION_PARAMS = ['response_type', 'client_id', 'redirect_uri', 'scope', 'state', 'code_challenge', 'code_challenge_method'] as const;

const STYLE = `
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#f4f5f7;color:#1d1f23}
main{max-width:28rem;margin:0 auto;padding:1.5rem 1rem}
.card{background:#fff;border-radius:12px;padding:1.25rem;box-shadow:0 1px 3px rgba(0,0,0,.12)}
h1{font-size:1.35rem;margin:0 0 .75rem;overflow-wrap:anywhere}
ul{padding-left:1.2rem;margin:.25rem 0 1rem}
label{display:block;font-weight:600;margin:.75rem 0 .25rem}
input[type=email],input[type=password]{box-sizing:border-box;width:100%;padding:.7rem;font:inherit;border:1px solid #8a8f98;border-radius:8px}
.buttons{display:flex;gap:.75rem;margin-top:1.25rem}
button{flex:1;padding:.8rem;font:inherit;font-weight:600;border-radius:8px;border:1px solid #1a56db;cursor:pointer;min-height:44px}
button[value=allow]{background:#1a56db;color:#fff}
button[value=deny]{background:#fff;color:#1a56db}
.error{background:#fdecea;color:#8a1c12;border-radius:8px;padding:.6rem .8rem;margin:0 0 1rem}
.muted{color:#555;font-size:.9rem;overflow-wrap:anywhere}
`;

function document(title: string, body: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`;
}

/**
 * Headers of every page: never cached, never framed (clickjacking of the consent buttons), no scripts
 * at all, no referrer leaking the request's state.
 */
function sendPage(res: Response, status: number, html: string): void {
  res
    .status(status)
    .set({
      'Content-Type': 'text/html; charset=utf-8',
      'Cache-Control': 'no-store',
      'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; img-src 'none'; frame-ancestors 'none'; base-uri 'none'",
      'X-Frame-Options': 'DENY',
      'Referrer-Policy': 'no-referrer',
      'X-Content-Type-Options': 'nosniff',
    })
    .send(html);
}

export interface ConsentPage {
  clientName: string;
  scopes: string[];
  params: Record<string, string>;
  csrfToken: string;
  error?: string;
  email?: string;
}

/** The sign-in and consent page: names the client and the scopes, one form, labelled inputs, no scripts. */
export function sendConsentPage(res: Response, status: number, page: ConsentPage): void {
  const hidden = AUTHORIZATION_PARAMS.filter((name) => page.params[name] !== undefined)
    .map((name) => `<input type="hidden" name="${name}" value="${escapeHtml(page.params[name])}">`)
    .join('\n');
  const scopes = page.scopes.map((scope) => `<li><strong>${escapeHtml(scope)}</strong>: ${escapeHtml(SCOPE_MEANINGS[scope] ?? scope)}</li>`).join('\n');
  const body = `<div class="card">
<h1>Sign in to allow ${escapeHtml(page.clientName)}</h1>
<p><strong>${escapeHtml(page.clientName)}</strong> asks for access to the loyalty platform with these permissions:</p>
<ul>
${scopes}
</ul>
${page.error ? `<p class="error" role="alert">${escapeHtml(page.error)}</p>` : ''}
<form method="post" action="/oauth/authorize">
${hidden}
<input type="hidden" name="csrf_token" value="${escapeHtml(page.csrfToken)}">
<label for="email">Staff e-mail</label>
<input id="email" name="email" type="email" autocomplete="username" value="${escapeHtml(page.email ?? '')}" required>
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required>
<div class="buttons">
<button type="submit" name="decision" value="allow">Allow</button>
<button type="submit" name="decision" value="deny" formnovalidate>Deny</button>
</div>
</form>
<p class="muted">You will be sent back to ${escapeHtml(page.params.redirect_uri ?? '')}</p>
</div>`;
  sendPage(res, status, document(`Authorize ${page.clientName}`, body));
}

/** The error page of a request that cannot be sent back to its client (unknown client or redirect URI). */
export function sendErrorPage(res: Response, status: number, error: string, description: string): void {
  const body = `<div class="card">
<h1>This authorization request cannot be completed</h1>
<p class="error" role="alert">${escapeHtml(description)}</p>
<p class="muted">Error: ${escapeHtml(error)}. Go back to the application you came from and try again, or contact its developer.</p>
</div>`;
  sendPage(res, status, document('Authorization error', body));
}
