import { randomUUID } from 'node:crypto';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { Ed25519Keypair } from '@mysten/sui/keypairs/ed25519';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { registerClient } from '../core/partner-store/clients.js';
import { generateStoreKeys, parseStoreKeys, signAccessToken } from '../core/partner-store/regions.js';
import { createAllApps } from '../functions/apps.js';
import { createTestDeps, itemsOfType, type TestDeps } from './support/deps.js';
import { call, type CallResult } from './support/http.js';
import { deductionOf } from './support/payments.js';
import { storeIssuerOf, storeSessionOf } from './support/store.js';
import { scanAll } from './support/table-snapshot.js';
import { goodsFor, merchantWithProject, player, giveTickets as giveVendorTickets } from './support/goods.js';

/**
 * Replays of single-use values (docs/security.md "Replays of single-use values"): each value
 * is used once as meant, then sent again. A replay of a sign-in value (a signed nonce, a partner's login
 * assertion) is refused; a replay of a request under the same key or reference with other contents is refused;
 * the same request again answers the first answer. Either way the replay writes nothing: the whole table is
 * the same before and after it. (OAuth codes and refresh tokens are replayed in test/store-code-flow.test.ts,
 * where a replay also revokes the family; store notifications in test/apple-notifications.test.ts and
 * test/google-play.test.ts.)
 */
let deps: TestDeps;
let app: ReturnType<typeof createAllApps>;
const base = '/v2-testing';

beforeAll(async () => {
  deps = await createTestDeps();
  deps.storeKeys = await parseStoreKeys(await generateStoreKeys());
  app = createAllApps(deps);
});

const post =
  (path: string, token: string | undefined, body: unknown, headers: Record<string, string> = {}) =>
  () =>
    call(app, 'POST', `${base}${path}`, { token, body, headers });

interface Replay {
  /** The single-use value and how it is replayed. */
  name: string;
  /** Uses the value as meant (must be accepted), and answers the replays to send after it. */
  use: () => Promise<{ first: CallResult; replays: { what: string; send: () => Promise<CallResult>; answer: number | 'first' }[] }>;
}

const key = () => ({ 'Idempotency-Key': `k-${randomUUID()}` });
/** The same key as the draft's quoted string (`"k"`): the same key as the bare one. */
const quoted = (headers: { 'Idempotency-Key': string }) => ({ 'Idempotency-Key': `"${headers['Idempotency-Key']}"` });

const replays: Replay[] = [
  {
    name: 'a signed sign-in nonce (chainwallet_register)',
    use: async () => {
      const keypair = Ed25519Keypair.generate();
      const address = keypair.toSuiAddress();
      const nonce = await call(app, 'GET', `${base}/account/nonce`, { query: { address } });
      const { signature } = await keypair.signPersonalMessage(new TextEncoder().encode(nonce.body.data.message));
      const body = { uuid: randomUUID(), address, signature };
      const first = await post('/account/register/chainwallet', undefined, body)();
      return { first, replays: [{ what: 'the same signature again', send: post('/account/register/chainwallet', undefined, body), answer: 401 }] };
    },
  },
  {
    name: "a partner backend's login assertion (its jti)",
    use: async () => {
      const { publicKey, privateKey } = await generateKeyPair('ES256', { extractable: true });
      const { client } = await registerClient(deps, {
        region: 'default',
        type: 'confidential',
        name: 'backend',
        redirect_uris: ['https://store.example/cb'],
        scopes: [],
        assertion_jwk: (await exportJWK(publicKey)) as Record<string, unknown>,
      });
      const iat = Math.floor(Date.now() / 1000);
      const assertion = await new SignJWT({
        iss: client.client_id,
        sub: `u-${randomUUID()}`,
        aud: storeIssuerOf('default'),
        iat,
        exp: iat + 60,
        jti: randomUUID(),
      })
        .setProtectedHeader({ alg: 'ES256' })
        .sign(privateKey);
      const first = await post('/store/login', undefined, { assertion })();
      return { first, replays: [{ what: 'the same assertion again', send: post('/store/login', undefined, { assertion }), answer: 401 }] };
    },
  },
  {
    name: 'an Idempotency-Key of minus_tickets',
    use: async () => {
      const { shop, body } = await deductionOf(deps);
      const headers = key();
      const first = await post('/account/game/minus_tickets', shop.server, body, headers)();
      return {
        first,
        replays: [
          { what: 'the same request', send: post('/account/game/minus_tickets', shop.server, body, headers), answer: 'first' },
          { what: 'the same request with the key quoted', send: post('/account/game/minus_tickets', shop.server, body, quoted(headers)), answer: 'first' },
          {
            what: 'another amount with the key quoted',
            send: post('/account/game/minus_tickets', shop.server, { ...body, amount: 4 }, quoted(headers)),
            answer: 422,
          },
          { what: 'another amount', send: post('/account/game/minus_tickets', shop.server, { ...body, amount: 4 }, headers), answer: 422 },
        ],
      };
    },
  },
  {
    name: 'an Idempotency-Key of createOrder',
    use: async () => {
      const owner = await merchantWithProject(deps);
      const goods = await goodsFor(deps, owner, { price: 2 });
      const buyer = await player(deps);
      await giveVendorTickets(deps, { uid: buyer.uid, projectName: owner.project.project_name, level: 1 }, 10);
      const body = { userId: buyer.uid, goodsId: goods.id, quantity: 1, projectName: owner.project.project_name };
      const headers = key();
      const first = await post('/account/vendor/order', buyer.token, body, headers)();
      return {
        first,
        replays: [
          { what: 'the same order', send: post('/account/vendor/order', buyer.token, body, headers), answer: 'first' },
          { what: 'the same order with the key quoted', send: post('/account/vendor/order', buyer.token, body, quoted(headers)), answer: 'first' },
          { what: 'another quantity', send: post('/account/vendor/order', buyer.token, { ...body, quantity: 2 }, headers), answer: 422 },
        ],
      };
    },
  },
  {
    name: "adopt_pet's Idempotency-Key sent in double quotes, then bare",
    use: async () => {
      const session = await storeSessionOf(deps, app);
      const headers = key();
      const body = { name: 'Tom', species: 'cat' };
      const first = await post('/store/pets/adopt', session, body, quoted(headers))();
      return { first, replays: [{ what: 'the same adoption with the key bare', send: post('/store/pets/adopt', session, body, headers), answer: 'first' }] };
    },
  },
  {
    name: "customGoods' outerOrderId",
    use: async () => {
      const owner = await merchantWithProject(deps);
      const goods = await goodsFor(deps, owner, { price: 2 });
      const buyer = randomUUID();
      await giveVendorTickets(deps, { uid: buyer, projectName: owner.project.project_name, level: 1 }, 10);
      const body = { userId: buyer, quantity: 1, projectName: owner.project.project_name, outerOrderId: `o-${randomUUID()}` };
      const path = `/account/vendor/goods/${goods.id}`;
      const first = await post(path, owner.serverToken, body)();
      return {
        first,
        replays: [
          { what: 'the same order', send: post(path, owner.serverToken, body), answer: 'first' },
          { what: 'another quantity', send: post(path, owner.serverToken, { ...body, quantity: 2 }), answer: 400 },
        ],
      };
    },
  },
  {
    name: "vendor_reward's billNo",
    use: async () => {
      const owner = await merchantWithProject(deps);
      const buyer = await player(deps);
      const body = { billNo: `R-${randomUUID()}`, userId: buyer.uid, projectName: owner.project.project_name, level: 1, amount: 3 };
      const first = await post('/wallet/vendor/reward', owner.serverToken, body)();
      return {
        first,
        replays: [
          { what: 'the same reward', send: post('/wallet/vendor/reward', owner.serverToken, body), answer: 'first' },
          { what: 'another amount', send: post('/wallet/vendor/reward', owner.serverToken, { ...body, amount: 4 }), answer: 409 },
        ],
      };
    },
  },
  {
    name: "a store grant's reference, and adopt_pet's and feed_pet's Idempotency-Keys",
    use: async () => {
      const client = (
        await signAccessToken(
          deps.storeKeys!.default,
          storeIssuerOf('default'),
          { sub: 'backend', client_id: 'backend', scope: 'grants', kind: 'client' },
          new Date(),
        )
      ).token;
      const session = await storeSessionOf(deps, app);
      const uid = (await call(app, 'GET', `${base}/store/user`, { token: session })).body.uid as string;
      const grant = { uid, reference: `g-${randomUUID()}`, currencies: { gem: 300 }, items: { kibble: 3 } };
      const first = await post('/store/grants', client, grant)();
      const adoptKey = key();
      const pet = (await post('/store/pets/adopt', session, { name: 'Tom', species: 'cat' }, adoptKey)()).body.pet;
      const feedKey = key();
      await post('/store/pets/feed', session, { petId: pet.petId, item: 'kibble', amount: 1 }, feedKey)();
      return {
        first,
        replays: [
          { what: 'the same grant', send: post('/store/grants', client, grant), answer: 'first' },
          { what: 'another grant under its reference', send: post('/store/grants', client, { ...grant, currencies: { gem: 301 } }), answer: 422 },
          { what: 'another adoption under its key', send: post('/store/pets/adopt', session, { name: 'Jerry', species: 'cat' }, adoptKey), answer: 422 },
          {
            what: 'another feeding under its key',
            send: post('/store/pets/feed', session, { petId: pet.petId, item: 'kibble', amount: 2 }, feedKey),
            answer: 422,
          },
        ],
      };
    },
  },
];

describe('replays of single-use values', () => {
  let replayed = 0;
  for (const replay of replays) {
    it(`${replay.name}: accepted once; every replay refused or answered with the first answer, writing nothing`, async () => {
      const { first, replays: sends } = await replay.use();
      expect(first.status, JSON.stringify(first.body)).toBeLessThan(300);
      for (const { what, send, answer } of sends) {
        const before = await scanAll(deps);
        const res = await send();
        replayed++;
        // The first answer byte for byte: a stored answer keeps its key order.
        if (answer === 'first') expect({ status: res.status, text: res.text }, what).toEqual({ status: first.status, text: first.text });
        else expect(res.status, `${what}: ${JSON.stringify(res.body)}`).toBe(answer);
        expect(await scanAll(deps), `${what} wrote`).toEqual(before);
      }
    });
  }

  it('a record stored before answers were kept as JSON text (its answer a map) still answers its replay', async () => {
    const owner = await merchantWithProject(deps);
    const goods = await goodsFor(deps, owner, { price: 2 });
    const buyer = await player(deps);
    await giveVendorTickets(deps, { uid: buyer.uid, projectName: owner.project.project_name, level: 1 }, 10);
    const body = { userId: buyer.uid, goodsId: goods.id, quantity: 1, projectName: owner.project.project_name };
    const headers = key();
    const first = await post('/account/vendor/order', buyer.token, body, headers)();
    expect(first.status).toBe(200);
    const [record] = (await itemsOfType(deps, 'idempotency')).filter((item) => String(item.pk).endsWith(`#${headers['Idempotency-Key']}`));
    const { answer_json: text, ...earlier } = record!;
    await deps.db.send(new PutCommand({ TableName: deps.table, Item: { ...earlier, answer: JSON.parse(String(text)) } }));
    const again = await post('/account/vendor/order', buyer.token, body, headers)();
    expect({ status: again.status, body: again.body }).toEqual({ status: first.status, body: first.body });
  });

  it('replayed every value', () => {
    expect(replayed).toBeGreaterThanOrEqual(replays.length);
    console.log(`replays: ${replays.length} single-use values, ${replayed} replays sent, none accepted anew`);
  });
});
