import { gunzipSync } from 'node:zlib';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerClient } from '../core/partner-store/clients.js';
import { CONSENT_SCRIPT } from '../core/partner-store/consent-script.js';
import { browserAvailable, launchBrowser } from './support/browser.js';
import { storeIssuerOf, storeSessionOf, storeWorld, type StoreWorld } from './support/store.js';

/**
 * authorize2's consent page (core/partner-store/consent-page.ts) under a policy that runs no inline script: the
 * page holds none (no script element without src, no event handler attribute, no style), its one script is a file
 * of its own origin served as JavaScript, and the page still works: Allow sends the user back with a code, Deny
 * with access_denied. Run by the served script against a stand-in DOM here, and in headless Chromium, which
 * enforces the page's Content-Security-Policy, when it is installed.
 */
const REDIRECT = 'https://app.example/callback';
const issuer = storeIssuerOf('default');
let world: StoreWorld;
let clientId: string;

beforeAll(async () => {
  world = await storeWorld();
  const { client } = await registerClient(world.deps, {
    region: 'default',
    type: 'public',
    name: 'Pet app',
    redirect_uris: [REDIRECT],
    scopes: ['profile', 'pets'],
  });
  clientId = client.client_id;
});

/** A fresh authorization request's URL (a valid one: the consent page answers it). */
function authorizeUrl(state: string) {
  const url = new URL(`${issuer}/oauth/authorize`);
  const query = {
    response_type: 'code',
    client_id: clientId,
    redirect_uri: REDIRECT,
    scope: 'profile pets',
    state,
    code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    code_challenge_method: 'S256',
  };
  for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
  return url.toString();
}

async function consentPage(state = 's-1') {
  const res = await world.app.request(authorizeUrl(state));
  expect(res.status).toBe(200);
  return { res, html: await res.text() };
}

describe('the consent page', () => {
  it('is served under a policy that runs scripts of its own origin only, and holds no inline script or style', async () => {
    const { res, html } = await consentPage();
    const csp = res.headers.get('content-security-policy')!;
    expect(csp.split('; ')).toEqual(expect.arrayContaining(["default-src 'none'", "script-src 'self'", "connect-src 'self'", "frame-ancestors 'none'"]));
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval/);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('cache-control')).toBe('no-store');
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.map(([, attributes, text]) => ({ attributes: attributes!.trim(), text }))).toEqual([
      { attributes: expect.stringMatching(new RegExp(`^src="${issuer}/oauth/consent\\.js\\?v=[0-9a-f]{16}"$`)), text: '' },
    ]);
    expect(html).not.toMatch(/\son\w+\s*=|<style|\sstyle\s*=/i);
  });

  it('loads its script from its own origin: served as JavaScript, never sniffed, kept a year, gzipped when asked', async () => {
    const { html } = await consentPage();
    const src = /<script src="([^"]+)">/.exec(html)![1]!;
    expect(new URL(src).origin).toBe(new URL(issuer).origin);
    const plain = await world.app.request(src);
    expect(plain.status).toBe(200);
    expect(plain.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(plain.headers.get('x-content-type-options')).toBe('nosniff');
    expect(plain.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(await plain.text()).toBe(CONSENT_SCRIPT);
    const zipped = await world.app.request(src, { headers: { 'accept-encoding': 'gzip' } });
    expect(zipped.headers.get('content-encoding')).toBe('gzip');
    expect(gunzipSync(new Uint8Array(await zipped.arrayBuffer())).toString('utf8')).toBe(CONSENT_SCRIPT);
    // The chengdu region serves it under its own issuer, for its own pages.
    expect((await world.app.request(`${storeIssuerOf('chengdu')}/oauth/consent.js`)).status).toBe(200);
  });

  /**
   * The served script run against the page's elements as stand-ins (its data attributes, its buttons and status),
   * with fetch going to the app and the session in a stand-in sessionStorage: where it sends the user, or what it
   * says.
   */
  async function runScript(html: string, session: string | null, decision: 'allow' | 'deny') {
    const src = /<script src="([^"]+)">/.exec(html)![1]!;
    const script = await (await world.app.request(src)).text();
    const dataset = {
      requestId: /data-request-id="([^"]+)"/.exec(html)![1],
      acceptUrl: /data-accept-url="([^"]+)"/.exec(html)![1],
    };
    const status = { textContent: '' };
    const clicks = new Map<string, () => Promise<void>>();
    const buttons = [...html.matchAll(/<button type="button" data-decision="(\w+)">/g)].map(([, which]) => ({
      dataset: { decision: which },
      addEventListener: (_event: string, listener: () => Promise<void>) => clicks.set(which!, listener),
    }));
    const document = {
      querySelector: (selector: string) => (selector === 'main' ? { dataset } : selector === '[role=status]' ? status : null),
      querySelectorAll: (selector: string) => (selector === 'button[data-decision]' ? buttons : []),
    };
    let assigned: string | undefined;
    const location = { assign: (url: string) => void (assigned = url) };
    const sessionStorage = { getItem: (name: string) => (name === 'store_session' ? session : null) };
    const fetch = (url: string, init: RequestInit) => world.app.request(url, init);
    new Function('document', 'sessionStorage', 'fetch', 'location', script)(document, sessionStorage, fetch, location);
    expect([...clicks.keys()].sort()).toEqual(['allow', 'deny']);
    await clicks.get(decision)!();
    return { assigned, status: status.textContent };
  }

  it('still works: Allow sends the user back with a code, Deny with access_denied, and without a session it says so', async () => {
    const session = await storeSessionOf(world.deps, world.app);
    const allowed = await runScript((await consentPage('s-allow')).html, session, 'allow');
    const back = new URL(allowed.assigned!);
    expect(`${back.origin}${back.pathname}`).toBe(REDIRECT);
    expect(Object.fromEntries(back.searchParams)).toEqual({ code: expect.any(String), state: 's-allow', iss: issuer });

    const denied = new URL((await runScript((await consentPage('s-deny')).html, session, 'deny')).assigned!);
    expect(Object.fromEntries(denied.searchParams)).toMatchObject({ error: 'access_denied', state: 's-deny' });

    expect(await runScript((await consentPage('s-none')).html, null, 'allow')).toEqual({ assigned: undefined, status: 'Sign in to the partner store first.' });
  });
});

const available = browserAvailable('consent-page');

describe.skipIf(!available)('the consent page in a browser that enforces its policy', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });

  it('Allow runs the served script and sends the user back with a code; nothing is refused by the policy', async () => {
    const session = await storeSessionOf(world.deps, world.app);
    const context = await browser.newContext();
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));
    // The issuer's origin is the app, answered in process; the partner app's callback is a stand-in page.
    await page.route(`${new URL(issuer).origin}/**`, async (route) => {
      const request = route.request();
      const res = await world.app.request(request.url(), {
        method: request.method(),
        headers: await request.allHeaders(),
        ...(request.postData() === null ? {} : { body: request.postData()! }),
      });
      await route.fulfill({ status: res.status, headers: Object.fromEntries(res.headers), body: Buffer.from(await res.arrayBuffer()) });
    });
    await page.route(`${REDIRECT}**`, (route) => route.fulfill({ status: 200, contentType: 'text/html', body: '<p>back in the app</p>' }));

    await page.goto(authorizeUrl('s-browser'));
    await page.evaluate(`sessionStorage.setItem('store_session', ${JSON.stringify(session)})`);
    await Promise.all([page.waitForURL(`${REDIRECT}**`), page.getByRole('button', { name: 'Allow' }).click()]);
    const back = new URL(page.url());
    expect(Object.fromEntries(back.searchParams)).toEqual({ code: expect.any(String), state: 's-browser', iss: issuer });
    expect(problems).toEqual([]);
    await context.close();
  });

  it('refuses a script written into the page: the policy blocks inline script', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const refused: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/.test(message.text())) refused.push(message.text());
    });
    await page.route(`${new URL(issuer).origin}/**`, async (route) => {
      const res = await world.app.request(route.request().url());
      // The page as served, with a script written into it, as an injection would.
      const html = (await res.text()).replace('</main>', '</main><script>document.title = "ran"</script>');
      await route.fulfill({ status: res.status, headers: Object.fromEntries(res.headers), body: html });
    });
    await page.goto(authorizeUrl('s-inline'));
    expect(await page.title()).toBe('Allow Pet app?');
    expect(refused.length).toBeGreaterThan(0);
    await context.close();
  });
});
