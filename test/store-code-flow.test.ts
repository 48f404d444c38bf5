import * as oauth from 'oauth4webapi';
import { beforeAll, describe, expect, it } from 'vitest';
import { registerClient } from '../core/partner-store/clients.js';
import type { StoreRegion } from '../core/partner-store/regions.js';
import type { createPartnerStoreApp } from '../functions/partner-store.js';
import type { TestDeps } from './support/deps.js';
import { storeIssuerOf, storeSessionOf, storeWorld, type StoreWorld } from './support/store.js';
import { documentErrors, servedDocument } from './support/openapi-check.js';

/**
 * The authorization code flow with PKCE, refresh token rotation and every RFC 6749 error case,
 * driven by oauth4webapi as a partner app would; the store user signs in with the partner's assertion and
 * consents through accept, as the consent page does.
 */
let deps: TestDeps;
let app: ReturnType<typeof createPartnerStoreApp>;
const issuerOf = storeIssuerOf;
const REDIRECT = 'https://app.example/callback';
const document = servedDocument('/v2-testing');
let options: StoreWorld['options'];

beforeAll(async () => {
  ({ deps, app, options } = await storeWorld());
});

const discover = async (region: StoreRegion) =>
  oauth.processDiscoveryResponse(new URL(issuerOf(region)), await app.request(`${issuerOf(region)}/.well-known/oauth-authorization-server`));

const storeSession = (region: StoreRegion = 'default') => storeSessionOf(deps, app, region);

async function publicApp(region: StoreRegion = 'default') {
  const { client } = await registerClient(deps, {
    region,
    type: 'public',
    name: 'Pet app',
    redirect_uris: [REDIRECT, 'com.example.pets:/cb'],
    scopes: ['profile', 'pets'],
  });
  return { client_id: client.client_id, token_endpoint_auth_method: 'none' } as oauth.Client;
}

/** The front channel as a browser and the consent page go through it: the redirect the user comes back with. */
async function authorizeAndAccept(region: StoreRegion, client: oauth.Client, session: string, params: Record<string, string> = {}) {
  const as = await discover(region);
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const url = new URL(as.authorization_endpoint!);
  const query = {
    response_type: 'code',
    client_id: client.client_id,
    redirect_uri: REDIRECT,
    scope: 'profile pets',
    state,
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    ...params,
  };
  for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
  const page = await app.request(url);
  expect(page.status).toBe(200);
  expect(page.headers.get('content-type')).toMatch(/^text\/html/);
  const html = await page.text();
  const requestId = /data-request-id="([^"]+)"/.exec(html)![1]!;
  expect(html).toContain('Pet app');
  const accepted = await app.request(/data-accept-url="([^"]+)"/.exec(html)![1]!, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${session}` },
    body: JSON.stringify({ request_id: requestId, decision: 'allow' }),
  });
  expect(accepted.status).toBe(200);
  const { redirect_to } = (await accepted.json()) as { redirect_to: string };
  return { as, verifier, state, callback: new URL(redirect_to) };
}

async function exchange(
  as: oauth.AuthorizationServer,
  client: oauth.Client,
  auth: oauth.ClientAuth,
  callback: URL,
  state: string,
  verifier: string,
  redirect = REDIRECT,
) {
  const params = oauth.validateAuthResponse(as, client, callback, state);
  return oauth.processAuthorizationCodeResponse(as, client, await oauth.authorizationCodeGrantRequest(as, client, auth, params, redirect, verifier, options));
}

async function invalidGrant(promise: Promise<unknown>) {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(oauth.ResponseBodyError);
  expect((error as oauth.ResponseBodyError).error).toBe('invalid_grant');
  expect(documentErrors(document, '/store/oauth/token', 'post', 400, (error as oauth.ResponseBodyError).cause)).toEqual([]);
}

const getUser = (region: StoreRegion, token: string) => app.request(`${issuerOf(region)}/user`, { headers: { authorization: `Bearer ${token}` } });

describe('authorization code with PKCE (authorize2, accept, tokens)', () => {
  it('a public app gets tokens for the user, reads the user with the profile scope, and refreshes with rotation', async () => {
    const client = await publicApp();
    const session = await storeSession();
    const { as, verifier, state, callback } = await authorizeAndAccept('default', client, session);
    expect(callback.searchParams.get('iss')).toBe(issuerOf('default'));
    const tokens = await exchange(as, client, oauth.None(), callback, state, verifier);
    expect(tokens).toMatchObject({ token_type: 'bearer', expires_in: 3600, scope: 'profile pets', refresh_token: expect.any(String) });
    const user = await getUser('default', tokens.access_token);
    expect(user.status).toBe(200);
    const me = await (await getUser('default', session)).json();
    expect(await user.json()).toEqual(me);

    const refreshed = await oauth.processRefreshTokenResponse(
      as,
      client,
      await oauth.refreshTokenGrantRequest(as, client, oauth.None(), tokens.refresh_token!, options),
    );
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
    expect((await getUser('default', refreshed.access_token)).status).toBe(200);
    // The first refresh token again: reuse, so the whole family is revoked, the new tokens too.
    await invalidGrant(
      oauth.refreshTokenGrantRequest(as, client, oauth.None(), tokens.refresh_token!, options).then((r) => oauth.processRefreshTokenResponse(as, client, r)),
    );
    expect((await getUser('default', refreshed.access_token)).status).toBe(401);
    expect((await getUser('default', tokens.access_token)).status).toBe(401);
    await invalidGrant(
      oauth.refreshTokenGrantRequest(as, client, oauth.None(), refreshed.refresh_token!, options).then((r) => oauth.processRefreshTokenResponse(as, client, r)),
    );
  });

  it("userInfo answers the token user's claims (OIDC style, checked by oauth4webapi); clientToken is the public apps' token endpoint", async () => {
    const client = await publicApp();
    const session = await storeSession();
    const me = (await (await getUser('default', session)).json()) as { uid: string; partner: string; partner_user_id: string };
    const { as, verifier, state, callback } = await authorizeAndAccept('default', client, session);
    // The same exchange through client-token, the endpoint for public apps.
    const publicAs = { ...as, token_endpoint: `${issuerOf('default')}/oauth/client-token` };
    const tokens = await exchange(publicAs, client, oauth.None(), callback, state, verifier);
    const info = await oauth.processUserInfoResponse(as, client, me.uid, await oauth.userInfoRequest(as, client, tokens.access_token, options));
    expect(info).toEqual({ sub: me.uid, name: null, partner: me.partner, partner_user_id: me.partner_user_id });
    expect(documentErrors(document, '/store/oauth/userinfo', 'get', 200, info)).toEqual([]);
    // The session is not an access token; a confidential client is sent to the token endpoint.
    expect((await app.request(`${issuerOf('default')}/oauth/userinfo`, { headers: { authorization: `Bearer ${session}` } })).status).toBe(401);
    const { client: secretClient, client_secret } = await registerClient(deps, {
      region: 'default',
      type: 'confidential',
      name: 'Pet app',
      redirect_uris: [REDIRECT],
      scopes: ['profile'],
    });
    const refused = await app.request(`${issuerOf('default')}/oauth/client-token`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${secretClient.client_id}:${client_secret}`).toString('base64')}`,
      },
      body: 'grant_type=refresh_token&refresh_token=x',
    });
    expect(refused.status).toBe(401);
    expect(((await refused.json()) as { error: string }).error).toBe('invalid_client');
  });

  it('a confidential app authenticates at the token endpoint (Basic); a narrower scope on refresh, never a wider one', async () => {
    const { client: registered, client_secret } = await registerClient(deps, {
      region: 'default',
      type: 'confidential',
      name: 'Pet app',
      redirect_uris: [REDIRECT],
      scopes: ['profile', 'pets'],
    });
    const client = { client_id: registered.client_id } as oauth.Client;
    const { as, verifier, state, callback } = await authorizeAndAccept('default', client, await storeSession());
    const tokens = await exchange(as, client, oauth.ClientSecretBasic(client_secret!), callback, state, verifier);
    const narrower = await oauth.processRefreshTokenResponse(
      as,
      client,
      await oauth.refreshTokenGrantRequest(as, client, oauth.ClientSecretBasic(client_secret!), tokens.refresh_token!, {
        ...options,
        additionalParameters: { scope: 'pets' },
      }),
    );
    expect(narrower.scope).toBe('pets');
    expect((await getUser('default', narrower.access_token)).status).toBe(403);
    const wider = await oauth.refreshTokenGrantRequest(as, client, oauth.ClientSecretBasic(client_secret!), narrower.refresh_token!, {
      ...options,
      additionalParameters: { scope: 'pets profile' },
    });
    expect(((await wider.json()) as { error: string }).error).toBe('invalid_scope');
  });

  it('refuses a wrong verifier, a wrong redirect URI, an expired code; a reused code revokes what its first use issued', async () => {
    const client = await publicApp();
    const session = await storeSession();
    const wrongVerifier = await authorizeAndAccept('default', client, session);
    await invalidGrant(exchange(wrongVerifier.as, client, oauth.None(), wrongVerifier.callback, wrongVerifier.state, oauth.generateRandomCodeVerifier()));

    const wrongRedirect = await authorizeAndAccept('default', client, session);
    await invalidGrant(
      exchange(wrongRedirect.as, client, oauth.None(), wrongRedirect.callback, wrongRedirect.state, wrongRedirect.verifier, 'com.example.pets:/cb'),
    );

    const expired = await authorizeAndAccept('default', client, session);
    deps.setNow(new Date(Date.now() + 61_000));
    try {
      await invalidGrant(exchange(expired.as, client, oauth.None(), expired.callback, expired.state, expired.verifier));
    } finally {
      deps.setNow(undefined);
    }

    const reused = await authorizeAndAccept('default', client, session);
    const first = await exchange(reused.as, client, oauth.None(), reused.callback, reused.state, reused.verifier);
    expect((await getUser('default', first.access_token)).status).toBe(200);
    await invalidGrant(exchange(reused.as, client, oauth.None(), reused.callback, reused.state, reused.verifier));
    expect((await getUser('default', first.access_token)).status).toBe(401);
    await invalidGrant(
      oauth
        .refreshTokenGrantRequest(reused.as, client, oauth.None(), first.refresh_token!, options)
        .then((r) => oauth.processRefreshTokenResponse(reused.as, client, r)),
    );
  });

  it("one region's codes, tokens and clients are refused by the other", async () => {
    const client = await publicApp('default');
    const { as, verifier, state, callback } = await authorizeAndAccept('default', client, await storeSession('default'));
    const chengdu = await discover('chengdu');
    // The default region's code at chengdu's token endpoint: chengdu has no such client.
    const cross = await oauth.authorizationCodeGrantRequest(
      chengdu,
      client,
      oauth.None(),
      oauth.validateAuthResponse(as, client, callback, state),
      REDIRECT,
      verifier,
      options,
    );
    expect(cross.status).toBe(401);
    expect(((await cross.json()) as { error: string }).error).toBe('invalid_client');
    const tokens = await exchange(as, client, oauth.None(), callback, state, verifier);
    expect((await getUser('chengdu', tokens.access_token)).status).toBe(401);
    // And the chengdu flow works on its own.
    const cdClient = await publicApp('chengdu');
    const cd = await authorizeAndAccept('chengdu', cdClient, await storeSession('chengdu'));
    const cdTokens = await exchange(cd.as, cdClient, oauth.None(), cd.callback, cd.state, cd.verifier);
    expect((await getUser('chengdu', cdTokens.access_token)).status).toBe(200);
    expect((await getUser('default', cdTokens.access_token)).status).toBe(401);
  });

  it('authorize2 errors: a bad client or redirect URI is a 400 here; the rest redirect with error, state and iss; deny is access_denied', async () => {
    const client = await publicApp();
    const as = await discover('default');
    const authorize = (params: Record<string, string>) => {
      const url = new URL(as.authorization_endpoint!);
      const base = {
        response_type: 'code',
        client_id: client.client_id,
        redirect_uri: REDIRECT,
        state: 's-1',
        code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
        code_challenge_method: 'S256',
      };
      for (const [name, value] of Object.entries({ ...base, ...params })) if (value !== '') url.searchParams.set(name, value);
      return app.request(url);
    };
    for (const params of [{ client_id: 'sc_nobody' }, { redirect_uri: 'https://evil.example/cb' }, { redirect_uri: `${REDIRECT}/` }] as Record<
      string,
      string
    >[]) {
      const res = await authorize(params);
      expect(res.status).toBe(400);
      expect(res.headers.get('location')).toBeNull();
    }
    for (const [params, error] of [
      [{ response_type: 'token' }, 'unsupported_response_type'],
      [{ code_challenge_method: 'plain' }, 'invalid_request'],
      [{ code_challenge: '' }, 'invalid_request'],
      [{ scope: 'pets admin' }, 'invalid_scope'],
    ] as const) {
      const res = await authorize(params);
      expect(res.status).toBe(302);
      const location = new URL(res.headers.get('location')!);
      expect(`${location.origin}${location.pathname}`).toBe(REDIRECT);
      expect(Object.fromEntries(location.searchParams)).toEqual({ error, error_description: expect.any(String), state: 's-1', iss: issuerOf('default') });
      expect(() => oauth.validateAuthResponse(as, client, location, 's-1')).toThrow(oauth.AuthorizationResponseError);
    }
    // Denied: the app hears access_denied, and the request cannot be accepted afterwards.
    const page = await (await authorize({})).text();
    const requestId = /data-request-id="([^"]+)"/.exec(page)![1]!;
    const session = await storeSession();
    const decide = (decision: string) =>
      app.request(`${issuerOf('default')}/oauth/accept`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${session}` },
        body: JSON.stringify({ request_id: requestId, decision }),
      });
    const denied = await decide('deny');
    const deniedTo = new URL(((await denied.json()) as { redirect_to: string }).redirect_to);
    expect(deniedTo.searchParams.get('error')).toBe('access_denied');
    expect((await decide('allow')).status).toBe(404);
  });
});
