import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { setMerchantStatus } from '../core/merchants/merchants.js';
import { merchantKey } from '../core/merchants/keys.js';
import { MerchantStatus } from '../core/merchants/models.js';
import { registerClient } from '../core/partner-store/clients.js';
import { clientKey } from '../core/partner-store/keys.js';
import type { StoreRegion } from '../core/partner-store/regions.js';
import { orderKey, projectOrdersKeys } from '../core/payments/order-keys.js';
import { createRechargeOrder } from '../core/payments/orders.js';
import { createDocumentClient } from '../core/platform/db.js';
import { backfillIndexes, type BackfillCounts, type BackfillOptions } from '../core/platform/index-backfill.js';
import { INDEX_BACKFILLS } from '../tools/admin/index-backfills.js';
import { createAllApps } from '../functions/apps.js';
import { createTestDeps, itemsOfType, type TestDeps } from './support/deps.js';
import { call } from './support/http.js';
import { accountWithToken, merchantWithToken } from './support/merchants.js';
import { indexedPayment, playerWithTokens, projectWithLevel } from './support/payments.js';
import { scanAll } from './support/table-snapshot.js';

/**
 * The pass that gives items written before an index the keys this version's writes set (docs/data-model.md
 * "Items written before an index"): items are made through the real operations, then taken back to what an older
 * version wrote (the index's attributes removed); the pass makes them listed again by the operations that read
 * the index, with exactly the items the live writes made, and running it again changes nothing. Each test has a
 * table of its own, so the pass's counts are its items'.
 */
const base = '/v2-testing';
type Key = { pk: string; sk: string };

async function world() {
  const deps = await createTestDeps();
  return { deps, app: createAllApps(deps) };
}

const run = (deps: TestDeps, options: BackfillOptions = {}) => backfillIndexes(deps, INDEX_BACKFILLS, options);

/** What a write before the index left: the item without the index's two attributes. */
async function unindexed(deps: TestDeps, keys: Key[], attributes: [string, string]) {
  for (const key of keys) {
    await deps.db.send(new UpdateCommand({ TableName: deps.table, Key: key, UpdateExpression: `REMOVE ${attributes.join(', ')}` }));
  }
}

const NOTHING: BackfillCounts = { scanned: 0, updated: 0, already_set: 0, without_keys: 0, unreadable: 0, changed_meanwhile: 0 };
const counted = (given: Partial<BackfillCounts>) => ({ ...NOTHING, ...given });

async function ok(res: Promise<{ status: number; body: any }>) {
  const answer = await res;
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body;
}

async function listedOrders(app: ReturnType<typeof createAllApps>, token: string) {
  const body = await ok(call(app, 'GET', `${base}/merchant/orders`, { token, query: { limit: 100 } }));
  return (body.data.items as { id: number; status: number; user_id: string }[]).map(({ id, status, user_id }) => ({ id, status, user_id }));
}

async function listedMerchants(app: ReturnType<typeof createAllApps>, token: string, status: number) {
  const body = await ok(call(app, 'GET', `${base}/merchant/admin/merchants`, { token, query: { status, limit: 100 } }));
  return (body.data.items as { id: number }[]).map((merchant) => merchant.id);
}

async function listedClients(app: ReturnType<typeof createAllApps>, token: string, region: StoreRegion) {
  const body = await ok(call(app, 'GET', `${base}/merchant/admin/store/clients`, { token, query: { region, limit: 100 } }));
  return (body.data.clients as { client_id: string }[]).map((client) => client.client_id);
}

/** A project's pending orders by one player (as rechargeOrder makes them), the first paid. */
async function ordersOf(deps: TestDeps, app: ReturnType<typeof createAllApps>, shop: Awaited<ReturnType<typeof projectWithLevel>>, count: number) {
  const buyer = await playerWithTokens(deps);
  const made = [];
  for (let i = 0; i < count; i++) {
    made.push(
      await createRechargeOrder(deps, buyer.uid, {
        userId: buyer.uid,
        project: shop.project.project_name,
        priceId: shop.level.priceId,
        prevId: -1,
        level: 1,
        amount: '1500000000',
      }),
    );
  }
  const digest = await indexedPayment(deps, { billNo: made[0]!.bill_no, amount: '1500000000', from: buyer.address, to: shop.receiveAddress });
  await ok(call(app, 'POST', `${base}/account/user/orderComplete`, { token: buyer.platform, body: { orderId: made[0]!.id, transactionId: digest } }));
  return { buyer, made };
}

describe('backfill-indexes: pay orders (merchant_orders)', () => {
  it('lists the orders made before the index once the pass has set their keys as rechargeOrder sets them, and nothing else; a second run updates none', async () => {
    const { deps, app } = await world();
    const shop = await projectWithLevel(deps);
    const { buyer, made } = await ordersOf(deps, app, shop, 3);
    const written = await scanAll(deps);
    await unindexed(
      deps,
      made.map((order) => orderKey(order.id)),
      ['gsi7pk', 'gsi7sk'],
    );
    expect(await listedOrders(app, shop.owner.token)).toEqual([]);
    const old = await scanAll(deps);

    // A dry run counts them and writes nothing.
    const dry = await run(deps, { dryRun: true });
    expect(dry.orders).toEqual(counted({ scanned: 3, updated: 3 }));
    expect(await scanAll(deps)).toEqual(old);
    expect(await listedOrders(app, shop.owner.token)).toEqual([]);

    const first = await run(deps);
    expect(first.orders).toEqual(counted({ scanned: 3, updated: 3 }));
    // Each order is again exactly as the live writes left it: the keys they set, no other attribute touched.
    expect(await scanAll(deps)).toEqual(written);
    expect(await listedOrders(app, shop.owner.token)).toEqual(
      [...made].reverse().map((order, i) => ({ id: order.id, status: i === made.length - 1 ? 1 : 0, user_id: buyer.uid })),
    );

    const second = await run(deps);
    expect(second.orders).toEqual(counted({ scanned: 3, already_set: 3 }));
    for (const counts of Object.values(second)) expect(counts.updated).toBe(0);
    expect(await scanAll(deps)).toEqual(written);
  });

  it("gives a deleted player's pseudonymized order the keys it would have kept: listed under the pseudonym, the unpaid one cancelled", async () => {
    const { deps, app } = await world();
    const shop = await projectWithLevel(deps);
    const { buyer, made } = await ordersOf(deps, app, shop, 2);
    await unindexed(
      deps,
      made.map((order) => orderKey(order.id)),
      ['gsi7pk', 'gsi7sk'],
    );
    const challenge = await ok(call(app, 'POST', `${base}/account/deletion/challenge`, { token: buyer.platform }));
    const { signature } = await buyer.keypair.signPersonalMessage(new TextEncoder().encode(challenge.data.message));
    await ok(call(app, 'POST', `${base}/account/delete`, { token: buyer.platform, body: { signature } }));
    expect(await listedOrders(app, shop.owner.token)).toEqual([]);

    expect((await run(deps)).orders).toEqual(counted({ scanned: 2, updated: 2 }));
    const listed = await listedOrders(app, shop.owner.token);
    expect(listed.map(({ id, status }) => [id, status])).toEqual([
      [made[1]!.id, 2],
      [made[0]!.id, 1],
    ]);
    for (const order of listed) expect(order.user_id).toMatch(/^former:[0-9a-f-]{36}$/);
    // The keys name the project, the shard and the order, never the player: those of the orders as made.
    const stored = await itemsOfType(deps, 'order');
    expect(stored.map((item) => [item.gsi7pk, item.gsi7sk]).sort()).toEqual(
      made.map((order) => Object.values(projectOrdersKeys({ ...order, project_name: shop.project.project_name }))).sort(),
    );
    expect(JSON.stringify(stored)).not.toContain(buyer.uid);
  });
});

describe('backfill-indexes: merchants (admin_merchants)', () => {
  it('lists the merchants made before the index under the status each holds, as the status change sets the keys', async () => {
    const { deps, app } = await world();
    const admin = await accountWithToken(deps, 'admin');
    const merchants = [
      await merchantWithToken(deps, MerchantStatus.pending),
      await merchantWithToken(deps, MerchantStatus.active),
      await merchantWithToken(deps, MerchantStatus.suspended),
    ];
    const written = await scanAll(deps);
    await unindexed(
      deps,
      merchants.map((merchant) => merchantKey(merchant.accountId)),
      ['gsi2pk', 'gsi2sk'],
    );
    for (const status of [0, 1, 2]) expect(await listedMerchants(app, admin.token, status)).toEqual([]);

    expect((await run(deps)).merchants).toEqual(counted({ scanned: 3, updated: 3 }));
    expect(await scanAll(deps)).toEqual(written);
    for (const [status, merchant] of merchants.entries()) expect(await listedMerchants(app, admin.token, status)).toEqual([merchant.merchant.id]);
    expect((await run(deps)).merchants).toEqual(counted({ scanned: 3, already_set: 3 }));
  });

  it('leaves a merchant whose status changed between the Scan and its update with the keys of that change', async () => {
    const { deps, app } = await world();
    const admin = await accountWithToken(deps, 'admin');
    const changed = await merchantWithToken(deps, MerchantStatus.pending);
    // An older version still running changes a status without the keys: the update must not list it under the old one.
    const changedByOld = await merchantWithToken(deps, MerchantStatus.pending);
    await unindexed(
      deps,
      [changed, changedByOld].map((merchant) => merchantKey(merchant.accountId)),
      ['gsi2pk', 'gsi2sk'],
    );
    const between = new Map<string, () => Promise<unknown>>([
      [merchantKey(changed.accountId).pk, () => setMerchantStatus(deps, changed.merchant.id, MerchantStatus.active, { reason: 'reviewed' })],
      [
        merchantKey(changedByOld.accountId).pk,
        () =>
          deps.db.send(
            new UpdateCommand({
              TableName: deps.table,
              Key: merchantKey(changedByOld.accountId),
              UpdateExpression: 'SET #status = :status',
              ExpressionAttributeNames: { '#status': 'status' },
              ExpressionAttributeValues: { ':status': MerchantStatus.suspended },
            }),
          ),
      ],
    ]);
    // The pass's own client: each merchant's status changes just before the pass's update of it is sent.
    const db = createDocumentClient({ endpoint: deps.endpoint });
    // The SDK's stack as test/support/conflict-emulator.ts adds to it: the build step sees the command's wire form.
    (db.middlewareStack as unknown as { add(middleware: unknown, options: { step: 'build'; name: string }): void }).add(
      (next: (args: { input: unknown }) => Promise<unknown>, context: { commandName?: string }) => async (args: { input: unknown }) => {
        const pk = (args.input as { Key?: { pk?: { S?: string } } }).Key?.pk?.S;
        const change = context.commandName === 'UpdateItemCommand' && pk !== undefined ? between.get(pk) : undefined;
        if (change) {
          between.delete(pk!);
          await change();
        }
        return next(args);
      },
      { step: 'build', name: 'statusChangeBetween' },
    );

    const first = await backfillIndexes({ db, table: deps.table }, INDEX_BACKFILLS);
    expect(between.size).toBe(0);
    expect(first.merchants).toEqual(counted({ scanned: 2, changed_meanwhile: 2 }));
    // The live change's keys stay: the merchant is listed under its new status only.
    expect(await listedMerchants(app, admin.token, MerchantStatus.pending)).toEqual([]);
    expect(await listedMerchants(app, admin.token, MerchantStatus.active)).toEqual([changed.merchant.id]);
    // The older version's change set none; the next run gives the merchant those of the status it holds now.
    const [left] = (await itemsOfType(deps, 'merchant')).filter((item) => item.id === changedByOld.merchant.id);
    expect(left).not.toHaveProperty('gsi2pk');
    expect((await run(deps)).merchants).toEqual(counted({ scanned: 2, updated: 1, already_set: 1 }));
    expect(await listedMerchants(app, admin.token, MerchantStatus.suspended)).toEqual([changedByOld.merchant.id]);
    expect(await listedMerchants(app, admin.token, MerchantStatus.pending)).toEqual([]);
  });
});

describe('backfill-indexes: partner store clients (store client list)', () => {
  it("lists the clients registered before the index in their region's list, newest first", async () => {
    const { deps, app } = await world();
    const admin = await accountWithToken(deps, 'admin');
    const clients: { region: StoreRegion; id: string }[] = [];
    // A minute apart, so the newest-first order is the order made.
    const start = Date.now();
    for (const region of ['default', 'chengdu', 'default'] as const) {
      deps.setNow(new Date(start + clients.length * 60_000));
      const { client } = await registerClient(deps, {
        region,
        type: 'confidential',
        name: `Partner ${clients.length}`,
        redirect_uris: ['https://partner.example/cb'],
        scopes: ['profile'],
      });
      clients.push({ region, id: client.client_id });
    }
    deps.setNow(undefined);
    const written = await scanAll(deps);
    await unindexed(
      deps,
      clients.map((client) => clientKey(client.region, client.id)),
      ['gsi1pk', 'gsi1sk'],
    );
    expect(await listedClients(app, admin.token, 'default')).toEqual([]);

    expect((await run(deps)).store_clients).toEqual(counted({ scanned: 3, updated: 3 }));
    expect(await scanAll(deps)).toEqual(written);
    expect(await listedClients(app, admin.token, 'default')).toEqual([clients[2]!.id, clients[0]!.id]);
    expect(await listedClients(app, admin.token, 'chengdu')).toEqual([clients[1]!.id]);
    expect((await run(deps)).store_clients).toEqual(counted({ scanned: 3, already_set: 3 }));
  });
});

describe('npm run admin -- backfill-indexes', () => {
  /** The command as docs/data-model.md gives it, against a test table; its stdout's summary. */
  const admin = async (deps: TestDeps, ...args: string[]) => {
    const { stdout } = await promisify(execFile)(
      'npm',
      ['run', '-s', 'admin', '--', 'backfill-indexes', '--table', deps.table, '--endpoint', deps.endpoint, ...args],
      { cwd: process.cwd() },
    );
    return JSON.parse(stdout) as { table: string; dry_run: boolean; kinds: Record<string, BackfillCounts> };
  };

  it('counts with --dry-run writing nothing, then sets the keys, and prints the counts of every kind', async () => {
    const { deps, app } = await world();
    const shop = await projectWithLevel(deps);
    const { made } = await ordersOf(deps, app, shop, 2);
    await unindexed(deps, [merchantKey(shop.owner.accountId)], ['gsi2pk', 'gsi2sk']);
    await unindexed(
      deps,
      made.map((order) => orderKey(order.id)),
      ['gsi7pk', 'gsi7sk'],
    );
    const old = await scanAll(deps);

    const dry = await admin(deps, '--dry-run');
    expect(dry).toMatchObject({ table: deps.table, dry_run: true });
    expect(Object.keys(dry.kinds).sort()).toEqual(INDEX_BACKFILLS.map((kind) => kind.kind).sort());
    expect(dry.kinds.orders).toEqual(counted({ scanned: 2, updated: 2 }));
    expect(dry.kinds.merchants).toEqual(counted({ scanned: 1, updated: 1 }));
    expect(await scanAll(deps)).toEqual(old);

    const done = await admin(deps);
    expect(done).toMatchObject({ table: deps.table, dry_run: false });
    expect(done.kinds.orders).toEqual(counted({ scanned: 2, updated: 2 }));
    expect(done.kinds.merchants).toEqual(counted({ scanned: 1, updated: 1 }));
    expect((await listedOrders(app, shop.owner.token)).map((order) => order.id)).toEqual(made.map((order) => order.id).reverse());
  });
});
