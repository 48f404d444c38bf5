import * as oauth from 'oauth4webapi';
import { beforeAll, describe, expect, it } from 'vitest';
import { registerClient } from '../core/partner-store/clients.js';
import type { OperationSpec, TokenRule } from '../core/http/operation.js';
import type { createPartnerStoreApp } from '../functions/partner-store.js';
import { partnerStoreRoutes } from '../functions/routes/partner-store.js';
import type { TestDeps } from './support/deps.js';
import { call } from './support/http.js';
import { documentErrors, servedDocument } from './support/openapi-check.js';
import { storeIssuerOf, storePathOf, storeSessionOf, storeWorld, type StoreWorld } from './support/store.js';

/**
 * A refused store bearer carries its challenge (RFC 6750 §3; OpenID Connect Core §5.3.3 for userinfo), so that
 * conforming OAuth clients read why: `Bearer realm="partner store"` alone without a token, `error="invalid_token"`
 * with a description for a token the operation does not take, `error="insufficient_scope"` and the scope for an
 * access token without it. oauth4webapi (the partner's client here) reads it as the library's challenge error.
 */
let deps: TestDeps;
let app: ReturnType<typeof createPartnerStoreApp>;
let options: StoreWorld['options'];
const document = servedDocument('/v2-testing');
const REDIRECT = 'https://app.example/callback';
const REALM = 'Bearer realm="partner store"';

beforeAll(async () => {
  ({ deps, app, options } = await storeWorld());
});

const discover = async () =>
  oauth.processDiscoveryResponse(new URL(storeIssuerOf('default')), await app.request(`${storeIssuerOf('default')}/.well-known/oauth-authorization-server`));

/** A partner app's tokens for a signed-in user, with `scope`, through authorize2, accept and the token endpoint. */
async function userTokens(scope: string) {
  const as = await discover();
  const { client: registered } = await registerClient(deps, {
    region: 'default',
    type: 'public',
    name: 'Pet app',
    redirect_uris: [REDIRECT],
    scopes: scope.split(' '),
  });
  const client = { client_id: registered.client_id, token_endpoint_auth_method: 'none' } as oauth.Client;
  const session = await storeSessionOf(deps, app);
  const verifier = oauth.generateRandomCodeVerifier();
  const url = new URL(as.authorization_endpoint!);
  for (const [name, value] of Object.entries({
    response_type: 'code',
    client_id: client.client_id,
    redirect_uri: REDIRECT,
    scope,
    state: 's',
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
  })) {
    url.searchParams.set(name, value);
  }
  const requestId = /data-request-id="([^"]+)"/.exec(await (await app.request(url)).text())![1]!;
  const accepted = await call(app, 'POST', `${storePathOf('default')}/oauth/accept`, { token: session, body: { request_id: requestId } });
  const params = oauth.validateAuthResponse(as, client, new URL(accepted.body.redirect_to), 's');
  const exchange = () => oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, REDIRECT, verifier, options);
  const tokens = await oauth.processAuthorizationCodeResponse(as, client, await exchange());
  return { as, client, session, tokens, replayCode: exchange };
}

/** What oauth4webapi makes of a refused userinfo answer: its challenge error, with the parsed challenges. */
async function userInfoChallenge(as: oauth.AuthorizationServer, client: oauth.Client, response: Response) {
  const error = await oauth.processUserInfoResponse(as, client, oauth.skipSubjectCheck, response).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(oauth.WWWAuthenticateChallengeError);
  return error as oauth.WWWAuthenticateChallengeError;
}

describe('WWW-Authenticate on refused store bearers', () => {
  it('userinfo: no token is the bare challenge; a session, a forged or revoked token is invalid_token; a token without profile is insufficient_scope', async () => {
    const { as, client, session, tokens, replayCode } = await userTokens('profile pets');
    const info = (token?: string) => app.request(as.userinfo_endpoint!, { headers: token ? { authorization: `Bearer ${token}` } : {} });

    const missing = await userInfoChallenge(as, client, await info());
    expect(missing.status).toBe(401);
    expect(missing.response.headers.get('www-authenticate')).toBe(REALM);
    expect(missing.cause).toEqual([{ scheme: 'bearer', parameters: { realm: 'partner store' } }]);
    const missingBody = await missing.response.json();
    expect(missingBody).toEqual({ statusCode: 401, message: 'Authorization: a Bearer token is required', error: 'store.token_missing' });
    expect(documentErrors(document, '/store/oauth/userinfo', 'get', 401, missingBody)).toEqual([]);

    // Another scheme is no Bearer token either (§3.1: no error code).
    const basic = await app.request(as.userinfo_endpoint!, { headers: { authorization: 'Basic YTpi' } });
    expect([basic.status, basic.headers.get('www-authenticate')]).toEqual([401, REALM]);

    const forged = `${tokens.access_token.slice(0, -4)}AAAA`;
    for (const token of [session, forged, 'not-a-jwt']) {
      const refused = await userInfoChallenge(as, client, await oauth.userInfoRequest(as, client, token, options));
      expect(refused.status).toBe(401);
      const body = (await refused.response.json()) as { message: string };
      expect(refused.cause).toEqual([{ scheme: 'bearer', parameters: { realm: 'partner store', error: 'invalid_token', error_description: body.message } }]);
      expect(body.message).toMatch(/^token is invalid here: expected an access token of http:\/\/localhost\/v2-testing\/store$/);
    }
    const malformed = await app.request(as.userinfo_endpoint!, { headers: { authorization: 'Bearer two tokens' } });
    expect(malformed.status).toBe(401);
    expect(malformed.headers.get('www-authenticate')).toBe(
      `${REALM}, error="invalid_token", error_description="Authorization: malformed Bearer credentials (expected \`Bearer <token>\`)"`,
    );

    // The token works until its code is replayed, which revokes the family (and the token with it).
    expect(
      (await oauth.processUserInfoResponse(as, client, oauth.skipSubjectCheck, await oauth.userInfoRequest(as, client, tokens.access_token, options))).sub,
    ).toEqual(expect.any(String));
    expect((await replayCode()).status).toBe(400);
    const revoked = await userInfoChallenge(as, client, await oauth.userInfoRequest(as, client, tokens.access_token, options));
    expect(revoked.cause[0]!.parameters).toEqual({ realm: 'partner store', error: 'invalid_token', error_description: 'token has been revoked' });

    // An access token without the profile scope: 403 insufficient_scope naming the scope (RFC 6750 §3.1).
    const narrow = await userTokens('pets');
    const scoped = await userInfoChallenge(
      narrow.as,
      narrow.client,
      await oauth.userInfoRequest(narrow.as, narrow.client, narrow.tokens.access_token, options),
    );
    expect(scoped.status).toBe(403);
    expect(scoped.cause[0]!.parameters).toEqual({
      realm: 'partner store',
      error: 'insufficient_scope',
      error_description: 'token: insufficient scope (needs profile)',
      scope: 'profile',
    });
    // The same through oauth4webapi's request for any protected resource.
    const pets = await oauth.protectedResourceRequest(
      narrow.tokens.access_token,
      'GET',
      new URL(`${storeIssuerOf('default')}/pets`),
      new Headers(),
      null,
      options,
    );
    expect(pets.status).toBe(200);
    await expect(
      oauth.protectedResourceRequest(
        narrow.tokens.access_token,
        'GET',
        new URL(`${storeIssuerOf('default')}/currencies/premium/balance`),
        new Headers(),
        null,
        options,
      ),
    ).rejects.toBeInstanceOf(oauth.WWWAuthenticateChallengeError);
  });

  it('every store operation that takes a bearer challenges without one and with a bad one, and its document declares the header', async () => {
    const ops = Object.values(partnerStoreRoutes.ops as Record<string, OperationSpec>).filter(
      (op): op is OperationSpec & { auth: TokenRule } => op.auth !== 'open' && op.auth.store !== undefined,
    );
    expect(ops.length).toBeGreaterThan(10);
    for (const op of ops) {
      const path = op.path.replace(/:\w+/g, 'x');
      const send = (authorization?: string) =>
        app.request(`http://localhost/v2-testing${path}`, {
          method: op.method,
          headers: { ...(authorization && { authorization }), ...(op.method === 'POST' && { 'content-type': 'application/json' }) },
          ...(op.method === 'POST' && { body: '{}' }),
        });
      const none = await send();
      expect([op.name, none.status, none.headers.get('www-authenticate')]).toEqual([op.name, 401, REALM]);
      const bad = await send('Bearer x.y.z');
      expect([op.name, bad.status, bad.headers.get('www-authenticate')]).toEqual([
        op.name,
        401,
        expect.stringMatching(/^Bearer realm="partner store", error="invalid_token", error_description="token is invalid here: /),
      ]);

      const documented = document.paths[op.path.replace('/v2-testing', '').replace(/:(\w+)/g, '{$1}')][op.method.toLowerCase()].responses;
      expect(documented['401'].headers['WWW-Authenticate'], op.name).toMatchObject({ required: true, schema: { type: 'string' } });
      const scoped = op.auth.store!.scope !== undefined && !op.auth.store!.sessionOnly;
      expect(documented['403']?.headers?.['WWW-Authenticate']?.description ?? null, op.name).toEqual(
        scoped ? expect.stringContaining(`scope="${op.auth.store!.scope}"`) : null,
      );
    }
  });
});
