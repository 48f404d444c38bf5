import { beforeAll, describe, expect, it } from 'vitest';
import { setMerchantStatus } from '../core/merchants/merchants.js';
import { MerchantStatus } from '../core/merchants/models.js';
import { ProjectCreate } from '../core/payments/models.js';
import { ORDER_SHARDS } from '../core/payments/order-keys.js';
import { createRechargeOrder } from '../core/payments/orders.js';
import { createProject, saveLevel } from '../core/payments/projects.js';
import { createInnerApp } from '../functions/inner.js';
import { createPayApp } from '../functions/pay.js';
import { createWithoutkeyApp } from '../functions/withoutkey.js';
import { createTestDeps, itemCount, itemsOfType, type TestDeps } from './support/deps.js';
import { call } from './support/http.js';
import { documentErrors, servedDocument } from './support/openapi-check.js';
import { indexedPayment, playerWithTokens, projectWithLevel } from './support/payments.js';

/**
 * merchant_orders (docs/api.md, "Operator console"): a studio's recharge orders across its projects, newest
 * first, cursor-paged over the sharded "orders of a project" index, filtered by status and project; never another
 * studio's, and readable while the merchant is suspended.
 */
let deps: TestDeps;
let inner: ReturnType<typeof createInnerApp>;
let pay: ReturnType<typeof createPayApp>;
let withoutkey: ReturnType<typeof createWithoutkeyApp>;
const base = '/v2-testing';
const path = '/merchant/orders';
const document = servedDocument(base);
const PRICE = '1500000000';

beforeAll(async () => {
  deps = await createTestDeps();
  inner = createInnerApp(deps);
  pay = createPayApp(deps);
  withoutkey = createWithoutkeyApp(deps);
});

interface Listed {
  id: number;
  project_name: string;
  status: number;
  created_at: string;
  paid_at: string | null;
  tx_digest: string | null;
  user_id: string;
}

/** GET the list, checked against the served OpenAPI document. */
async function list(token: string, query: Record<string, string | number> = {}) {
  const res = await call(inner, 'GET', `${base}${path}`, { token, query });
  expect(documentErrors(document, path, 'get', res.status, res.body)).toEqual([]);
  return res;
}

async function page(token: string, query: Record<string, string | number> = {}) {
  const res = await list(token, query);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body).toMatchObject({ code: 200, message: 'success' });
  return res.body.data as { items: Listed[]; next: string | null };
}

/** Every page of a read, following `next`; the sizes of the pages too. */
async function allPages(token: string, query: Record<string, string | number>) {
  const items: Listed[] = [];
  const sizes: number[] = [];
  let cursor: string | null = null;
  do {
    const data = await page(token, cursor ? { ...query, cursor } : query);
    items.push(...data.items);
    sizes.push(data.items.length);
    cursor = data.next;
  } while (cursor);
  return { items, sizes };
}

const newestFirst = (a: { created_at: string; id: number }, b: { created_at: string; id: number }) =>
  a.created_at === b.created_at ? b.id - a.id : a.created_at < b.created_at ? 1 : -1;

/** A studio with two projects (level 1 of each at PRICE for 100 tickets) and its console token. */
async function studio() {
  const shop = await projectWithLevel(deps);
  const second = await createProject(
    deps,
    shop.owner.claims,
    ProjectCreate.parse({
      project_name: `${shop.project.project_name}-b`,
      receive_address: shop.receiveAddress,
      coin_type: '0x2::sui::SUI',
      precison: 9,
    }),
  );
  const level = await saveLevel(deps, shop.owner.claims, { project_name: second.project_name, level: 1, amount: PRICE, tickets: 100, status: 1 });
  return {
    shop,
    token: shop.owner.token,
    projects: [
      { name: shop.project.project_name, priceId: shop.level.priceId },
      { name: second.project_name, priceId: level.priceId },
    ],
  };
}

type Studio = Awaited<ReturnType<typeof studio>>;

/** `count` pending orders of a project by one new player (through the domain, as rechargeOrder makes them). */
async function orders(owner: Studio, project: number, count: number, player?: Awaited<ReturnType<typeof playerWithTokens>>) {
  const buyer = player ?? (await playerWithTokens(deps));
  const { name, priceId } = owner.projects[project]!;
  const made = [];
  for (let i = 0; i < count; i++) {
    made.push(await createRechargeOrder(deps, buyer.uid, { userId: buyer.uid, project: name, priceId, prevId: -1, level: 1, amount: PRICE }));
  }
  return { buyer, made };
}

/** Pays an order on chain and completes it through orderComplete; the transaction's digest. */
async function payOrder(owner: Studio, order: { id: number; bill_no: string }, buyer: Awaited<ReturnType<typeof playerWithTokens>>) {
  const digest = await indexedPayment(deps, { billNo: order.bill_no, amount: PRICE, from: buyer.address, to: owner.shop.receiveAddress });
  const res = await call(pay, 'POST', `${base}/account/user/orderComplete`, { token: buyer.platform, body: { orderId: order.id, transactionId: digest } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return digest;
}

describe('merchant_orders', () => {
  it("lists the orders of all the studio's projects newest first, with price, tickets, payment and player, and not another studio's", async () => {
    const owner = await studio();
    const other = await studio();
    await orders(other, 0, 2);
    const first = await orders(owner, 0, 2);
    const second = await orders(owner, 1, 1);
    const digest = await payOrder(owner, first.made[0]!, first.buyer);

    const data = await page(owner.token);
    const made = [...first.made, ...second.made].sort(newestFirst);
    expect(data.next).toBeNull();
    expect(data.items.map((item) => item.id)).toEqual(made.map((order) => order.id));
    const paid = data.items.find((item) => item.id === first.made[0]!.id)!;
    expect(paid).toEqual({
      id: first.made[0]!.id,
      bill_no: first.made[0]!.bill_no,
      project_name: owner.projects[0]!.name,
      level: 1,
      amount_base: PRICE,
      coin_type: '0x2::sui::SUI',
      precison: 9,
      tickets: 100,
      status: 1,
      tx_type: 1,
      created_at: first.made[0]!.created_at,
      paid_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T.*Z$/),
      tx_digest: digest,
      user_id: first.buyer.uid,
    });
    expect(Date.parse(paid.paid_at!)).toBeGreaterThanOrEqual(Date.parse(paid.created_at));
    const pending = data.items.find((item) => item.id === second.made[0]!.id)!;
    expect(pending).toMatchObject({ status: 0, paid_at: null, tx_digest: null, user_id: second.buyer.uid, project_name: owner.projects[1]!.name });
  });

  it('filters by status and by project, and the filters together', async () => {
    const owner = await studio();
    const a = await orders(owner, 0, 3);
    const b = await orders(owner, 1, 2);
    await payOrder(owner, a.made[1]!, a.buyer);
    await payOrder(owner, b.made[0]!, b.buyer);
    const ids = async (query: Record<string, string>) => (await page(owner.token, query)).items.map((item) => item.id).sort((x, y) => x - y);
    const sorted = (list: { id: number }[]) => list.map((order) => order.id).sort((x, y) => x - y);

    expect(await ids({ status: 'paid' })).toEqual(sorted([a.made[1]!, b.made[0]!]));
    expect(await ids({ status: 'pending' })).toEqual(sorted([a.made[0]!, a.made[2]!, b.made[1]!]));
    expect(await ids({ status: 'all' })).toEqual(sorted([...a.made, ...b.made]));
    expect(await ids({ project: owner.projects[1]!.name })).toEqual(sorted(b.made));
    expect(await ids({ project: owner.projects[0]!.name, status: 'paid' })).toEqual(sorted([a.made[1]!]));
    expect(await ids({ project: owner.projects[0]!.name, status: 'pending' })).toEqual(sorted([a.made[0]!, a.made[2]!]));
  });

  it(`pages through cursors across the projects' ${ORDER_SHARDS} shards each, every order once, newest first`, async () => {
    const owner = await studio();
    const [a, b] = [await orders(owner, 0, 30), await orders(owner, 1, 17)];
    const made = [...a.made, ...b.made].sort(newestFirst);
    const { items, sizes } = await allPages(owner.token, { limit: 7 });
    expect(items.map((item) => item.id)).toEqual(made.map((order) => order.id));
    expect(sizes).toEqual([7, 7, 7, 7, 7, 7, 5]);
    const one = await allPages(owner.token, { limit: 100, project: owner.projects[0]!.name });
    expect(one.sizes).toEqual([30]);
    expect(one.items.map((item) => item.id)).toEqual([...a.made].reverse().map((order) => order.id));

    // A rare status among many: a page may hold fewer than asked, but every such order comes once, in order.
    const paid = [a.made[3]!, a.made[17]!, a.made[29]!, b.made[5]!];
    for (const order of paid) await payOrder(owner, order, paid.indexOf(order) < 3 ? a.buyer : b.buyer);
    const rare = await allPages(owner.token, { limit: 3, status: 'paid' });
    expect(rare.items.map((item) => item.id)).toEqual([...paid].sort(newestFirst).map((order) => order.id));
    const common = await allPages(owner.token, { limit: 10, status: 'pending' });
    expect(common.items.map((item) => item.id)).toEqual(made.filter((order) => !paid.includes(order)).map((order) => order.id));
  });

  it('answers a short page with a next when one request cannot read far enough, and the pages after it find the rest', async () => {
    const owner = await studio();
    const { buyer, made } = await orders(owner, 0, 12 * ORDER_SHARDS);
    await payOrder(owner, made[0]!, buyer);
    const { items, sizes } = await allPages(owner.token, { limit: 1, status: 'paid' });
    expect(items.map((item) => item.id)).toEqual([made[0]!.id]);
    // The first page read 8 orders of each shard, none paid: it is empty, and its next goes on below them.
    expect(sizes[0]).toBe(0);
    expect(sizes.length).toBeGreaterThan(1);
  });

  it('refuses a cursor of another studio, of other filters, or altered, naming cursor, and writes nothing', async () => {
    const owner = await studio();
    const other = await studio();
    await orders(owner, 0, 5);
    await orders(other, 0, 5);
    const { next } = await page(owner.token, { limit: 2 });
    expect(next).toEqual(expect.any(String));
    const before = await itemCount(deps);
    const decoded = JSON.parse(Buffer.from(next!, 'base64url').toString('utf8'));
    const altered = [
      Buffer.from(JSON.stringify({ ...decoded, k: { before: 'PROJECT_ORDERS#x' } })).toString('base64url'),
      Buffer.from(JSON.stringify({ ...decoded, k: { before: decoded.k.before, pk: 'x' } })).toString('base64url'),
      Buffer.from(JSON.stringify({ ...decoded, o: 'someone-else' })).toString('base64url'),
      // A position of the same form, above every order: the list from its top again.
      Buffer.from(JSON.stringify({ ...decoded, k: { before: '9999-12-31T23:59:59.999Z#999999999999' } })).toString('base64url'),
      `${next!.slice(0, -2)}AA`,
      'bm90LWpzb24',
    ];
    const refusals = [
      await list(other.token, { limit: 2, cursor: next! }),
      await list(owner.token, { limit: 2, cursor: next!, status: 'paid' }),
      await list(owner.token, { limit: 2, cursor: next!, project: owner.projects[0]!.name }),
      ...(await Promise.all(altered.map((cursor) => list(owner.token, { limit: 2, cursor })))),
    ];
    for (const res of refusals) {
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body).toMatchObject({ code: 400, error: 'input.invalid', data: null });
      expect(res.body.message).toMatch(/^query\.cursor: /);
    }
    const bad = await list(owner.token, { cursor: 'not a cursor!' });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/^query\.cursor: /);
    expect(await itemCount(deps)).toBe(before);
  });

  it("refuses another studio's project (403) and an unknown one (404), and bad filters naming the field, writing nothing", async () => {
    const owner = await studio();
    const other = await studio();
    await orders(other, 0, 1);
    const player = await playerWithTokens(deps);
    const before = await itemCount(deps);
    const theirs = await list(owner.token, { project: other.projects[0]!.name });
    expect(theirs.status).toBe(403);
    expect(theirs.body).toMatchObject({ error: 'access.other_owner', data: null });
    expect(theirs.body.message).toMatch(/^project: /);
    const none = await list(owner.token, { project: 'no-such-project' });
    expect(none.status).toBe(404);
    expect(none.body.error).toBe('access.not_found');
    for (const [field, value] of [
      ['status', 'refunded'],
      ['limit', '0'],
      ['limit', '101'],
      ['limit', 'ten'],
      ['project', 'a b'],
    ] as const) {
      const res = await list(owner.token, { [field]: value });
      expect(res.status, `${field}=${value}`).toBe(400);
      expect(res.body.message).toMatch(new RegExp(`^query\\.${field}: `));
    }
    const wrongToken = await call(inner, 'GET', `${base}${path}`, { token: player.platform });
    expect(wrongToken.status).toBe(401);
    expect(await itemCount(deps)).toBe(before);
  });

  it("is readable by a suspended merchant's console", async () => {
    const owner = await studio();
    const { made } = await orders(owner, 1, 2);
    await setMerchantStatus(deps, owner.shop.owner.merchant.id, MerchantStatus.suspended);
    const data = await page(owner.token);
    expect(data.items.map((item) => item.id)).toEqual(made.map((order) => order.id).reverse());
    // A write of the same console is refused meanwhile: the suspension is in force.
    const refused = await call(inner, 'POST', `${base}/merchant/projects/update`, {
      token: owner.token,
      body: { project_name: owner.projects[0]!.name, description: 'x' },
    });
    expect(refused.status).toBe(403);
  });

  it("shows a deleted player's orders under the deletion's pseudonym, the unpaid one cancelled", async () => {
    const owner = await studio();
    const buyer = await playerWithTokens(deps);
    const { made } = await orders(owner, 0, 2, buyer);
    await payOrder(owner, made[0]!, buyer);
    const challenge = await call(withoutkey, 'POST', `${base}/account/deletion/challenge`, { token: buyer.platform });
    expect(challenge.status, JSON.stringify(challenge.body)).toBe(200);
    const { signature } = await buyer.keypair.signPersonalMessage(new TextEncoder().encode(challenge.body.data.message));
    const deleted = await call(withoutkey, 'POST', `${base}/account/delete`, { token: buyer.platform, body: { signature } });
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);

    const data = await page(owner.token);
    expect(data.items.map((item) => [item.id, item.status])).toEqual([
      [made[1]!.id, 2],
      [made[0]!.id, 1],
    ]);
    for (const item of data.items) expect(item.user_id).toMatch(/^former:[0-9a-f-]{36}$/);
    expect(JSON.stringify(data)).not.toContain(buyer.uid);
    // The index keys name the project, the shard and the order, never the player: the deletion left them as they were.
    const stored = (await itemsOfType(deps, 'order')).filter((item) => made.some((order) => order.id === item.id));
    expect(stored.map((item) => [item.gsi7pk, item.gsi7sk]).sort()).toEqual(
      made
        .map((order) => [`PROJECT_ORDERS#${owner.projects[0]!.name}#${order.id % ORDER_SHARDS}`, `${order.created_at}#${String(order.id).padStart(12, '0')}`])
        .sort(),
    );
  });
});
