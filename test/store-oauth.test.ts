import { createLocalJWKSet, jwtVerify } from 'jose';
import * as oauth from 'oauth4webapi';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { registerClient } from '../core/partner-store/clients.js';
import { parseStoreKeys, type StoreRegion } from '../core/partner-store/regions.js';
import { createPartnerStoreApp } from '../functions/partner-store.js';
import { dynamoEndpoint, itemCount, type TestDeps } from './support/deps.js';
import { storeIssuerOf, storeWorld, type StoreWorld } from './support/store.js';
import { documentErrors, servedDocument } from './support/openapi-check.js';

/**
 * The partner store's authorization servers: each region's metadata, keys and token
 * endpoint, driven by a certified OAuth client library (oauth4webapi) as a partner's server would, with its
 * requests going through the app (customFetch) over the issuer's URL.
 */
let deps: TestDeps;
let app: ReturnType<typeof createPartnerStoreApp>;
const ORIGIN = 'http://localhost';
const issuerOf = storeIssuerOf;
const document = servedDocument('/v2-testing');

let options: StoreWorld['options'];

beforeAll(async () => {
  ({ deps, app, options } = await storeWorld());
});

/** The region's metadata, as a client discovers it (RFC 8414: the issuer must be the one asked for). */
async function discover(region: StoreRegion) {
  const issuer = new URL(issuerOf(region));
  return oauth.processDiscoveryResponse(issuer, await app.request(`${issuer.href}/.well-known/oauth-authorization-server`));
}

async function confidential(region: StoreRegion = 'default', scopes = ['currencies', 'items']) {
  const { client, client_secret } = await registerClient(deps, {
    region,
    type: 'confidential',
    name: 'Partner server',
    redirect_uris: ['https://partner.example/cb'],
    scopes,
  });
  return { client: { client_id: client.client_id } as oauth.Client, secret: client_secret! };
}

/**
 * The error an oauth4webapi call was refused with: RFC 6749 §5.2's body and the status; for a 401 with a
 * `WWW-Authenticate` challenge (the library reports those first), the challenge too.
 */
async function refusal(promise: Promise<unknown>) {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (error instanceof oauth.WWWAuthenticateChallengeError) {
    const body = (await error.response.json()) as { error: string };
    return { code: body.error, status: error.status, body, response: error.response, challenges: error.cause };
  }
  expect(error).toBeInstanceOf(oauth.ResponseBodyError);
  const { error: code, status, cause, response } = error as oauth.ResponseBodyError;
  return { code, status, body: cause, response, challenges: undefined };
}

describe('metadata and keys per region', () => {
  it('each region publishes its own issuer, endpoints and key (RFC 8414), in the documented shape', async () => {
    const [main, chengdu] = [await discover('default'), await discover('chengdu')];
    expect(main).toMatchObject({
      issuer: issuerOf('default'),
      token_endpoint: `${issuerOf('default')}/oauth/token`,
      grant_types_supported: ['authorization_code', 'refresh_token', 'client_credentials'],
    });
    expect(chengdu).toMatchObject({ issuer: issuerOf('chengdu'), token_endpoint: `${issuerOf('chengdu')}/oauth/token` });
    const jwks = async (region: StoreRegion) => (await (await app.request(`${issuerOf(region)}/jwks.json`)).json()) as { keys: { kid: string; x: string }[] };
    const [a, b] = [await jwks('default'), await jwks('chengdu')];
    expect(a.keys).toHaveLength(1);
    expect(a.keys[0]!.x).not.toBe(b.keys[0]!.x);
    expect(a.keys[0]).not.toHaveProperty('d');
    const res = await app.request(`${issuerOf('chengdu')}/.well-known/oauth-authorization-server`);
    expect(documentErrors(document, '/store/chengdu/.well-known/oauth-authorization-server', 'get', 200, await res.json())).toEqual([]);
  });

  it("is discovered where RFC 8414 §3.1 puts it (oauth4webapi's discoveryRequest), for this stage only", async () => {
    for (const region of ['default', 'chengdu'] as const) {
      const issuer = new URL(issuerOf(region));
      const as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { ...options, algorithm: 'oauth2' }));
      expect(as).toEqual(await discover(region));
    }
    const root = await app.request(`${ORIGIN}/.well-known/oauth-authorization-server/v2-testing/store`);
    expect(documentErrors(document, '/.well-known/oauth-authorization-server/{stage}/store', 'get', 200, await root.json())).toEqual([]);
    const other = await app.request(`${ORIGIN}/.well-known/oauth-authorization-server/prod/store`);
    expect(other.status).toBe(404);
  });

  it('answers a query parameter given twice with a 400 in its envelope naming it, at the host root and under the issuer; single unknown ones are ignored', async () => {
    for (const region of ['default', 'chengdu'] as const) {
      const suffix = region === 'default' ? '/store' : '/store/chengdu';
      const places: [string, string][] = [
        [`${ORIGIN}/.well-known/oauth-authorization-server/v2-testing${suffix}`, `/.well-known/oauth-authorization-server/{stage}${suffix}`],
        [`${issuerOf(region)}/.well-known/oauth-authorization-server`, `${suffix}/.well-known/oauth-authorization-server`],
      ];
      for (const [url, documented] of places) {
        const repeated = await app.request(`${url}?foo=1&foo=2`);
        expect(repeated.status).toBe(400);
        expect(repeated.headers.get('content-type')).toMatch(/^application\/json/);
        const body = await repeated.json();
        expect(body).toEqual({ statusCode: 400, message: 'query.foo: given more than once', error: 'input.invalid' });
        expect(documentErrors(document, documented, 'get', 400, body)).toEqual([]);
        expect(document.paths[documented].get.responses['400'].description).toContain('a query parameter is given more than once');
        const single = await app.request(`${url}?foo=1&bar=2`);
        expect(single.status).toBe(200);
        expect(await single.json()).toEqual(await discover(region));
      }
    }
  });

  it('answers 503 in its envelope when the stage has no store keys', async () => {
    const bare = createPartnerStoreApp({ ...deps, storeKeys: undefined });
    const res = await bare.request(`${issuerOf('default')}/jwks.json`);
    expect(res.status).toBe(503);
    const token = await bare.request(`${issuerOf('default')}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials',
    });
    expect(token.status).toBe(503);
    expect(await token.json()).toEqual({
      error: 'temporarily_unavailable',
      error_description: expect.stringMatching(/StoreKeys/),
      error_code: 'store.unconfigured',
    });
  });
});

describe('client credentials (clientToken_serve, tokens)', () => {
  it('a confidential client gets an access token with client_secret_basic and client_secret_post; it verifies with the region key only', async () => {
    const as = await discover('default');
    const { client, secret } = await confidential();
    for (const auth of [oauth.ClientSecretBasic(secret), oauth.ClientSecretPost(secret)]) {
      const response = await oauth.clientCredentialsGrantRequest(as, client, auth, { scope: 'currencies' }, options);
      expect(response.headers.get('cache-control')).toBe('no-store');
      const token = await oauth.processClientCredentialsResponse(as, client, response);
      expect(token).toMatchObject({ token_type: 'bearer', expires_in: 3600, scope: 'currencies' });
      expect(token.refresh_token).toBeUndefined();
      const keys = createLocalJWKSet((await (await app.request(as.jwks_uri!)).json()) as never);
      const { payload, protectedHeader } = await jwtVerify(token.access_token, keys, { issuer: as.issuer, audience: 'store' });
      expect(protectedHeader.typ).toBe('at+jwt');
      expect(payload).toMatchObject({ sub: client.client_id, client_id: client.client_id, scope: 'currencies' });
      const chengduKeys = createLocalJWKSet((await (await app.request(`${issuerOf('chengdu')}/jwks.json`)).json()) as never);
      await expect(jwtVerify(token.access_token, chengduKeys)).rejects.toThrow();
    }
    // server-token is the same grant for confidential servers; with no scope asked, all of the client's.
    const served = await app.request(`${issuerOf('default')}/oauth/server-token`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${client.client_id}:${secret}`).toString('base64')}`,
      },
      body: 'grant_type=client_credentials',
    });
    expect(served.status).toBe(200);
    const body = await served.json();
    expect(body).toMatchObject({ token_type: 'Bearer', scope: 'currencies items' });
    expect(documentErrors(document, '/store/oauth/server-token', 'post', 200, body)).toEqual([]);
  });

  it('refuses a wrong secret, an unknown client and a client of the other region (invalid_client, 401, a Basic challenge for Basic)', async () => {
    const as = await discover('default');
    const { client, secret } = await confidential();
    const chengduClient = await confidential('chengdu');
    const before = await itemCount(deps);
    for (const [c, auth, basic] of [
      [client, oauth.ClientSecretBasic(`${secret}x`), true],
      [client, oauth.ClientSecretPost('wrong'), false],
      [{ client_id: 'sc_unknown' }, oauth.ClientSecretBasic('whatever'), true],
      [chengduClient.client, oauth.ClientSecretBasic(chengduClient.secret), true],
    ] as const) {
      const { code, status, body, response } = await refusal(
        oauth.clientCredentialsGrantRequest(as, c, auth, {}, options).then((r) => oauth.processClientCredentialsResponse(as, c, r)),
      );
      expect({ code, status }).toEqual({ code: 'invalid_client', status: 401 });
      expect(body).toEqual({ error: 'invalid_client', error_description: 'client authentication failed', error_code: 'oauth.client_unauthenticated' });
      // RFC 6749 §5.2: a client that tried HTTP Basic is challenged with the scheme it used.
      expect(response.headers.get('www-authenticate')).toBe(basic ? 'Basic realm="partner store", charset="UTF-8"' : null);
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(documentErrors(document, '/store/oauth/token', 'post', 401, body)).toEqual([]);
    }
    // The chengdu client at its own region's endpoint is fine.
    const cd = await discover('chengdu');
    const ok = await oauth.processClientCredentialsResponse(
      cd,
      chengduClient.client,
      await oauth.clientCredentialsGrantRequest(cd, chengduClient.client, oauth.ClientSecretBasic(chengduClient.secret), {}, options),
    );
    expect(ok.access_token).toBeTruthy();
    expect(await itemCount(deps)).toBe(before);
  });

  it('answers each RFC 6749 §5.2 error: public client, unknown scope, unsupported grant, missing grant, both auth methods, a parameter twice, a JSON body', async () => {
    const as = await discover('default');
    const { client, secret } = await confidential('default', ['currencies']);
    const { client: publicClient } = await registerClient(deps, {
      region: 'default',
      type: 'public',
      name: 'Partner app',
      redirect_uris: ['https://partner.example/cb'],
      scopes: ['pets'],
    });
    const post = (body: string, headers: Record<string, string> = {}) =>
      app.request(`${issuerOf('default')}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, body });
    const expectError = async (res: Response, status: number, error: string, errorCode: string) => {
      expect(res.status).toBe(status);
      expect(res.headers.get('cache-control')).toBe('no-store');
      const body = await res.json();
      expect(body).toEqual({ error, error_description: expect.any(String), error_code: errorCode });
      expect(documentErrors(document, '/store/oauth/token', 'post', status, body)).toEqual([]);
    };
    const basic = { authorization: `Basic ${Buffer.from(`${client.client_id}:${secret}`).toString('base64')}` };
    await expectError(await post(`grant_type=client_credentials&client_id=${publicClient.client_id}`), 400, 'unauthorized_client', 'oauth.client_unauthorized');
    await expectError(await post('grant_type=client_credentials&scope=pets', basic), 400, 'invalid_scope', 'oauth.scope_invalid');
    await expectError(await post('grant_type=password&username=a&password=b', basic), 400, 'unsupported_grant_type', 'oauth.grant_type_unsupported');
    await expectError(await post('scope=currencies', basic), 400, 'invalid_request', 'oauth.request_invalid');
    await expectError(await post(`grant_type=client_credentials&client_secret=${secret}`, basic), 400, 'invalid_request', 'oauth.request_invalid');
    await expectError(await post('grant_type=client_credentials&grant_type=client_credentials', basic), 400, 'invalid_request', 'input.invalid');
    const json = await app.request(`${issuerOf('default')}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...basic },
      body: '{"grant_type":"client_credentials"}',
    });
    await expectError(json, 415, 'invalid_request', 'body.unsupported_type');
    // Through the library: the scope refusal surfaces as the RFC's error.
    const { code } = await refusal(
      oauth
        .clientCredentialsGrantRequest(as, client, oauth.ClientSecretPost(secret), { scope: 'items' }, options)
        .then((r) => oauth.processClientCredentialsResponse(as, client, r)),
    );
    expect(code).toBe('invalid_scope');
  });
});

describe('npm run admin -- store commands', () => {
  const run = (args: string[]) => promisify(execFile)('npx', ['tsx', 'tools/admin/cli.ts', ...args], { cwd: process.cwd() });

  it('generates region keys and registers a confidential client whose secret works once shown', async () => {
    const keys = await run(['generate-store-keys']);
    const parsed = await parseStoreKeys(keys.stdout);
    expect(parsed.default.jwk.x).not.toBe(parsed.chengdu.jwk.x);
    expect(keys.stderr).not.toContain('"d"');

    const where = ['--table', deps.table, '--endpoint', dynamoEndpoint()];
    const registered = await run([
      'register-store-client',
      '--region',
      'default',
      '--type',
      'confidential',
      '--name',
      'CLI partner',
      '--redirect-uri',
      'https://cli.example/cb',
      '--scope',
      'currencies',
      ...where,
    ]);
    const { client_id, client_secret } = JSON.parse(registered.stdout) as { client_id: string; client_secret: string };
    expect(registered.stderr).toContain(client_id);
    expect(registered.stderr).not.toContain(client_secret);
    const as = await discover('default');
    const token = await oauth.processClientCredentialsResponse(
      as,
      { client_id },
      await oauth.clientCredentialsGrantRequest(as, { client_id }, oauth.ClientSecretPost(client_secret), {}, options),
    );
    expect(token.scope).toBe('currencies');
    await expect(run(['register-store-client', '--region', 'mars', '--type', 'public', '--name', 'x', ...where])).rejects.toMatchObject({
      stderr: expect.stringContaining('--region'),
    });
  }, 60_000);
});
