import { randomUUID } from 'node:crypto';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import * as oauth from 'oauth4webapi';
import { beforeAll, describe, expect, it } from 'vitest';
import type { StoreRegion } from '../core/partner-store/regions.js';
import { sha256Url } from '../core/platform/digest.js';
import { createAllApps } from '../functions/apps.js';
import type { createPartnerStoreApp } from '../functions/partner-store.js';
import { itemCount, itemsOfType, type TestDeps } from './support/deps.js';
import { call } from './support/http.js';
import { accountWithToken, merchantWithToken } from './support/merchants.js';
import { documentErrors, servedDocument } from './support/openapi-check.js';
import { storeIssuerOf, storePathOf, storeWorld, type StoreWorld } from './support/store.js';

/**
 * Admins register and list the partner store's OAuth clients through the API (docs/api.md, "Partner store: the
 * authorization servers"), over real HTTP through the inner app, with the store's own app proving that what was
 * registered works: a confidential client's secret (shown once) at the token endpoint, a public client at the
 * authorization endpoint, a partner backend's assertion key at login.
 */
let deps: TestDeps;
let store: ReturnType<typeof createPartnerStoreApp>;
let inner: ReturnType<typeof createAllApps>;
let options: StoreWorld['options'];
let discover: StoreWorld['discover'];
let admin: string;
const base = '/v2-testing';
const CLIENTS = `${base}/merchant/admin/store/clients`;
const document = servedDocument(base);

beforeAll(async () => {
  ({ deps, app: store, options, discover } = await storeWorld());
  inner = createAllApps(deps);
  admin = (await accountWithToken(deps, 'admin')).token;
});

const register = (body: Record<string, unknown>, token = admin) => call(inner, 'POST', CLIENTS, { token, body });
const list = (query: Record<string, string | number>, token = admin) => call(inner, 'GET', CLIENTS, { token, query });

/** What the document says the operation answers, for each answer the tests get. */
const conforms = (method: 'get' | 'post', res: { status: number; body: unknown }) =>
  expect(documentErrors(document, '/merchant/admin/store/clients', method, res.status, res.body)).toEqual([]);

const partnerServer = (region: StoreRegion = 'default') => ({
  region,
  type: 'confidential',
  name: 'Partner server',
  redirect_uris: ['https://partner.example/cb'],
  scopes: ['currencies', 'grants'],
});

describe('store client register', () => {
  it("registers a confidential client: its secret is answered once, only its hash is stored, and it works at the region's token endpoint", async () => {
    const res = await register(partnerServer());
    expect(res.status).toBe(200);
    conforms('post', res);
    const registered = res.body.data;
    expect(registered).toEqual({
      client_id: expect.stringMatching(/^sc_[\w-]{16}$/),
      region: 'default',
      type: 'confidential',
      name: 'Partner server',
      redirect_uris: ['https://partner.example/cb'],
      scopes: ['currencies', 'grants'],
      created_at: expect.any(String),
      has_assertion_key: false,
      client_secret: expect.stringMatching(/^[\w-]{43}$/),
    });

    // The table keeps the secret's SHA-256, never the secret.
    const [item] = (await itemsOfType(deps, 'store_client')).filter((stored) => stored.client_id === registered.client_id);
    expect(item).toMatchObject({ secret_hash: sha256Url(registered.client_secret), gsi1pk: 'STORECLIENTS#default' });
    expect(JSON.stringify(item)).not.toContain(registered.client_secret);

    // The secret works: a client_credentials token of the region, with the scope registered.
    const as = await discover('default');
    const client = { client_id: registered.client_id } as oauth.Client;
    const token = await oauth.processClientCredentialsResponse(
      as,
      client,
      await oauth.clientCredentialsGrantRequest(as, client, oauth.ClientSecretBasic(registered.client_secret), { scope: 'grants' }, options),
    );
    expect(token.scope).toBe('grants');
    // Of its region only: the other region's token endpoint does not know it.
    const chengdu = await discover('chengdu');
    const refused = await oauth
      .clientCredentialsGrantRequest(chengdu, client, oauth.ClientSecretPost(registered.client_secret), {}, options)
      .then((response) => oauth.processClientCredentialsResponse(chengdu, client, response))
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    expect(refused).toMatchObject({ status: 401, error: 'invalid_client' });
  });

  it('registers a public client (loopback http and an app scheme allowed) that the authorization endpoint knows; it has no secret', async () => {
    const redirect = 'http://127.0.0.1:8765/callback';
    const res = await register({
      region: 'chengdu',
      type: 'public',
      name: '  Pet app  ',
      redirect_uris: [redirect, 'com.example.pets:/cb', 'http://localhost/cb', 'http://[::1]:9000/cb'],
      scopes: ['profile', 'pets'],
    });
    expect(res.status).toBe(200);
    conforms('post', res);
    expect(res.body.data).toMatchObject({ region: 'chengdu', type: 'public', name: 'Pet app', has_assertion_key: false });
    expect(res.body.data).not.toHaveProperty('client_secret');
    const [item] = (await itemsOfType(deps, 'store_client')).filter((stored) => stored.client_id === res.body.data.client_id);
    expect(item).not.toHaveProperty('secret_hash');

    const as = await discover('chengdu');
    const url = new URL(as.authorization_endpoint!);
    for (const [name, value] of Object.entries({
      response_type: 'code',
      client_id: res.body.data.client_id,
      redirect_uri: redirect,
      scope: 'pets',
      state: 's',
      code_challenge: await oauth.calculatePKCECodeChallenge(oauth.generateRandomCodeVerifier()),
      code_challenge_method: 'S256',
    })) {
      url.searchParams.set(name, value);
    }
    const page = await store.request(url);
    expect(page.status).toBe(200);
    expect(await page.text()).toMatch(/data-request-id="[^"]+"/);
  });

  it("registers a partner backend with an ES256 or EdDSA assertion key, which signs the backend's users in", async () => {
    for (const alg of ['ES256', 'EdDSA'] as const) {
      const { publicKey, privateKey } = await generateKeyPair(alg, { extractable: true });
      const res = await register({ ...partnerServer(), name: `Backend ${alg}`, scopes: ['profile'], assertion_jwk: await exportJWK(publicKey) });
      expect(res.status).toBe(200);
      conforms('post', res);
      expect(res.body.data).toMatchObject({ type: 'confidential', has_assertion_key: true, client_secret: expect.any(String) });
      expect(res.body.data).not.toHaveProperty('assertion_jwk');

      const iat = Math.floor(Date.now() / 1000);
      const assertion = await new SignJWT({
        iss: res.body.data.client_id,
        sub: `u-${randomUUID()}`,
        aud: storeIssuerOf('default'),
        iat,
        exp: iat + 60,
        jti: randomUUID(),
      })
        .setProtectedHeader({ alg })
        .sign(privateKey);
      const session = await call(store, 'POST', `${storePathOf('default')}/login`, { body: { assertion } });
      expect(session.status).toBe(200);
      expect(session.body.uid).toEqual(expect.any(String));
    }
  });

  it('refuses every rule with a 400 naming the field and its code, writing nothing', async () => {
    const es256 = await generateKeyPair('ES256', { extractable: true });
    const rsa = await generateKeyPair('RS256', { extractable: true });
    const publicJwk = await exportJWK(es256.publicKey);
    const good = partnerServer();
    const { region: _region, ...withoutRegion } = good;
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [withoutRegion, 'input.invalid', /^body\.region: /],
      [{ ...good, region: 'mars' }, 'input.invalid', /^body\.region: /],
      [{ ...good, type: 'secret' }, 'input.invalid', /^body\.type: /],
      [{ ...good, name: '   ' }, 'input.invalid', /^body\.name: /],
      [{ ...good, name: 'n'.repeat(101) }, 'input.invalid', /^body\.name: /],
      [{ ...good, redirect_uris: [] }, 'input.invalid', /^body\.redirect_uris: /],
      [{ ...good, redirect_uris: Array.from({ length: 11 }, (_, i) => `https://partner.example/${i}`) }, 'input.invalid', /^body\.redirect_uris: /],
      [{ ...good, redirect_uris: ['/cb'] }, 'input.invalid', /^body\.redirect_uris\.0: expected an absolute URI$/],
      [
        { ...good, redirect_uris: ['https://partner.example/cb', 'https://partner.example/cb#top'] },
        'input.invalid',
        /^body\.redirect_uris\.1: must not have a fragment$/,
      ],
      [{ ...good, redirect_uris: ['https://partner.example/cb#'] }, 'input.invalid', /^body\.redirect_uris\.0: must not have a fragment$/],
      [{ ...good, redirect_uris: ['http://partner.example/cb'] }, 'input.invalid', /^body\.redirect_uris\.0: http is for loopback addresses only/],
      [{ ...good, redirect_uris: [`https://partner.example/${'a'.repeat(2048)}`] }, 'input.invalid', /^body\.redirect_uris\.0: /],
      [{ ...good, scopes: [] }, 'input.invalid', /^body\.scopes: /],
      [{ ...good, scopes: ['profile', 'admin'] }, 'input.invalid', /^body\.scopes\.1: /],
      [{ ...good, scopes: ['profile', 'profile'] }, 'input.invalid', /^body\.scopes: each scope once$/],
      [{ ...good, assertion_jwk: 'a key' }, 'input.invalid', /^body\.assertion_jwk: /],
      [{ ...good, type: 'public', assertion_jwk: publicJwk }, 'store.assertion_key_public_client', /^body\.assertion_jwk: only a confidential client/],
      [
        { ...good, assertion_jwk: await exportJWK(es256.privateKey) },
        'store.assertion_key_invalid',
        /^body\.assertion_jwk: this JWK has a private member \(d\)/,
      ],
      [{ ...good, assertion_jwk: await exportJWK(rsa.publicKey) }, 'store.assertion_key_invalid', /^body\.assertion_jwk: kty RSA: /],
      [{ ...good, assertion_jwk: { ...publicJwk, alg: 'ES512' } }, 'store.assertion_key_invalid', /^body\.assertion_jwk: alg ES512/],
      [{ ...good, assertion_jwk: { ...publicJwk, y: publicJwk.x } }, 'store.assertion_key_invalid', /^body\.assertion_jwk: not a valid P-256 public key/],
    ];
    const before = await itemCount(deps);
    for (const [body, code, message] of cases) {
      const res = await register(body);
      expect({ body, status: res.status, error: res.body.error }).toEqual({ body, status: 400, error: code });
      expect(res.body.message).toMatch(message);
      conforms('post', res);
    }
    expect(await itemCount(deps)).toBe(before);
  });

  it("is an admin's: a studio's console token is 403 and no token 401, for both operations, writing nothing", async () => {
    const studio = await merchantWithToken(deps);
    const before = await itemCount(deps);
    const registered = await register(partnerServer(), studio.token);
    expect(registered.status).toBe(403);
    expect(registered.body.error).toBe('auth.admin_only');
    conforms('post', registered);
    const listed = await list({ region: 'default' }, studio.token);
    expect(listed.status).toBe(403);
    expect(listed.body.error).toBe('auth.admin_only');
    conforms('get', listed);
    expect((await call(inner, 'POST', CLIENTS, { body: partnerServer() })).status).toBe(401);
    expect((await call(inner, 'GET', CLIENTS, { query: { region: 'default' } })).status).toBe(401);
    expect(await itemCount(deps)).toBe(before);
  });
});

describe('store client list', () => {
  /** Every client of a region, page after page of `limit`. */
  async function everyPage(region: StoreRegion, limit: number) {
    const pages: { client_id: string }[][] = [];
    let cursor: string | undefined;
    do {
      const res = await list({ region, limit, ...(cursor ? { cursor } : {}) });
      expect(res.status).toBe(200);
      conforms('get', res);
      pages.push(res.body.data.clients);
      cursor = res.body.data.next ?? undefined;
    } while (cursor);
    return pages;
  }

  it("lists a region's clients newest first, a page at a time, without a secret or its hash", async () => {
    const region: StoreRegion = 'chengdu';
    const secrets: string[] = [];
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await register({ ...partnerServer(region), name: `Listed ${i}` });
      expect(res.status).toBe(200);
      secrets.push(res.body.data.client_secret);
      ids.push(res.body.data.client_id);
      await new Promise((resolve) => setTimeout(resolve, 3));
    }
    const first = await list({ region, limit: 2 });
    expect(first.status).toBe(200);
    conforms('get', first);
    expect(first.body.data.clients.map((c: { client_id: string }) => c.client_id)).toEqual([ids[4], ids[3]]);
    expect(first.body.data.clients[0]).toEqual({
      client_id: ids[4],
      region,
      type: 'confidential',
      name: 'Listed 4',
      redirect_uris: ['https://partner.example/cb'],
      scopes: ['currencies', 'grants'],
      created_at: expect.any(String),
      has_assertion_key: false,
    });
    expect(first.body.data.next).toEqual(expect.any(String));

    const pages = await everyPage(region, 2);
    const listed = pages.flat().map((c) => c.client_id);
    expect(listed.slice(0, 5)).toEqual([...ids].reverse());
    expect(new Set(listed).size).toBe(listed.length);
    expect(pages.every((page) => page.length <= 2)).toBe(true);
    // One page of them all says the same, and ends (next null).
    const all = await list({ region, limit: 100 });
    expect(all.body.data.clients.map((c: { client_id: string }) => c.client_id)).toEqual(listed);
    expect(all.body.data.next).toBeNull();
    // The default limit is 20.
    expect((await list({ region })).body.data.clients).toHaveLength(Math.min(20, listed.length));

    const text = JSON.stringify(pages);
    for (const secret of secrets) {
      expect(text).not.toContain(secret);
      expect(text).not.toContain(sha256Url(secret));
    }
    expect(text).not.toMatch(/secret|hash|assertion_jwk/);
    // The other region's list has none of them.
    const other = (await everyPage('default', 100)).flat().map((c) => c.client_id);
    expect(other.some((id) => ids.includes(id))).toBe(false);
  });

  it('refuses a cursor of another region or read, an altered one, and a limit or region out of range, with a 400 naming the field', async () => {
    await register(partnerServer('chengdu'));
    await register(partnerServer('chengdu'));
    const next = (await list({ region: 'chengdu', limit: 1 })).body.data.next as string;
    expect(next).toEqual(expect.any(String));
    const decoded = JSON.parse(Buffer.from(next, 'base64url').toString('utf8')) as { o: string; s: string; k: Record<string, string> };
    const encode = (value: unknown) => Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');
    const cursors = [
      ['the next of another region', { region: 'default', cursor: next }],
      ['claimed for another region', { region: 'default', cursor: encode({ ...decoded, o: 'default' }) }],
      ['of another read', { region: 'chengdu', cursor: encode({ ...decoded, s: 'deletions' }) }],
      ['a key outside the list', { region: 'chengdu', cursor: encode({ ...decoded, k: { ...decoded.k, gsi1pk: 'GAME' } }) }],
      ['a key without its sort key', { region: 'chengdu', cursor: encode({ ...decoded, k: { ...decoded.k, gsi1sk: undefined } }) }],
      [
        'moved to the top of the same list',
        { region: 'chengdu', cursor: encode({ ...decoded, k: { ...decoded.k, gsi1sk: `9999-12-31T23:59:59.999Z#${decoded.k.pk}` } }) },
      ],
      ['text that is no cursor', { region: 'chengdu', cursor: `${next.slice(0, -4)}AAAA` }],
    ] as const;
    for (const [why, query] of cursors) {
      const res = await list(query);
      expect({ why, status: res.status, error: res.body.error, message: res.body.message }).toEqual({
        why,
        status: 400,
        error: 'input.invalid',
        message: expect.stringMatching(/^query\.cursor: /),
      });
      conforms('get', res);
    }
    for (const [query, field] of [
      [{ region: 'chengdu', cursor: 'not/base64url' }, 'cursor'],
      [{ region: 'chengdu', limit: 0 }, 'limit'],
      [{ region: 'chengdu', limit: 101 }, 'limit'],
      [{ region: 'mars' }, 'region'],
      [{}, 'region'],
    ] as const) {
      const res = await list(query);
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(new RegExp(`^query\\.${field}: `));
    }
  });
});
