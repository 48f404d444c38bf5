import { createHash } from 'node:crypto';

/**
 * The consent page's script (consent-page.ts): Allow and Deny post the decision to accept with the user's store
 * session, which the partner store's front end keeps in `sessionStorage.store_session` after login, then follow
 * the answer's `redirect_to`. It is a file of its own, served at `<issuer>/oauth/consent.js` (the `consent
 * script` operation), so that the page's policy runs scripts from the page's origin only and none written
 * inline: text injected into the page could never run. It reads what it needs from the page's `main` element.
 */
export const CONSENT_SCRIPT = `const main = document.querySelector('main');
const status = document.querySelector('[role=status]');
for (const button of document.querySelectorAll('button[data-decision]')) {
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
`;

/** The script's version, a hash of its text: the page asks for `consent.js?v=<version>`, so a changed script is a new URL. */
export const CONSENT_SCRIPT_VERSION = createHash('sha256').update(CONSENT_SCRIPT).digest('hex').slice(0, 16);
