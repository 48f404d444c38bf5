import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOuterApp } from '../functions/outer.js';
import { createWithoutkeyApp } from '../functions/withoutkey.js';
import { call } from './support/http.js';
import { createTestDeps, itemCount as countItems, type TestDeps } from './support/deps.js';
import { startOAuthIssuer, type TestIssuer } from './support/oauth-issuer.js';

let issuer: TestIssuer;
let deps: TestDeps;
let app: ReturnType<typeof createWithoutkeyApp>;
let serverToken: string;
const base = '/v2-testing';

beforeAll(async () => {
  issuer = await startOAuthIssuer();
  deps = await createTestDeps({ oauthProviders: [issuer.provider('google', ['client-a'])] });
  app = createWithoutkeyApp(deps);
  serverToken = (await deps.tokens.issue('server', randomUUID(), { merchant_id: 1 })).token;
});
afterAll(() => issuer.stop());

const itemCount = () => countItems(deps);

/** A user signed in with zkLogin (so with an account and a wallet address), and a platform token. */
async function zkUser() {
  const res = await call(createOuterApp(deps), 'POST', `${base}/account/login/zk`, { body: { id_token: await issuer.sign() } });
  expect(res.status).toBe(200);
  return { uid: res.body.uid as string, address: res.body.address as string, token: res.body.platformToken.accessToken as string };
}

const bind = (token: string | undefined, idToken: string) => call(app, 'POST', `${base}/account/social/bind`, { token, body: { id_token: idToken } });
const list = (token: string | undefined) => call(app, 'GET', `${base}/account/social/bind`, { token });
const bySocialId = (token: string | undefined, provider: string, socialId: string) =>
  call(app, 'GET', `${base}/account/social`, { token, query: { provider, socialId } });

describe('social binding', () => {
  it('binds, lists, and answers a repeated binding with the first one unchanged', async () => {
    const user = await zkUser();
    expect((await list(user.token)).body).toEqual({ data: [], statusCode: 200, message: 'success', totalPage: 1 });

    const bound = await bind(user.token, await issuer.sign({ sub: 'g-100', email: 'player@example.com' }));
    expect(bound.status).toBe(200);
    expect(bound.body).toMatchObject({ statusCode: 200, message: 'success', totalPage: 1 });
    const binding = bound.body.data;
    expect(binding).toEqual({ provider: 'google', socialId: 'g-100', email: 'player@example.com', bound_at: expect.any(String) });

    const listed = await list(user.token);
    expect(listed.body.data).toEqual([binding]);

    deps.setNow(new Date(Date.now() + 10 * 60_000));
    const before = await itemCount();
    const again = await bind(user.token, await issuer.sign({ sub: 'g-100', email: 'changed@example.com' }));
    deps.setNow(undefined);
    expect(again.status).toBe(200);
    expect(again.text).toBe(bound.text);
    expect(await itemCount()).toBe(before);
  });

  it('lists every binding of the caller and only theirs', async () => {
    const [user, other] = [await zkUser(), await zkUser()];
    await bind(user.token, await issuer.sign({ sub: 'g-201' }));
    await bind(user.token, await issuer.sign({ sub: 'g-202', alg: 'ES256' }));
    await bind(other.token, await issuer.sign({ sub: 'g-203' }));
    expect((await list(user.token)).body.data.map((b: { socialId: string }) => b.socialId)).toEqual(['g-201', 'g-202']);
    expect((await list(other.token)).body.data.map((b: { socialId: string }) => b.socialId)).toEqual(['g-203']);
  });

  it('refuses a social account bound to another user with 409, writing nothing', async () => {
    const [owner, other] = [await zkUser(), await zkUser()];
    expect((await bind(owner.token, await issuer.sign({ sub: 'g-300' }))).status).toBe(200);
    const before = await itemCount();
    const refused = await bind(other.token, await issuer.sign({ sub: 'g-300' }));
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({ statusCode: 409, message: 'id_token: this google account is bound to another user', error: 'social.bound_to_other_user' });
    expect(await itemCount()).toBe(before);
    expect((await list(other.token)).body.data).toEqual([]);
  });

  it('lets one of several users binding one social account at once win', async () => {
    const users = await Promise.all(Array.from({ length: 5 }, () => zkUser()));
    const results = await Promise.all(users.map(async (user) => bind(user.token, await issuer.sign({ sub: 'g-400' }))));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409)).toHaveLength(4);
    const winner = users[results.findIndex((r) => r.status === 200)]!;
    expect((await bySocialId(serverToken, 'google', 'g-400')).body.data.uid).toBe(winner.uid);
  });

  it('needs a platform token', async () => {
    const idToken = await issuer.sign();
    const user = await zkUser();
    const game = (await deps.tokens.issue('game', user.uid)).token;
    for (const token of [undefined, game, serverToken]) {
      for (const res of [await bind(token, idToken), await list(token)]) {
        expect(res.status).toBe(401);
        expect(res.body).toEqual({ statusCode: 401, message: expect.any(String), error: token === undefined ? 'auth.token_missing' : 'auth.token_invalid' });
      }
    }
  });

  it.each([
    ['expired', () => issuer.sign({ expiresIn: -60 }), /expired/],
    ['wrong audience', () => issuer.sign({ aud: 'client-b' }), /audience/],
    ['bad signature', () => issuer.sign({ forged: true }), /signature/],
    ['unknown issuer', () => issuer.sign({ iss: 'https://accounts.example.com' }), /unknown issuer/],
  ])('refuses an id_token that is %s with 401, writing nothing', async (_label, make, message) => {
    const user = await zkUser();
    const idToken = await make();
    const before = await itemCount();
    const res = await bind(user.token, idToken);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({
      statusCode: 401,
      message: expect.stringMatching(message),
      error: message.source.includes('expired') ? 'id_token.expired' : 'id_token.invalid',
    });
    expect(await itemCount()).toBe(before);
  });
});

describe('querybysocialid', () => {
  it('finds the bound user and their wallet address for a game server', async () => {
    const user = await zkUser();
    await bind(user.token, await issuer.sign({ sub: 'g-500' }));
    const res = await bySocialId(serverToken, 'google', 'g-500');
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ uid: user.uid, provider: 'google', socialId: 'g-500', wallet_address: user.address });
  });

  it('gives a null wallet address for a user without an account yet', async () => {
    const uid = randomUUID();
    const token = (await deps.tokens.issue('platform', uid)).token;
    await bind(token, await issuer.sign({ sub: 'g-600' }));
    expect((await bySocialId(serverToken, 'google', 'g-600')).body.data).toEqual({ uid, provider: 'google', socialId: 'g-600', wallet_address: null });
  });

  it('answers 404 for an unbound social account', async () => {
    const res = await bySocialId(serverToken, 'google', 'nobody');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ statusCode: 404, message: 'no user is bound to that social account', error: 'social.not_bound' });
  });

  it('needs a server token', async () => {
    const user = await zkUser();
    for (const token of [undefined, user.token]) {
      const res = await bySocialId(token, 'google', 'g-500');
      expect(res.status).toBe(401);
    }
    expect((await bySocialId(user.token, 'google', 'g-500')).body.message).toMatch(/expected a server token/);
  });
});
