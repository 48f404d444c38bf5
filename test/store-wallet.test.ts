import { randomUUID } from 'node:crypto';
import { decodeJwt, exportJWK, generateKeyPair, SignJWT } from 'jose';
import * as oauth from 'oauth4webapi';
import { beforeAll, describe, expect, it } from 'vitest';
import { registerClient } from '../core/partner-store/clients.js';
import type { StoreRegion } from '../core/partner-store/regions.js';
import type { createPartnerStoreApp } from '../functions/partner-store.js';
import { itemCount, type TestDeps } from './support/deps.js';
import { storeIssuerOf, storePathOf, storeWorld, type StoreWorld } from './support/store.js';
import { call } from './support/http.js';
import { ledgerMismatches } from './support/ledgers.js';
import { documentErrors, servedDocument } from './support/openapi-check.js';
import { scanAll } from './support/table-snapshot.js';

/**
 * A store user's currencies and items: the catalogue, balances read with the store session, and the
 * partner backend's grants (its client_credentials token), credited once per reference.
 */
let deps: TestDeps;
let app: ReturnType<typeof createPartnerStoreApp>;
const issuerOf = storeIssuerOf;
const pathOf = storePathOf;
const document = servedDocument('/v2-testing');
let options: StoreWorld['options'];

beforeAll(async () => {
  ({ deps, app, options } = await storeWorld());
});

/** The partner backend of a region: it signs users in and grants them currencies and items with its own token. */
async function partnerBackend(region: StoreRegion = 'default', scopes = ['grants']) {
  const { publicKey, privateKey } = await generateKeyPair('ES256', { extractable: true });
  const { client, client_secret } = await registerClient(deps, {
    region,
    type: 'confidential',
    name: 'backend',
    redirect_uris: ['https://store.example/cb'],
    scopes,
    assertion_jwk: (await exportJWK(publicKey)) as Record<string, unknown>,
  });
  const as = await oauth.processDiscoveryResponse(new URL(issuerOf(region)), await app.request(`${issuerOf(region)}/.well-known/oauth-authorization-server`));
  const c = { client_id: client.client_id };
  const token = (
    await oauth.processClientCredentialsResponse(as, c, await oauth.clientCredentialsGrantRequest(as, c, oauth.ClientSecretBasic(client_secret!), {}, options))
  ).access_token;
  const signIn = async () => {
    const iat = Math.floor(Date.now() / 1000);
    const assertion = await new SignJWT({ iss: client.client_id, sub: `u-${randomUUID()}`, aud: issuerOf(region), iat, exp: iat + 60, jti: randomUUID() })
      .setProtectedHeader({ alg: 'ES256' })
      .sign(privateKey);
    return (await call(app, 'POST', `${pathOf(region)}/login`, { body: { assertion } })).body as { session: string; uid: string };
  };
  return { token, signIn };
}

describe('currencies and items', () => {
  it('lists the currencies openly; a new user holds nothing', async () => {
    const list = await call(app, 'GET', `${pathOf('default')}/currencies`);
    expect(list.body).toEqual({
      currencies: [
        { code: 'coin', kind: 'soft', name: 'Coins' },
        { code: 'gem', kind: 'premium', name: 'Gems' },
      ],
    });
    expect(documentErrors(document, '/store/currencies', 'get', 200, list.body)).toEqual([]);
    const { signIn } = await partnerBackend();
    const user = await signIn();
    const premium = await call(app, 'GET', `${pathOf('default')}/currencies/premium/balance`, { token: user.session });
    expect(premium.body).toEqual({ currency: 'gem', balance: 0 });
    const items = await call(app, 'GET', `${pathOf('default')}/balances/items`, { token: user.session });
    expect(items.body.items.map((i: { balance: number }) => i.balance)).toEqual([0, 0, 0]);
    expect(documentErrors(document, '/store/balances/items', 'get', 200, items.body)).toEqual([]);
  });

  it('the partner backend grants once per reference: concurrent retries credit once, another body is 422', async () => {
    const { token, signIn } = await partnerBackend();
    const user = await signIn();
    const body = { uid: user.uid, reference: `order-${randomUUID()}`, currencies: { gem: 50, coin: 0 }, items: { kibble: 3 } };
    const results = await Promise.all(Array.from({ length: 8 }, () => call(app, 'POST', `${pathOf('default')}/grants`, { token, body })));
    for (const res of results) expect(res).toMatchObject({ status: 200, body: results[0]!.body });
    expect(results[0]!.body).toEqual({
      uid: user.uid,
      reference: body.reference,
      granted: [
        { holding: 'currency', code: 'gem', amount: 50 },
        { holding: 'item', code: 'kibble', amount: 3 },
      ],
    });
    expect(documentErrors(document, '/store/grants', 'post', 200, results[0]!.body)).toEqual([]);
    expect((await call(app, 'GET', `${pathOf('default')}/currencies/premium/balance`, { token: user.session })).body.balance).toBe(50);
    expect((await call(app, 'GET', `${pathOf('default')}/balances/items`, { token: user.session })).body.items[0]).toEqual({
      item: 'kibble',
      kind: 'food',
      balance: 3,
    });
    // One ledger entry records the grant's every credit (one write, not one per holding), and the ledger adds up.
    const items = await scanAll(deps);
    const ledger = items.filter((item) => item.pk === `STOREUSER#${user.uid}` && String(item.sk).startsWith('LEDGER#'));
    expect(ledger).toEqual([
      expect.objectContaining({
        ref: `grant#${decodeJwt(token).client_id}#${body.reference}`,
        changes: [
          { holding: 'currency', code: 'gem', change: 50 },
          { holding: 'item', code: 'kibble', change: 3 },
        ],
      }),
    ]);
    expect(ledgerMismatches(items)).toEqual([]);
    const reused = await call(app, 'POST', `${pathOf('default')}/grants`, { token, body: { ...body, currencies: { gem: 51 } } });
    expect(reused).toMatchObject({ status: 422, body: { statusCode: 422, message: expect.stringMatching(/^body\.reference:/) } });
  });

  it('refuses, writing nothing: a user token or session at grants, no grants scope, an unknown user, another region, nothing to grant', async () => {
    const { token, signIn } = await partnerBackend();
    const { token: noScope } = await partnerBackend('default', []);
    const { token: chengduToken } = await partnerBackend('chengdu');
    const user = await signIn();
    const body = { uid: user.uid, reference: `r-${randomUUID()}`, currencies: { gem: 5 } };
    const before = await itemCount(deps);
    expect((await call(app, 'POST', `${pathOf('default')}/grants`, { token: user.session, body })).status).toBe(401);
    expect((await call(app, 'POST', `${pathOf('default')}/grants`, { token: noScope, body })).status).toBe(403);
    expect((await call(app, 'POST', `${pathOf('default')}/grants`, { token: chengduToken, body })).status).toBe(401);
    expect((await call(app, 'POST', `${pathOf('chengdu')}/grants`, { token: chengduToken, body })).body).toEqual({
      statusCode: 404,
      message: expect.stringMatching(/^body\.uid: no store user/),
      error: 'store.user_not_found',
    });
    expect((await call(app, 'POST', `${pathOf('default')}/grants`, { token, body: { ...body, uid: randomUUID() } })).status).toBe(404);
    expect((await call(app, 'POST', `${pathOf('default')}/grants`, { token, body: { ...body, currencies: { gem: 0 } } })).body).toEqual({
      statusCode: 400,
      message: expect.stringMatching(/grants nothing/),
      error: 'store.grant_empty',
    });
    expect((await call(app, 'POST', `${pathOf('default')}/grants`, { token, body: { ...body, currencies: { ruby: 5 } } })).status).toBe(400);
    expect((await call(app, 'POST', `${pathOf('default')}/grants`, { token, body: { ...body, currencies: { gem: -5 } } })).status).toBe(400);
    // A client token reads no user's balance.
    expect((await call(app, 'GET', `${pathOf('default')}/currencies/premium/balance`, { token })).status).toBe(403);
    expect(await itemCount(deps)).toBe(before);
  });
});
