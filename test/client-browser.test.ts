import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crossOrigin } from '../core/http/cross-origin.js';
import { browserAvailable, launchBrowser } from './support/browser.js';
import { demoServerEnv, killLocalServers, startLocalServer, type LocalServer } from './support/local-server.js';
import { startOAuthIssuer, type TestIssuer } from './support/oauth-issuer.js';
import { startSuiGraphQL, type SuiGraphQL } from './support/sui-graphql.js';

/**
 * The TypeScript client in a real browser, on a page of another origin than the API's (a game hosted on its
 * own site): Chromium loads the page from a loopback server of this test, the page's bundle (esbuild, for
 * browsers) signs a player in and calls `npm start`, so every call is a cross-origin one with its preflight.
 * And the answers' cross-origin headers themselves (core/http/cross-origin.ts), which API Gateway gives a
 * deployed stage (test/infra.test.ts checks its configuration).
 */
const available = browserAvailable('client-browser');

let chain: SuiGraphQL;
let issuer: TestIssuer;
let server: LocalServer;
let site: Server;
let siteOrigin: string;
let dataDir: string;

beforeAll(async () => {
  [chain, issuer] = await Promise.all([startSuiGraphQL(), startOAuthIssuer()]);
  dataDir = join(mkdtempSync(join(tmpdir(), 'client-browser-')), 'data');
  server = await startLocalServer(demoServerEnv(dataDir, chain.url, { OAUTH_PROVIDERS: JSON.stringify([issuer.provider('google', ['browser-game'])]) }));
  const bundle = await build({
    entryPoints: ['test/browser/game-page.ts'],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    write: false,
    logLevel: 'silent',
  });
  const script = bundle.outputFiles[0]!.text;
  site = createServer((request, response) => {
    if (request.url === '/game.js') return response.writeHead(200, { 'content-type': 'text/javascript' }).end(script);
    response.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>A game</title><script type="module" src="/game.js"></script>');
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  // Another origin than the API's: another host name for the same loopback address.
  siteOrigin = `http://localhost:${(site.address() as AddressInfo).port}`;
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await killLocalServers();
  await new Promise((resolve) => site?.close(resolve));
  await Promise.all([chain?.stop(), issuer?.stop()]);
});

/** The shop of the demo merchant, opened over HTTP as the console would. */
async function demoShop() {
  const { password } = JSON.parse(readFileSync(join(dataDir, 'demo-credentials.json'), 'utf8')) as { password: string };
  const call = async (path: string, body: unknown, token?: string) => {
    const res = await fetch(`${server.base}/v2-testing${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
    return (await res.json()) as { data: Record<string, unknown> };
  };
  const merchant = (await call('/merchant/login', { email: 'demo-merchant@example.com', password })).data.accessToken as string;
  const project = `browser-${Date.now().toString(36)}`;
  const receiver = `0x${'ab'.repeat(32)}`;
  await call('/merchant/projects', { project_name: project, receive_address: receiver, coin_type: '0x2::sui::SUI', precison: 9 }, merchant);
  const level = await call('/merchant/projects/levels', { project_name: project, level: 1, amount: 100_000_000, tickets: 100, status: 1 }, merchant);
  return { project, priceId: level.data.priceId as number };
}

describe('calls from other origins', () => {
  it('a preflight for a money call with its Idempotency-Key is allowed, and answers expose Retry-After', async () => {
    const preflight = await fetch(`${server.base}/v2-testing/account/game/minus_tickets`, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://game.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization,content-type,idempotency-key',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    expect(preflight.headers.get('access-control-allow-headers')?.split(',')).toEqual([...crossOrigin.allowHeaders]);
    expect(preflight.headers.get('access-control-allow-methods')?.split(',')).toEqual(expect.arrayContaining(['POST']));
    const refused = await fetch(`${server.base}/v2-testing/account/game/minus_tickets`, { method: 'POST', headers: { origin: 'https://game.example' } });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('access-control-allow-origin')).toBe('*');
    expect(refused.headers.get('access-control-expose-headers')?.split(',')).toEqual(expect.arrayContaining(['retry-after', 'www-authenticate']));
  });

  it.skipIf(!available)("a game's page on its own origin signs in and plays through the client in Chromium", async () => {
    const shop = await demoShop();
    const idToken = await issuer.sign({ aud: 'browser-game' });
    const browser: Browser = await launchBrowser();
    try {
      const page = await browser.newPage();
      const errors: string[] = [];
      page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
      const crossOriginRequests: string[] = [];
      page.on('request', (r) => r.url().startsWith(server.base) && crossOriginRequests.push(`${r.method()} ${new URL(r.url()).pathname}`));
      const state = encodeURIComponent(JSON.stringify({ base: `${server.base}/v2-testing`, idToken, ...shop }));
      await page.goto(`${siteOrigin}/#${state}`);
      const result = await page.waitForFunction(() => (globalThis as unknown as { result?: unknown }).result, undefined, { timeout: 60_000 });
      expect(await result.jsonValue()).toEqual({
        userId: expect.any(String),
        game: 'demo-arena',
        order: { status: 0, tickets: 100 },
        // The player holds no ticket yet: the refusal's code is readable across origins.
        spent: { status: 409, code: 'tickets.balance_short' },
      });
      expect(crossOriginRequests).toEqual(expect.arrayContaining(['POST /v2-testing/account/login/zk', 'POST /v2-testing/account/game/minus_tickets']));
      // A 409 shows as a failed resource load in the console; nothing else may.
      expect(errors.filter((e) => !/status of 409/.test(e))).toEqual([]);
    } finally {
      await browser.close();
    }
  });
});
