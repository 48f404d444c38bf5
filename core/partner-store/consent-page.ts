import type { PartnerStoreDeps } from './deps.js';
import { authorize, type AuthorizeQuery, type PendingRequest } from './authorization.js';
import { CONSENT_SCRIPT_VERSION } from './consent-script.js';
import { regionKey, type StoreRegion } from './regions.js';

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * authorize2: the request checked and kept (authorization.ts), answered with its consent page; the region must be
 * configured first (503). The page's headers are the route table's (functions/routes/partner-store.ts).
 */
export async function authorizationPage(deps: PartnerStoreDeps, region: StoreRegion, issuer: string, query: AuthorizeQuery): Promise<string> {
  regionKey(deps, region);
  return consentPage(await authorize(deps, region, issuer, query), issuer);
}

/**
 * The consent page of a valid request. It names the app and the scopes it asks for; Allow and Deny are run by
 * the consent script (consent-script.ts), loaded from the issuer, the page's own origin: the page holds no script
 * and no style, so its policy (functions/routes/partner-store.ts) allows none written inline.
 */
function consentPage(pending: PendingRequest, issuer: string): string {
  const scopes = pending.scope.split(' ').filter(Boolean);
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Allow ${escapeHtml(pending.client_name)}?</title></head>
<body>
<main data-request-id="${escapeHtml(pending.request_id)}" data-accept-url="${escapeHtml(`${issuer}/oauth/accept`)}">
<h1>${escapeHtml(pending.client_name)} asks to use your partner store account</h1>
<p>It asks for: ${scopes.length ? scopes.map((s) => `<code>${escapeHtml(s)}</code>`).join(', ') : 'no scope'}.</p>
<p>You will return to <code>${escapeHtml(new URL(pending.redirect_uri).origin)}</code>.</p>
<button type="button" data-decision="allow">Allow</button> <button type="button" data-decision="deny">Deny</button>
<p role="status"></p>
</main>
<script src="${escapeHtml(`${issuer}/oauth/consent.js?v=${CONSENT_SCRIPT_VERSION}`)}"></script>
</body>
</html>`;
}
