import type { PartnerStoreDeps } from './deps.js';
import { authorize, type AuthorizeQuery, type PendingRequest } from './authorization.js';
import { regionKey, type StoreRegion } from './regions.js';

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * authorize2: the request checked and kept (authorization.ts), answered with its consent page; the region must be
 * configured first (503). The page's headers are the route table's (functions/routes/partner-store.ts).
 */
export async function authorizationPage(deps: PartnerStoreDeps, region: StoreRegion, issuer: string, query: AuthorizeQuery): Promise<string> {
  regionKey(deps, region);
  return consentPage(await authorize(deps, region, issuer, query), `${issuer}/oauth/accept`);
}

/**
 * The consent page of a valid request. It names the app and the scopes it asks for; Allow
 * and Deny post the decision to accept with the user's store session, which the partner store's front end
 * keeps in `sessionStorage.store_session` after login, then follow the answer's `redirect_to`. No script or
 * style comes from anywhere but this page.
 */
function consentPage(pending: PendingRequest, acceptUrl: string): string {
  const scopes = pending.scope.split(' ').filter(Boolean);
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Allow ${escapeHtml(pending.client_name)}?</title></head>
<body>
<main data-request-id="${escapeHtml(pending.request_id)}" data-accept-url="${escapeHtml(acceptUrl)}">
<h1>${escapeHtml(pending.client_name)} asks to use your partner store account</h1>
<p>It asks for: ${scopes.length ? scopes.map((s) => `<code>${escapeHtml(s)}</code>`).join(', ') : 'no scope'}.</p>
<p>You will return to <code>${escapeHtml(new URL(pending.redirect_uri).origin)}</code>.</p>
<button type="button" data-decision="allow">Allow</button> <button type="button" data-decision="deny">Deny</button>
<p role="status"></p>
</main>
<script>
const main = document.querySelector('main');
const status = document.querySelector('[role=status]');
for (const button of document.querySelectorAll('button')) {
  button.addEventListener('click', async () => {
    const session = sessionStorage.getItem('store_session');
    if (!session) { status.textContent = 'Sign in to the partner store first.'; return; }
    const response = await fetch(main.dataset.acceptUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer ' + session },
      body: JSON.stringify({ request_id: main.dataset.requestId, decision: button.dataset.decision }),
    });
    const answer = await response.json();
    if (response.ok) location.assign(answer.redirect_to); else status.textContent = answer.message;
  });
}
</script>
</body>
</html>`;
}
