import { randomUUID } from 'node:crypto';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWTPayload } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { registerClient } from '../core/partner-store/clients.js';
import type { StoreRegion } from '../core/partner-store/regions.js';
import type { createPartnerStoreApp } from '../functions/partner-store.js';
import { itemCount, type TestDeps } from './support/deps.js';
import { storeIssuerOf, storePathOf, storeWorld } from './support/store.js';
import { call } from './support/http.js';
import { documentErrors, servedDocument } from './support/openapi-check.js';
import { scanAll } from './support/table-snapshot.js';

/**
 * Partner store users: the partner backend's signed assertion signs a user in (login), the store
 * session reads the user (getUser); each region's sessions are its own.
 */
let deps: TestDeps;
let app: ReturnType<typeof createPartnerStoreApp>;
const issuerOf = storeIssuerOf;
const pathOf = storePathOf;
const document = servedDocument('/v2-testing');

interface Partner {
  clientId: string;
  key: CryptoKey;
  region: StoreRegion;
}

async function partner(region: StoreRegion = 'default', alg: 'ES256' | 'EdDSA' = 'ES256'): Promise<Partner> {
  const { publicKey, privateKey } = await generateKeyPair(alg, { extractable: true });
  const { client } = await registerClient(deps, {
    region,
    type: 'confidential',
    name: 'Partner store backend',
    redirect_uris: ['https://partner.example/cb'],
    scopes: ['profile'],
    assertion_jwk: (await exportJWK(publicKey)) as Record<string, unknown>,
  });
  return { clientId: client.client_id, key: privateKey, region };
}

/** An assertion as the partner's backend signs it; `claims` and `seconds` change it. */
function assertion(p: Partner, sub: string, claims: JWTPayload = {}, options: { seconds?: number; key?: CryptoKey } = {}) {
  const iat = Math.floor(Date.now() / 1000);
  const payload = { iss: p.clientId, sub, aud: issuerOf(p.region), iat, exp: iat + (options.seconds ?? 120), jti: randomUUID(), name: 'Mia', ...claims };
  return new SignJWT(payload).setProtectedHeader({ alg: p.key.algorithm.name === 'Ed25519' ? 'EdDSA' : 'ES256' }).sign(options.key ?? p.key);
}

const login = async (region: StoreRegion, signed: string) => call(app, 'POST', `${pathOf(region)}/login`, { body: { assertion: signed } });

beforeAll(async () => {
  ({ deps, app } = await storeWorld());
});

describe('store login and getUser', () => {
  it("signs a partner's user in (ES256 and EdDSA): the first time creates the store user, the next finds it", async () => {
    for (const alg of ['ES256', 'EdDSA'] as const) {
      const p = await partner('default', alg);
      const sub = `user-${randomUUID()}`;
      const first = await login('default', await assertion(p, sub));
      expect(first.status).toBe(200);
      expect(first.body).toEqual({ session: expect.any(String), expires_in: 3600, uid: expect.any(String) });
      expect(documentErrors(document, '/store/login', 'post', 200, first.body)).toEqual([]);
      const again = await login('default', await assertion(p, sub));
      expect(again.body.uid).toBe(first.body.uid);

      const user = await call(app, 'GET', `${pathOf('default')}/user`, { token: first.body.session });
      expect(user.status).toBe(200);
      expect(user.body).toEqual({
        uid: first.body.uid,
        region: 'default',
        partner: p.clientId,
        partner_user_id: sub,
        name: 'Mia',
        created_at: expect.any(String),
      });
      expect(documentErrors(document, '/store/user', 'get', 200, user.body)).toEqual([]);
    }
  });

  it('refuses, writing nothing: a replayed jti, another audience, a wrong key, too long-lived, expired, an unknown partner, a client without an assertion key', async () => {
    const p = await partner();
    const stranger = await partner();
    const { client: plain } = await registerClient(deps, {
      region: 'default',
      type: 'confidential',
      name: 'no key',
      redirect_uris: ['https://p.example/cb'],
      scopes: [],
    });
    const once = await assertion(p, 'replayed');
    expect((await login('default', once)).status).toBe(200);
    const before = await itemCount(deps);
    const cases: [string, RegExp][] = [
      [once, /jti was used already/],
      [await assertion(p, 'u1', { aud: issuerOf('chengdu') }), /not valid/],
      [await assertion(p, 'u2', {}, { key: stranger.key }), /not valid/],
      [await assertion(p, 'u3', {}, { seconds: 3600 }), /more than 300 seconds/],
      [await assertion(p, 'u4', { exp: Math.floor(Date.now() / 1000) - 60 }), /not valid/],
      [await assertion({ ...p, clientId: 'sc_nobody' }, 'u5'), /not a partner client/],
      [await assertion({ ...p, clientId: plain.client_id }, 'u6'), /not a partner client/],
    ];
    for (const [signed, message] of cases) {
      const res = await login('default', signed);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ statusCode: 401, message: expect.stringMatching(message), error: 'store.assertion_invalid' });
      expect(documentErrors(document, '/store/login', 'post', 401, res.body)).toEqual([]);
    }
    expect((await login('default', 'not-a-jwt')).status).toBe(400);
    expect(await itemCount(deps)).toBe(before);
  });

  it("judges an assertion's time by this server's clock: an iat more than 60 s ahead, or an exp past the lifetime from now, is refused and no jti is kept", async () => {
    const p = await partner();
    const now = Math.floor(Date.now() / 1000);
    deps.setNow(new Date(now * 1000));
    try {
      const day = 86_400;
      const before = await scanAll(deps);
      const cases: [JWTPayload, RegExp][] = [
        // Dated ahead, each 4 minutes long: valid later, so they would be kept and used then.
        [{ iat: now + 7 * day, exp: now + 7 * day + 240 }, /iat is 604800 seconds ahead of this server's clock \(at most 60 allowed\)/],
        [{ iat: now + 30 * day, exp: now + 30 * day + 240 }, /iat is 2592000 seconds ahead/],
        [{ iat: now + 61, exp: now + 61 + 240 }, /iat is 61 seconds ahead/],
        [{ iat: now, exp: now + 3600 }, /exp is more than 300 seconds \(and 60 of clock skew\) from now/],
        [{ iat: now - 100, exp: now + 250 }, /exp is more than 300 seconds after iat/],
      ];
      for (const [times, message] of cases) {
        const res = await login('default', await assertion(p, `ahead-${randomUUID()}`, times));
        expect(res.status).toBe(401);
        expect(res.body).toEqual({ statusCode: 401, message: expect.stringMatching(message), error: 'store.assertion_invalid' });
        expect(documentErrors(document, '/store/login', 'post', 401, res.body)).toEqual([]);
      }
      expect(await scanAll(deps)).toEqual(before);
      // Within the allowance: a partner clock a minute ahead, an assertion of the full 5 minutes.
      const ahead = await login('default', await assertion(p, 'a minute ahead', { iat: now + 60, exp: now + 360 }));
      expect(ahead.status).toBe(200);
    } finally {
      deps.setNow(undefined);
    }
  });

  it("a region's session is refused by the other region, and a partner is a partner of its own region only", async () => {
    const p = await partner('default');
    const session = (await login('default', await assertion(p, 'regional'))).body.session as string;
    const other = await call(app, 'GET', `${pathOf('chengdu')}/user`, { token: session });
    expect(other.status).toBe(401);
    expect((await call(app, 'GET', `${pathOf('default')}/user`)).status).toBe(401);
    // The default region's partner signing for the chengdu issuer: chengdu has no such client.
    const cross = await login('chengdu', await assertion(p, 'regional', { aud: issuerOf('chengdu') }));
    expect(cross.status).toBe(401);
    const cd = await partner('chengdu');
    const ok = await login('chengdu', await assertion(cd, 'regional'));
    expect(ok.status).toBe(200);
    expect((await call(app, 'GET', `${pathOf('chengdu')}/user`, { token: ok.body.session })).body).toMatchObject({ region: 'chengdu', partner: cd.clientId });
  });
});
