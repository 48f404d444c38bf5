import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserAvailable, launchBrowser } from './support/browser.js';
import { killLocalServers, onWorkersDynamo, request, startLocalServer, type LocalServer } from './support/local-server.js';

/**
 * The development sign-in provider `npm start` serves (tools/local/dev-sign-in.ts): an OpenID Connect
 * provider on the server's own origin whose id_tokens the local stage trusts for zkLogin, reached over real HTTP
 * as a console program or a game would (the authorize redirect read from its Location), and its name page in a
 * real browser. Its key is kept in DATA_DIR, so a restart signs in the same players.
 */

let server: LocalServer;
let dataDir: string;

beforeAll(async () => {
  dataDir = join(mkdtempSync(join(tmpdir(), 'dev-sign-in-')), 'data');
  server = await startLocalServer({ DATA_DIR: dataDir, ...onWorkersDynamo(dataDir), SEED_ADMIN_EMAIL: '', SEED_ADMIN_PASSWORD: '', DEV_CHAIN: 'off' });
}, 120_000);
afterAll(async () => {
  await server?.stop();
  await killLocalServers();
});

const issuer = () => `${server.base}/dev-sign-in`;
const authorize = (params: Record<string, string>) =>
  fetch(
    `${issuer()}/authorize?${new URLSearchParams({ client_id: 'local-game', response_type: 'id_token', redirect_uri: 'http://127.0.0.1:9/done', ...params })}`,
    {
      redirect: 'manual',
    },
  );

/** An id_token for `name`, as a console program gets one: the redirect's fragment. */
async function idTokenOf(name: string, nonce = 'n-1'): Promise<string> {
  const answer = await authorize({ login_hint: name, nonce, state: 's-1' });
  expect(answer.status).toBe(302);
  const fragment = new URLSearchParams(new URL(answer.headers.get('location')!).hash.slice(1));
  expect(fragment.get('state')).toBe('s-1');
  return fragment.get('id_token')!;
}

describe('the development sign-in provider', () => {
  it('publishes its discovery document and key, and signs RS256 id_tokens for the local client that verify against them', async () => {
    const config = (await (await fetch(`${issuer()}/.well-known/openid-configuration`)).json()) as Record<string, unknown>;
    expect(config).toMatchObject({ issuer: issuer(), authorization_endpoint: `${issuer()}/authorize`, jwks_uri: `${issuer()}/jwks.json` });
    const { payload, protectedHeader } = await jwtVerify(await idTokenOf('alice', 'nonce-42'), createRemoteJWKSet(new URL(config.jwks_uri as string)), {
      issuer: issuer(),
      audience: 'local-game',
    });
    expect(protectedHeader.alg).toBe('RS256');
    expect(payload).toMatchObject({ sub: 'dev|alice', nonce: 'nonce-42', email: 'alice@dev-sign-in.local' });
    const keys = (await (await fetch(`${issuer()}/jwks.json`)).json()) as { keys: Record<string, unknown>[] };
    expect(keys.keys.every((key) => key.d === undefined && key.p === undefined)).toBe(true);
  });

  it('signs a local player in with zkLogin: the same name is the same address, another name another', async () => {
    const first = await request(server.base, 'POST', '/v2-testing/account/login/zk', { body: { id_token: await idTokenOf('bob') } });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ uid: expect.any(String), address: expect.stringMatching(/^0x[0-9a-f]{64}$/) });
    const again = await request(server.base, 'POST', '/v2-testing/account/login/zk', { body: { id_token: await idTokenOf('bob') } });
    expect(again.body).toMatchObject({ uid: first.body.uid, address: first.body.address });
    const other = await request(server.base, 'POST', '/v2-testing/account/login/zk', { body: { id_token: await idTokenOf('carol') } });
    expect(other.status).toBe(200);
    expect(other.body.address).not.toBe(first.body.address);
  });

  it('refuses a request it cannot answer: another client, another flow, no redirect, a name it does not take', async () => {
    expect((await authorize({ client_id: 'someone-else', login_hint: 'dave' })).status).toBe(400);
    expect((await authorize({ response_type: 'code', login_hint: 'dave' })).status).toBe(400);
    expect((await authorize({ redirect_uri: 'not a url', login_hint: 'dave' })).status).toBe(400);
    const badName = await authorize({ login_hint: '<script>' });
    expect(badName.status).toBe(400);
    expect(await badName.text()).not.toContain('<script>');
    const query = await authorize({ login_hint: 'erin', response_mode: 'query' });
    expect(new URL(query.headers.get('location')!).searchParams.get('id_token')).toMatch(/^ey/);
  });

  it.runIf(browserAvailable('dev-sign-in'))('asks a player in a browser for a name and returns to the game with an id_token', async () => {
    const browser = await launchBrowser();
    try {
      const page = await browser.newPage();
      // The game: any page of this server, which receives the id_token in its fragment.
      const back = `${server.base}/v2-testing/health`;
      await page.goto(`${issuer()}/authorize?${new URLSearchParams({ client_id: 'local-game', response_type: 'id_token', redirect_uri: back, state: 'xyz' })}`);
      await page.getByLabel('Player name').fill('frank');
      await Promise.all([page.waitForURL(`${back}#*`), page.getByRole('button', { name: 'Sign in' }).click()]);
      const fragment = new URLSearchParams(new URL(page.url()).hash.slice(1));
      expect(fragment.get('state')).toBe('xyz');
      const signedIn = await request(server.base, 'POST', '/v2-testing/account/login/zk', { body: { id_token: fragment.get('id_token') } });
      expect(signedIn.status).toBe(200);
    } finally {
      await browser.close();
    }
  });

  it('is not there with DEV_SIGN_IN=off', async () => {
    const off = await startLocalServer({
      DATA_DIR: `${dataDir}-off`,
      ...onWorkersDynamo(`${dataDir}-off`),
      SEED_ADMIN_EMAIL: '',
      SEED_ADMIN_PASSWORD: '',
      DEV_CHAIN: 'off',
      DEV_SIGN_IN: 'off',
    });
    try {
      expect((await fetch(`${off.base}/dev-sign-in/.well-known/openid-configuration`)).status).toBe(404);
      const refused = await request(off.base, 'POST', '/v2-testing/account/login/zk', { body: { id_token: await idTokenOf('gina') } });
      expect(refused.status).toBe(503);
    } finally {
      await off.stop();
    }
  }, 120_000);
});
