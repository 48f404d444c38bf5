import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UnsecuredJWT } from 'jose';
import { computeZkLoginAddress, jwtToAddress } from '@mysten/sui/zklogin';
import { createOuterApp } from '../functions/outer.js';
import { createWithoutkeyApp } from '../functions/withoutkey.js';
import { withoutkeyRoutes } from '../functions/routes/withoutkey.js';
import { findAccount } from '../core/identity/accounts.js';
import { createIdTokenVerifier } from '../core/identity/id-tokens.js';
import { createGame } from '../core/games/games.js';
import { GameCreate } from '../core/games/models.js';
import type { Deps } from '../core/deps.js';
import { call } from './support/http.js';
import { createTestDeps, itemCount as countItems, type TestDeps } from './support/deps.js';
import { gamePayload, newCode } from './support/games.js';
import { merchantWithToken } from './support/merchants.js';
import { startOAuthIssuer, type TestIssuer } from './support/oauth-issuer.js';

let issuer: TestIssuer;
let deps: TestDeps;
const base = '/v2-testing';

beforeAll(async () => {
  issuer = await startOAuthIssuer();
  deps = await createTestDeps({ oauthProviders: [issuer.provider('google', ['client-a', 'client-b'])] });
});
afterAll(() => issuer.stop());

const loginZk = (body: unknown, on: Deps = deps) => call(createOuterApp(on), 'POST', `${base}/account/login/zk`, { body });
const zkInfo = (idToken: string | undefined, on: Deps = deps) =>
  call(createWithoutkeyApp(on), 'GET', `${base}/account/zk/info`, idToken === undefined ? {} : { token: idToken });

const itemCount = () => countItems(deps);

async function itemsWhere(attribute: string, value: string) {
  const out = await deps.db.send(
    new ScanCommand({
      TableName: deps.table,
      FilterExpression: '#a = :v',
      ExpressionAttributeNames: { '#a': attribute },
      ExpressionAttributeValues: { ':v': value },
      ConsistentRead: true,
    }),
  );
  return out.Items ?? [];
}

describe('login_zk', () => {
  it('creates the zkLogin account of a new identity and returns the token pair, uid and address', async () => {
    const sub = 'google-user-1';
    const idToken = await issuer.sign({ sub, aud: 'client-a' });
    const res = await loginZk({ id_token: idToken });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['address', 'gameToken', 'platformToken', 'uid']);
    const { uid, address, platformToken, gameToken } = res.body;

    const platform = await deps.tokens.verify(platformToken.accessToken, ['platform']);
    expect(platform.sub).toBe(uid);
    expect(platformToken.expiresAt).toBe(new Date(platform.exp * 1000).toISOString());
    const game = await deps.tokens.verify(gameToken.accessToken, ['game']);
    expect(game.sub).toBe(uid);
    expect(game.game_code).toBeUndefined();

    const account = await findAccount(deps, uid);
    expect(account).toMatchObject({ uid, wallet_address: address, wallet_type: 2, status: 1, private_key: '' });

    // The address is the one Sui derives from this token and the identity's salt, computed here independently.
    const info = await zkInfo(idToken);
    const { salt } = info.body.data;
    expect(salt).toMatch(/^\d+$/);
    expect(BigInt(salt) < 2n ** 128n).toBe(true);
    expect(address).toBe(jwtToAddress(idToken, salt, false));
    expect(address).toBe(
      computeZkLoginAddress({ claimName: 'sub', claimValue: sub, iss: issuer.issuer, aud: 'client-a', userSalt: salt, legacyAddress: false }),
    );
  });

  it('signs the same identity in again to the same user, address and salt, writing nothing', async () => {
    const sub = 'google-user-2';
    const first = await loginZk({ id_token: await issuer.sign({ sub }) });
    const { salt } = (await zkInfo(await issuer.sign({ sub }))).body.data;
    const before = await itemCount();

    const again = await loginZk({ id_token: await issuer.sign({ sub }) });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ uid: first.body.uid, address: first.body.address });
    expect((await zkInfo(await issuer.sign({ sub }))).body.data.salt).toBe(salt);
    expect(await itemCount()).toBe(before);
  });

  it('gives another client id of the same provider its own salt, address and user', async () => {
    const sub = 'google-user-3';
    const [a, b] = [await issuer.sign({ sub, aud: 'client-a' }), await issuer.sign({ sub, aud: 'client-b' })];
    const [infoA, infoB] = [(await zkInfo(a)).body.data, (await zkInfo(b)).body.data];
    expect(infoA.salt).not.toBe(infoB.salt);
    expect(infoA.address).not.toBe(infoB.address);
    const [loginA, loginB] = [await loginZk({ id_token: a }), await loginZk({ id_token: b })];
    expect(loginA.body.uid).not.toBe(loginB.body.uid);
    expect([loginA.body.address, loginB.body.address]).toEqual([infoA.address, infoB.address]);
  });

  it('accepts an aud array naming one of the stage client ids for verification, but zkLogin needs a single aud', async () => {
    const idToken = await issuer.sign({ aud: ['someone-else', 'client-b'] });
    const before = await itemCount();
    const res = await loginZk({ id_token: idToken });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ statusCode: 400, message: 'id_token: zkLogin needs an id_token with a single aud', error: 'zklogin.token_unusable' });
    expect(await itemCount()).toBe(before);
  });

  it('names the game in the game token when game_code is given, and refuses an unknown game with 404', async () => {
    const owner = await merchantWithToken(deps);
    const code = newCode('zk');
    await createGame(deps, owner.claims, GameCreate.parse(gamePayload(code)));
    const res = await loginZk({ id_token: await issuer.sign(), game_code: code });
    expect(res.status).toBe(200);
    expect((await deps.tokens.verify(res.body.gameToken.accessToken, ['game'])).game_code).toBe(code);

    const before = await itemCount();
    const missing = await loginZk({ id_token: await issuer.sign(), game_code: 'no-such-game' });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ statusCode: 404, message: 'game_code: no game no-such-game', error: 'game.not_found' });
    expect(await itemCount()).toBe(before);
  });

  it('refuses a token the circuit cannot prove (a sub past 115 characters) with 400, storing no salt', async () => {
    const idToken = await issuer.sign({ sub: 's'.repeat(116) });
    const before = await itemCount();
    for (const res of [await loginZk({ id_token: idToken }), await zkInfo(idToken)]) {
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(/^id_token: not usable for zkLogin/);
    }
    expect(await itemCount()).toBe(before);
  });

  it('refuses an ES256-signed token: the zkLogin circuit proves RS256 only', async () => {
    const before = await itemCount();
    const res = await loginZk({ id_token: await issuer.sign({ alg: 'ES256' }) });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('id_token: zkLogin needs an RS256-signed id_token');
    expect(await itemCount()).toBe(before);
  });

  it('keeps the issuer keys: later sign-ins do not fetch the JWKS again', async () => {
    await loginZk({ id_token: await issuer.sign() });
    const fetched = issuer.jwksRequests();
    for (let i = 0; i < 3; i++) expect((await loginZk({ id_token: await issuer.sign() })).status).toBe(200);
    expect(issuer.jwksRequests()).toBe(fetched);
  });
});

describe('query_zk_info', () => {
  it('creates the salt on first use; login_zk then derives the same address', async () => {
    const sub = 'google-user-4';
    const info = await zkInfo(await issuer.sign({ sub, aud: 'client-b' }));
    expect(info.status).toBe(200);
    expect(info.body).toMatchObject({ statusCode: 200, message: 'success', totalPage: 1 });
    expect(info.body.data).toEqual({
      provider: 'google',
      iss: issuer.issuer,
      aud: 'client-b',
      sub,
      salt: expect.any(String),
      address: expect.stringMatching(/^0x[0-9a-f]{64}$/),
    });
    const login = await loginZk({ id_token: await issuer.sign({ sub, aud: 'client-b' }) });
    expect(login.body.address).toBe(info.body.data.address);
  });

  it('is one route: the collection duplicate "query_zk_info Copy" is the same operation', () => {
    const routes = Object.values(withoutkeyRoutes.ops).filter((op) => op.path === '/account/zk/info');
    expect(routes.map((op) => op.name)).toEqual(['query_zk_info']);
    expect(routes[0]!.description).toContain('query_zk_info Copy');
  });

  it('needs the id_token as a bearer token', async () => {
    const res = await zkInfo(undefined);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ statusCode: 401, message: expect.stringMatching(/Bearer/), error: 'auth.token_missing' });
  });
});

describe('id_token rejections: 401 naming the failed check, nothing written', () => {
  const unsigned = () => new UnsecuredJWT({}).setIssuer(issuer.issuer).setAudience('client-a').setSubject('s').setExpirationTime('1h').encode();
  const cases: [string, () => Promise<string>, RegExp][] = [
    ['unknown issuer', () => issuer.sign({ iss: 'https://accounts.example.com' }), /unknown issuer/],
    ['bad signature (another key under the published kid)', () => issuer.sign({ forged: true }), /signature/],
    ['a kid the issuer does not publish', () => issuer.sign({ kid: 'rotated-away' }), /kid/],
    ['expired', () => issuer.sign({ expiresIn: -60 }), /expired/],
    ['wrong audience', () => issuer.sign({ aud: 'client-of-another-app' }), /audience/],
    ['no subject', () => issuer.sign({ sub: null }), /claim sub is missing/],
    // The body schema wants three non-empty segments: a junk signature carries `alg: none` past it to the verifier.
    ['alg none', async () => `${unsigned()}c2ln`, /algorithm/],
    ['not a JWT inside', async () => 'abc.def.ghi', /readable/],
  ];

  it.each(cases)('%s', async (_label, make, message) => {
    const idToken = await make();
    const before = await itemCount();
    for (const res of [await loginZk({ id_token: idToken }), await zkInfo(idToken)]) {
      expect(res.status).toBe(401);
      expect(res.body).toEqual({
        statusCode: 401,
        message: expect.stringMatching(message),
        error: message.source.includes('expired') ? 'id_token.expired' : 'id_token.invalid',
      });
    }
    expect(await itemCount()).toBe(before);
  });

  it('an unsigned token as the bearer of query_zk_info', async () => {
    const res = await zkInfo(unsigned());
    expect(res.status).toBe(401);
    expect(res.body.message).toMatch(/algorithm/);
  });
});

describe('stage and issuer availability: 503, nothing written', () => {
  it('without configured providers', async () => {
    const unconfigured = { ...deps, idTokens: createIdTokenVerifier([]) };
    const idToken = await issuer.sign();
    const before = await itemCount();
    for (const res of [await loginZk({ id_token: idToken }, unconfigured), await zkInfo(idToken, unconfigured)]) {
      expect(res.status).toBe(503);
      expect(res.body).toEqual({ statusCode: 503, message: 'zkLogin/social sign-in is not configured in this stage', error: 'sign_in.unconfigured' });
    }
    expect(await itemCount()).toBe(before);
  });

  it('when the JWKS answers after the timeout, fails or is unreachable: 503; and recovers when it answers', async () => {
    const flaky = await startOAuthIssuer();
    const on = { ...deps, idTokens: createIdTokenVerifier([flaky.provider('flaky', ['client-a'])], { timeoutMs: 200 }) };
    const idToken = await flaky.sign();
    const before = await itemCount();
    const refused = async () => {
      const res = await loginZk({ id_token: idToken }, on);
      expect(res.status).toBe(503);
      expect(res.body).toEqual({ statusCode: 503, message: "id_token: the issuer's keys could not be fetched", error: 'id_token.keys_unavailable' });
    };
    try {
      // Keys that come 1.5 s late are past the configured 200 ms: refused. Had the verifier's default (3 s) or jose's
      // (5 s) applied instead, they would have come in time and the sign-in passed. No clock is read: the client's
      // timer is set before the server's, so it fires first.
      flaky.setMode('late');
      await refused();
      flaky.setMode('error');
      await refused();
      expect(await itemCount()).toBe(before);

      flaky.setMode('ok');
      expect((await loginZk({ id_token: idToken }, on)).status).toBe(200);
    } finally {
      await flaky.stop();
    }
    const gone = { ...deps, idTokens: createIdTokenVerifier([flaky.provider('gone', ['client-a'])]) };
    const res = await loginZk({ id_token: idToken }, gone);
    expect(res.status).toBe(503);
  });
});

describe('concurrency', () => {
  it('20 parallel first uses of one identity agree on one salt', async () => {
    const idToken = await issuer.sign({ sub: 'google-user-5' });
    const results = await Promise.all(Array.from({ length: 20 }, () => zkInfo(idToken)));
    expect(results.map((r) => r.status)).toEqual(Array(20).fill(200));
    expect(new Set(results.map((r) => r.body.data.salt)).size).toBe(1);
    expect(await itemsWhere('sub', 'google-user-5')).toHaveLength(1);
  });

  it('10 parallel first sign-ins of one identity end with one user and one account', async () => {
    const idToken = await issuer.sign({ sub: 'google-user-6' });
    const results = await Promise.all(Array.from({ length: 10 }, () => loginZk({ id_token: idToken })));
    expect(results.map((r) => r.status)).toEqual(Array(10).fill(200));
    expect(new Set(results.map((r) => r.body.uid)).size).toBe(1);
    const { address } = results[0]!.body;
    expect(await itemsWhere('wallet_address', address)).toHaveLength(1);
    expect(await itemsWhere('pk', `WALLET#${address}`)).toHaveLength(1);
  });
});
