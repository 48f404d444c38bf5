import { randomUUID } from 'node:crypto';
import { exportJWK, generateKeyPair, SignJWT, type JWTPayload } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { registerClient } from '../core/partner-store/clients.js';
import type { createPartnerStoreApp } from '../functions/partner-store.js';
import type { TestDeps } from './support/deps.js';
import { call } from './support/http.js';
import { documentErrors, servedDocument } from './support/openapi-check.js';
import { storeIssuerOf, storePathOf, storeSessionOf, storeWorld } from './support/store.js';
import { scanAll } from './support/table-snapshot.js';

/**
 * Every value a partner store route reads by key, at its longest: 2,040 ASCII characters, and 700 "€" (2,100
 * bytes, over DynamoDB's 2,048-byte limit on a key while under 2,048 characters). Each is refused at the edge in
 * the route's own envelope, naming the field (RFC 6749 invalid_request / invalid_client on the token
 * endpoints, `{statusCode, message}` elsewhere), or is a documented refusal; never a 5xx, and nothing written.
 * Codes and refresh tokens are keyed by their SHA-256, so any length is an unknown one (invalid_grant).
 */
let deps: TestDeps;
let app: ReturnType<typeof createPartnerStoreApp>;
const document = servedDocument('/v2-testing');
const at = storePathOf('default');
const LONG = { '2,040 ASCII': 'a'.repeat(2040), '700 €': '€'.repeat(700) };

beforeAll(async () => {
  ({ deps, app } = await storeWorld());
});

const form = (path: string, body: Record<string, string>, headers: Record<string, string> = {}) =>
  call(app, 'POST', `${at}${path}`, {
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(body).toString(),
  });
/** HTTP Basic with the id and secret form-encoded (RFC 6749 §2.3.1), or as raw UTF-8 text. */
const basic = (id: string, secret: string, encode = true) => {
  const [a, b] = encode ? [encodeURIComponent(id), encodeURIComponent(secret)] : [id, secret];
  return { authorization: `Basic ${Buffer.from(`${a}:${b}`).toString('base64')}` };
};

interface Refusal {
  status: number;
  body: unknown;
  headers: Headers;
}

/** A refusal in the route's documented shape, its message naming `field`. */
function expectRefused(res: Refusal, docPath: string, method: string, status: number, body: Record<string, unknown>) {
  expect(res.status).toBe(status);
  expect(res.body).toEqual(body);
  expect(documentErrors(document, docPath, method, status, res.body)).toEqual([]);
}

describe('values read by key are bounded at the edge', () => {
  it('client ids: authorize2, the token endpoints (form and HTTP Basic) and the assertion iss', async () => {
    const { client: confidential, client_secret } = await registerClient(deps, {
      region: 'default',
      type: 'confidential',
      name: 'server',
      redirect_uris: ['https://p.example/cb'],
      scopes: ['grants'],
    });
    const before = await scanAll(deps);
    for (const [label, id] of Object.entries(LONG)) {
      // authorize2 answers a bad client here, never at a redirect URI (RFC 6749 §4.1.2.1), in the path's envelope.
      for (const region of ['default', 'chengdu'] as const) {
        const url = new URL(`${storeIssuerOf(region)}/oauth/authorize`);
        for (const [name, value] of Object.entries({
          response_type: 'code',
          client_id: id,
          state: 's',
          code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
          code_challenge_method: 'S256',
        }))
          url.searchParams.set(name, value);
        const res = await call(app, 'GET', `${url.pathname}${url.search}`);
        expectRefused(res, `${storePathOf(region).replace('/v2-testing', '')}/oauth/authorize`, 'get', 400, {
          statusCode: 400,
          message: expect.stringMatching(/^query\.client_id: Too big: expected string to have <=64 characters/),
          error: 'input.invalid',
        });
        expect(res.headers.get('location'), label).toBeNull();
      }
      // The token endpoints' form: invalid_request naming the parameter.
      for (const path of ['/oauth/token', '/oauth/server-token', '/oauth/client-token']) {
        const res = await form(path, {
          grant_type: path === '/oauth/client-token' ? 'refresh_token' : 'client_credentials',
          client_id: id,
          refresh_token: 'r',
        });
        expectRefused(res, `/store${path}`, 'post', 400, {
          error: 'invalid_request',
          error_description: expect.stringMatching(/^body\.client_id: Too big/),
          error_code: 'input.invalid',
        });
        expect(res.headers.get('cache-control')).toBe('no-store');
      }
      // HTTP Basic: invalid_client with the Basic challenge, as for any malformed Basic credentials.
      for (const path of ['/oauth/server-token', '/oauth/token']) {
        for (const encode of [true, false]) {
          const res = await form(path, { grant_type: 'client_credentials' }, basic(id, client_secret!, encode));
          expectRefused(res, `/store${path}`, 'post', 401, {
            error: 'invalid_client',
            error_description: 'Authorization: the Basic client id must be 1-64 printable ASCII characters',
            error_code: 'oauth.client_unauthenticated',
          });
          expect(res.headers.get('www-authenticate')).toBe('Basic realm="partner store", charset="UTF-8"');
        }
      }
      // The partner backend's assertion names its client in iss.
      const { privateKey } = await generateKeyPair('ES256');
      const iat = Math.floor(Date.now() / 1000);
      const assertion = await new SignJWT({ iss: id, sub: 'u', aud: storeIssuerOf('default'), iat, exp: iat + 60, jti: randomUUID() })
        .setProtectedHeader({ alg: 'ES256' })
        .sign(privateKey);
      const login = await call(app, 'POST', `${at}/login`, { body: { assertion } });
      expectRefused(login, '/store/login', 'post', 401, {
        statusCode: 401,
        message: 'assertion: iss must name a partner client of this region',
        error: 'store.assertion_invalid',
      });
    }
    // A client id of the right shape but no client is the usual answer; the real client still works.
    expect((await form('/oauth/server-token', { grant_type: 'client_credentials' }, basic('sc_nobody', 'x'))).body).toEqual({
      error: 'invalid_client',
      error_description: 'client authentication failed',
      error_code: 'oauth.client_unauthenticated',
    });
    expect(await scanAll(deps)).toEqual(before);
    expect((await form('/oauth/server-token', { grant_type: 'client_credentials' }, basic(confidential.client_id, client_secret!))).status).toBe(200);
  });

  it("codes and refresh tokens (keyed by their hash) are unknown grants; the assertion's sub and jti are bounded", async () => {
    const { client: publicApp } = await registerClient(deps, {
      region: 'default',
      type: 'public',
      name: 'app',
      redirect_uris: ['https://app.example/cb'],
      scopes: ['profile'],
    });
    const { publicKey, privateKey } = await generateKeyPair('ES256', { extractable: true });
    const { client: backend } = await registerClient(deps, {
      region: 'default',
      type: 'confidential',
      name: 'backend',
      redirect_uris: ['https://p.example/cb'],
      scopes: [],
      assertion_jwk: await exportJWK(publicKey),
    });
    const signed = (claims: JWTPayload) => {
      const iat = Math.floor(Date.now() / 1000);
      return new SignJWT({ iss: backend.client_id, sub: 'u', aud: storeIssuerOf('default'), iat, exp: iat + 60, jti: randomUUID(), ...claims })
        .setProtectedHeader({ alg: 'ES256' })
        .sign(privateKey);
    };
    const before = await scanAll(deps);
    for (const value of Object.values(LONG)) {
      for (const [path, grant] of [
        ['/oauth/token', { grant_type: 'refresh_token', refresh_token: value }],
        ['/oauth/client-token', { grant_type: 'authorization_code', code: value, redirect_uri: 'https://app.example/cb', code_verifier: 'v'.repeat(43) }],
      ] as const) {
        const res = await form(path, { ...grant, client_id: publicApp.client_id });
        expectRefused(res, `/store${path}`, 'post', 400, {
          error: 'invalid_grant',
          error_description: expect.stringMatching(/^(refresh_token|code): unknown/),
          error_code: 'oauth.grant_invalid',
        });
      }
      for (const claim of ['sub', 'jti']) {
        const res = await call(app, 'POST', `${at}/login`, { body: { assertion: await signed({ [claim]: value }) } });
        expectRefused(res, '/store/login', 'post', 401, {
          statusCode: 401,
          message: `assertion: ${claim} must be 1-128 characters`,
          error: 'store.assertion_invalid',
        });
      }
    }
    // Not text, and not a string at all.
    const malformed: [Record<string, unknown>, string][] = [
      [{ sub: 'a\uD800b' }, 'assertion: sub has a lone surrogate (not text)'],
      [{ jti: 42 }, 'assertion: jti must be a string'],
    ];
    for (const [claims, message] of malformed) {
      const res = await call(app, 'POST', `${at}/login`, { body: { assertion: await signed(claims) } });
      expectRefused(res, '/store/login', 'post', 401, { statusCode: 401, message, error: 'store.assertion_invalid' });
    }
    expect(await scanAll(deps)).toEqual(before);
    // 128 characters of each is a sign-in.
    expect((await call(app, 'POST', `${at}/login`, { body: { assertion: await signed({ sub: '€'.repeat(128), jti: '€'.repeat(128) }) } })).status).toBe(200);
  });

  it('request ids, uids, references, pet ids and Idempotency-Keys of the store operations', async () => {
    const session = await storeSessionOf(deps, app);
    const { client, client_secret } = await registerClient(deps, {
      region: 'default',
      type: 'confidential',
      name: 'grants',
      redirect_uris: ['https://p.example/cb'],
      scopes: ['grants'],
    });
    const token = (await form('/oauth/token', { grant_type: 'client_credentials' }, basic(client.client_id, client_secret!))).body.access_token as string;
    const before = await scanAll(deps);
    for (const value of Object.values(LONG)) {
      const cases: [string, string, Record<string, unknown>, string, Record<string, string>?][] = [
        ['/oauth/accept', session, { request_id: value }, 'body.request_id'],
        ['/grants', token, { uid: value, reference: 'r-1', currencies: { coin: 1 } }, 'body.uid'],
        ['/grants', token, { uid: randomUUID(), reference: value, currencies: { coin: 1 } }, 'body.reference'],
        ['/pets/feed', session, { petId: value, item: 'kibble' }, 'body.petId'],
      ];
      // A header is Latin-1 at most (fetch refuses "€" before sending): the ASCII one only.
      if (value === LONG['2,040 ASCII']) cases.push(['/pets/adopt', session, { name: 'Rex', species: 'dog' }, 'Idempotency-Key', { 'idempotency-key': value }]);
      for (const [path, bearer, body, field, headers] of cases) {
        const res = await call(app, 'POST', `${at}${path}`, { token: bearer, body, ...(headers && { headers }) });
        expectRefused(res, `/store${path}`, 'post', 400, {
          statusCode: 400,
          message: expect.stringContaining(`${field}:`),
          error: field === 'Idempotency-Key' ? 'idempotency.key_invalid' : 'input.invalid',
        });
      }
    }
    expect(await scanAll(deps)).toEqual(before);
  });
});
