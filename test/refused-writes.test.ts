import { beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { Ed25519Keypair } from '@mysten/sui/keypairs/ed25519';
import { MerchantStatus } from '../core/merchants/models.js';
import { weekOf } from '../core/rankings/seasons.js';
import { createAllApps } from '../functions/apps.js';
import { call, type CallResult } from './support/http.js';
import { createTestDeps, type TestDeps } from './support/deps.js';
import { scanAll as scanTable } from './support/table-snapshot.js';
import { gamePayload, newCode } from './support/games.js';
import { accountWithToken, merchantWithToken } from './support/merchants.js';
import { playerWithTokens, projectWithLevel } from './support/payments.js';
import { giveTickets, goodsFor, merchantWithProject, player } from './support/goods.js';

/**
 * Refused requests write nothing (docs/data-model.md "Refused requests write nothing"): for
 * every operation that takes an id from a counter, each way it can refuse a request (validation, existence,
 * ownership, state, price, balance, duplicates, idempotent replays with other contents) leaves the table as it
 * was, item for item, the `COUNTER#<kind>` items included. Ids are taken only once every check has passed.
 */

let deps: TestDeps;
let app: ReturnType<typeof createAllApps>;
const base = '/v2-testing';

beforeAll(async () => {
  deps = await createTestDeps();
  app = createAllApps(deps);
});

const scanAll = () => scanTable(deps);

/** Sends the request, expects the refusal, and that the table is exactly what it was before. */
async function refusedWithoutWrites(send: () => Promise<CallResult>, status: number, message: RegExp) {
  const before = await scanAll();
  const res = await send();
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body.message).toMatch(message);
  const after = await scanAll();
  const counters = (items: Record<string, unknown>[]) => items.filter((item) => String(item.pk).startsWith('COUNTER#'));
  // The counters first, for a readable failure; then every item.
  expect(counters(after)).toEqual(counters(before));
  expect(after).toEqual(before);
}

const post = (path: string, token: string | undefined, body: unknown) => () => call(app, 'POST', `${base}${path}`, { token, body });

describe('create_merchant', () => {
  it('refuses a second merchant of an account (409) without taking a merchant id', async () => {
    const owner = await merchantWithToken(deps);
    await refusedWithoutWrites(post('/merchant/create', owner.token, { merchant_name: 'Again' }), 409, /already has a merchant/);
  });

  it('refuses an invalid body (400)', async () => {
    const owner = await accountWithToken(deps);
    await refusedWithoutWrites(post('/merchant/create', owner.token, { merchant_name: '' }), 400, /^body\.merchant_name/);
  });
});

describe('savemerchantgame', () => {
  it('refuses a taken code (409) without taking a game id', async () => {
    const [first, second] = [await merchantWithToken(deps), await merchantWithToken(deps)];
    const code = newCode('taken');
    expect((await post('/merchant/games/save', first.token, gamePayload(code))()).status).toBe(200);
    await refusedWithoutWrites(post('/merchant/games/save', second.token, gamePayload(code)), 409, /exists already/);
    await refusedWithoutWrites(post('/merchant/games/save', first.token, gamePayload(code)), 409, /exists already/);
  });

  it('refuses an account without a merchant (404), a suspended merchant (403) and an invalid body (400)', async () => {
    const noMerchant = await accountWithToken(deps);
    const suspended = await merchantWithToken(deps, MerchantStatus.suspended);
    const active = await merchantWithToken(deps);
    await refusedWithoutWrites(post('/merchant/games/save', noMerchant.token, gamePayload(newCode())), 404, /no merchant/);
    await refusedWithoutWrites(post('/merchant/games/save', suspended.token, gamePayload(newCode())), 403, /suspended/);
    await refusedWithoutWrites(post('/merchant/games/save', active.token, { ...gamePayload(newCode()), code: 'no spaces' }), 400, /^body\.code/);
  });
});

describe('project create', () => {
  const projectBody = (name: string) => ({
    project_name: name,
    receive_address: Ed25519Keypair.generate().toSuiAddress(),
    coin_type: '0x2::sui::SUI',
    precison: 9,
  });

  it('refuses a taken name (409) without taking a project id', async () => {
    const owner = await merchantWithProject(deps);
    const other = await merchantWithToken(deps);
    await refusedWithoutWrites(post('/merchant/projects', other.token, projectBody(owner.project.project_name)), 409, /exists already/);
    await refusedWithoutWrites(post('/merchant/projects', owner.token, projectBody(owner.project.project_name)), 409, /exists already/);
  });

  it('refuses an account without a merchant (404), a suspended merchant (403) and an invalid body (400)', async () => {
    const noMerchant = await accountWithToken(deps);
    const suspended = await merchantWithToken(deps, MerchantStatus.suspended);
    const active = await merchantWithToken(deps);
    await refusedWithoutWrites(post('/merchant/projects', noMerchant.token, projectBody(`p-${randomUUID().slice(0, 8)}`)), 404, /no merchant/);
    await refusedWithoutWrites(post('/merchant/projects', suspended.token, projectBody(`p-${randomUUID().slice(0, 8)}`)), 403, /suspended/);
    await refusedWithoutWrites(
      post('/merchant/projects', active.token, { ...projectBody(`p-${randomUUID().slice(0, 8)}`), precison: -1 }),
      400,
      /^body\.precison/,
    );
  });
});

describe('level save', () => {
  it('refuses an unknown project (404), another merchant’s (403), a suspended merchant (403) and an invalid amount (400)', async () => {
    const owner = await merchantWithProject(deps);
    const other = await merchantWithToken(deps);
    const suspended = await merchantWithProject(deps);
    await setSuspended(suspended.merchant.id);
    const level = (project: string) => ({ project_name: project, level: 2, amount: 1_000, tickets: 10, status: 1 });
    await refusedWithoutWrites(post('/merchant/projects/levels', owner.token, level('no-such-project')), 404, /^project_name: no project/);
    await refusedWithoutWrites(post('/merchant/projects/levels', other.token, level(owner.project.project_name)), 403, /another merchant/);
    await refusedWithoutWrites(post('/merchant/projects/levels', owner.token, { ...level(owner.project.project_name), amount: 0 }), 400, /^body\.amount/);
    await refusedWithoutWrites(post('/merchant/projects/levels', suspended.token, level(suspended.project.project_name)), 403, /suspended/);
  });
});

/** Suspends a merchant through the admin operation (merchantStatus), as an admin would. */
async function setSuspended(merchantId: number) {
  const admin = await accountWithToken(deps, 'admin');
  const res = await post('/merchant/status', admin.token, { merchant_id: merchantId, status: MerchantStatus.suspended })();
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

describe('rechargeOrder', () => {
  async function shopAndPlayer() {
    const shop = await projectWithLevel(deps);
    const buyer = await playerWithTokens(deps);
    const body = { userId: buyer.uid, project: shop.project.project_name, priceId: shop.level.priceId, prevId: -1, level: 1, amount: 1_500_000_000 };
    const order = (token: string, fields: Record<string, unknown>) => post('/account/user/rechargeOrder', token, { ...body, ...fields });
    return { shop, buyer, body, order };
  }

  it('refuses an unknown project or level, a changed price or amount, another user and a user without an account', async () => {
    const { buyer, order } = await shopAndPlayer();
    const other = await playerWithTokens(deps);
    const stranger = { uid: randomUUID() };
    const strangerToken = (await deps.tokens.issue('platform', stranger.uid)).token;
    await refusedWithoutWrites(order(buyer.platform, { project: 'no-such-project' }), 404, /^project: no project/);
    await refusedWithoutWrites(order(buyer.platform, { level: 7 }), 404, /^level: /);
    await refusedWithoutWrites(order(buyer.platform, { priceId: 999_999 }), 409, /^priceId: /);
    await refusedWithoutWrites(order(buyer.platform, { amount: 1_500_000_001 }), 409, /^amount: /);
    await refusedWithoutWrites(order(other.platform, {}), 403, /^userId: /);
    await refusedWithoutWrites(order(strangerToken, { userId: stranger.uid }), 404, /^userId: the user has no wallet account/);
    await refusedWithoutWrites(order(buyer.platform, { amount: -1 }), 400, /^body\.amount/);
  });

  it('refuses a prevId that names no order, another user’s order or one that is not pending, without taking an order id', async () => {
    const { buyer, order, shop } = await shopAndPlayer();
    const first = await order(buyer.platform, {})();
    const second = await order(buyer.platform, { prevId: first.body.id })();
    expect([first.status, second.status]).toEqual([200, 200]);
    const someone = await playerWithTokens(deps);
    const theirs = await post('/account/user/rechargeOrder', someone.platform, {
      userId: someone.uid,
      project: shop.project.project_name,
      priceId: shop.level.priceId,
      prevId: -1,
      level: 1,
      amount: 1_500_000_000,
    })();
    expect(theirs.status).toBe(200);
    await refusedWithoutWrites(order(buyer.platform, { prevId: 987_654_321 }), 404, /^prevId: the caller has no order/);
    await refusedWithoutWrites(order(buyer.platform, { prevId: theirs.body.id }), 404, /^prevId: the caller has no order/);
    // The first order was cancelled when the second replaced it.
    await refusedWithoutWrites(order(buyer.platform, { prevId: first.body.id }), 409, /^prevId: .* is not pending/);
  });
});

describe('goods_create', () => {
  it('refuses an unknown project (404), another merchant’s (403) and a suspended merchant (403)', async () => {
    const owner = await merchantWithProject(deps);
    const other = await merchantWithProject(deps);
    // Suspended before its first call: a console call that moves no value may use the state read in the
    // last STATE_TTL_MS (docs/security.md).
    const suspended = await merchantWithProject(deps);
    await setSuspended(suspended.merchant.id);
    const goods = (project: string) => ({ name: 'Shield', projectName: project, level: 1, price: 3 });
    await refusedWithoutWrites(post('/merchant/goods', owner.token, goods('no-such-project')), 404, /no project/);
    await refusedWithoutWrites(post('/merchant/goods', other.token, goods(owner.project.project_name)), 403, /another merchant/);
    await refusedWithoutWrites(post('/merchant/goods', suspended.token, goods(suspended.project.project_name)), 403, /suspended/);
  });
});

describe('createOrder', () => {
  it('refuses unknown goods, another project, goods off sale, another user and a short balance, without taking an order id', async () => {
    const owner = await merchantWithProject(deps);
    const goods = await goodsFor(deps, owner, { price: 5 });
    const offSale = await goodsFor(deps, owner, { price: 5, status: 0 });
    const other = await merchantWithProject(deps);
    const buyer = await player(deps);
    const someone = await player(deps);
    const projectName = owner.project.project_name;
    await giveTickets(deps, { uid: buyer.uid, projectName, level: 1 }, 9);
    const body = { userId: buyer.uid, goodsId: goods.id, quantity: 1, projectName };
    const order = (fields: Record<string, unknown>, token = buyer.token) => post('/account/vendor/order', token, { ...body, ...fields });
    await refusedWithoutWrites(order({ goodsId: 987_654_321 }), 404, /^goodsId: no goods/);
    await refusedWithoutWrites(order({ projectName: other.project.project_name }), 400, /^projectName: /);
    await refusedWithoutWrites(order({ goodsId: offSale.id }), 409, /not on sale/);
    await refusedWithoutWrites(order({}, someone.token), 403, /^userId: /);
    // 9 tickets: two at 5 are 10.
    await refusedWithoutWrites(order({ quantity: 2 }), 409, /^quantity: the balance .* is less than the 10 tickets/);
    // A buyer with no balance item at all.
    await refusedWithoutWrites(order({ userId: someone.uid }, someone.token), 409, /^quantity: the balance/);
    expect((await order({ quantity: 1 })()).status).toBe(200);
  });
});

describe('customGoods', () => {
  it('refuses a short balance, goods off sale, another merchant’s goods and an outer id reused with other contents', async () => {
    const owner = await merchantWithProject(deps);
    const goods = await goodsFor(deps, owner, { price: 4 });
    const offSale = await goodsFor(deps, owner, { price: 4, status: 0 });
    const other = await merchantWithProject(deps);
    const user = randomUUID();
    const projectName = owner.project.project_name;
    await giveTickets(deps, { uid: user, projectName, level: 1 }, 10);
    const body = { userId: user, quantity: 2, projectName, outerOrderId: `partner-${randomUUID()}` };
    const order = (fields: Record<string, unknown>, goodsId: number = goods.id, token = owner.serverToken) =>
      post(`/account/vendor/goods/${goodsId}`, token, { ...body, ...fields });
    await refusedWithoutWrites(order({ quantity: 3 }), 409, /^quantity: the balance .* is less than the 12 tickets/);
    await refusedWithoutWrites(order({}, offSale.id), 409, /not on sale/);
    await refusedWithoutWrites(order({}, goods.id, other.serverToken), 403, /another merchant/);
    await refusedWithoutWrites(order({}, 987_654_321), 404, /no goods/);
    expect((await order({})()).status).toBe(200);
    await refusedWithoutWrites(order({ quantity: 1 }), 400, /^outerOrderId: .*other contents/);
  });
});

describe('vendor_reward', () => {
  it('refuses an unknown project, another merchant’s, a user without an account and a bill reused with other contents', async () => {
    const owner = await merchantWithProject(deps);
    const other = await merchantWithProject(deps);
    const buyer = await player(deps);
    const body = { billNo: `R-${randomUUID()}`, userId: buyer.uid, projectName: owner.project.project_name, level: 1, amount: 3 };
    const reward = (fields: Record<string, unknown>, token = owner.serverToken) => post('/wallet/vendor/reward', token, { ...body, ...fields });
    await refusedWithoutWrites(reward({ projectName: 'no-such-project' }), 404, /no project/);
    await refusedWithoutWrites(reward({}, other.serverToken), 403, /another merchant/);
    await refusedWithoutWrites(reward({ userId: randomUUID() }), 404, /^userId: no account/);
    expect((await reward({})()).status).toBe(200);
    await refusedWithoutWrites(reward({ amount: 4 }), 409, /^billNo: .*another reward/);
  });
});

describe('chainwallet_register', () => {
  async function signedNonce(keypair: Ed25519Keypair) {
    const address = keypair.toSuiAddress();
    const nonce = await call(app, 'GET', `${base}/account/nonce`, { query: { address } });
    expect(nonce.status).toBe(200);
    const { signature } = await keypair.signPersonalMessage(new TextEncoder().encode(nonce.body.data.message));
    return { address, signature };
  }
  const register = (body: unknown) => post('/account/register/chainwallet', undefined, body);

  it('refuses no nonce, a wrong signature, an address of another user and a user with another address', async () => {
    const keypair = Ed25519Keypair.generate();
    await refusedWithoutWrites(
      register({ uuid: randomUUID(), address: keypair.toSuiAddress(), signature: 'AA'.repeat(48) }),
      401,
      /^address: no live sign-in nonce/,
    );
    const signed = await signedNonce(keypair);
    const wrong = (await signedNonce(Ed25519Keypair.generate())).signature;
    await refusedWithoutWrites(register({ uuid: randomUUID(), address: signed.address, signature: wrong }), 401, /^signature: /);

    const bound = await player(deps);
    const boundKeypair = Ed25519Keypair.generate();
    const other = await signedNonce(boundKeypair);
    // The signer's address is new, but the uuid already has another address.
    await refusedWithoutWrites(register({ uuid: bound.uid, address: other.address, signature: other.signature }), 409, /^uuid: /);
    // The address is another user's.
    const first = await register({ uuid: randomUUID(), address: signed.address, signature: signed.signature })();
    expect(first.status).toBe(200);
    const again = await signedNonce(keypair);
    await refusedWithoutWrites(register({ uuid: randomUUID(), address: again.address, signature: again.signature }), 409, /^address: bound to another user/);
  });
});

describe('login_zk', () => {
  it('refuses an id_token it cannot verify', async () => {
    // This stage has no OAuth provider: 503 before anything is read or written.
    await refusedWithoutWrites(post('/account/login/zk', undefined, { id_token: 'e30.e30.c2ln' }), 503, /not configured/);
  });
});

describe('history/test', () => {
  it('refuses an unknown game (404) and a season that has not ended (409) without taking history ids', async () => {
    const admin = await accountWithToken(deps, 'admin');
    const owner = await merchantWithToken(deps);
    const code = newCode('hist');
    expect((await post('/merchant/games/save', owner.token, gamePayload(code))()).status).toBe(200);
    const current = weekOf(new Date());
    const settle = (game: string, range: string) => post('/merchant/games/history/test', admin.token, { game_code: game, season_type: 1, season_range: range });
    await refusedWithoutWrites(settle('no-such-game', weekOf(new Date(Date.now() - 14 * 86_400_000)).range), 404, /no game/);
    await refusedWithoutWrites(settle(code, current.range), 409, /has not ended/);
  });
});
