import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAllApps } from '../functions/apps.js';
import { canonicalType } from '../core/chain/names.js';
import { LOCAL_STAGE } from '../core/platform/stages.js';
import { call } from './support/http.js';
import { createTestDeps, itemsOfType, type TestDeps } from './support/deps.js';
import { playerWithTokens, projectWithLevel } from './support/payments.js';
import { pastMonth, pastWeek, rewardGame, scoresInPastWeek } from './support/rewards.js';
import { invokeScheduled } from './support/scheduled.js';
import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { rewardTableKey } from '../core/rewards/keys.js';
import { PAYMENT_TYPE, SUI, startSuiNode, type Loopback, type ChainScript } from './support/sui-node.js';
import { startSuiGraphQL } from './support/sui-graphql.js';

/**
 * The deployed scheduled functions (infra/jobs.ts) as Lambda runs them: the `handler` each entry exports, in a
 * process of its own, its Deps built by functions/deployed.ts from the SST resources infra links to it
 * (functions/deployed.ts functionNeeds: the indexer Table and ChainConfig, settlement Table only), against
 * DynamoDB Local and a loopback Sui node. What they did is read back through the HTTP API of an app on the same
 * table that has no chain of its own: a payment it can complete an order with was stored by the indexer.
 */

let deps: TestDeps;
let app: ReturnType<typeof createAllApps>;
const servers: Loopback[] = [];
const account = '/v2-testing/account';

beforeAll(async () => {
  deps = await createTestDeps();
  app = createAllApps(deps);
});

afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop()));
});

/** The resources infra links to a function, as SST gives them to it. */
const appResource = (stage = LOCAL_STAGE) => ({ App: { name: 'game-platform', stage } });

describe('the indexer Lambda (functions/jobs/indexer.ts handler)', () => {
  it.each([
    ['jsonrpc', startSuiNode],
    ['graphql', startSuiGraphQL],
  ] as const)(
    'stores a payment event of the %s node, which then completes its order; a second run finds nothing new',
    async (kind, start) => {
      const node = (await start()) as Loopback & { script: ChainScript };
      servers.push(node);
      const shop = await projectWithLevel(deps);
      const player = await playerWithTokens(deps);
      const order = await call(app, 'POST', `${account}/user/rechargeOrder`, {
        token: player.platform,
        body: { userId: player.uid, project: shop.project.project_name, priceId: shop.level.priceId, prevId: -1, level: 1, amount: 1_500_000_000 },
      });
      expect(order.status, JSON.stringify(order.body)).toBe(200);
      const { id: orderId, bill_no: billNo } = order.body;
      // The wallet pays the bill on chain: the contract's event, coin_type as text, as the real node renders it.
      const payment = node.script.pay({ billNo, amount: '1500000000', from: player.address, to: shop.receiveAddress, coinType: SUI, emit: 'string' });
      const complete = () => call(app, 'POST', `${account}/user/orderComplete`, { token: player.platform, body: { orderId, transactionId: payment.txDigest } });
      // This app has no chain: before the indexer ran, the payment is unknown to it.
      expect((await complete()).status).toBe(404);

      const resources = {
        ...appResource(),
        Table: { name: deps.table },
        ChainConfig: { value: JSON.stringify({ kind, url: node.url, paymentEventType: PAYMENT_TYPE }) },
      };
      const env = { DYNAMODB_ENDPOINT: deps.endpoint };
      const first = await invokeScheduled('functions/jobs/indexer.ts', resources, env);
      expect(first.result).toEqual({ [canonicalType(PAYMENT_TYPE)]: { pages: 1, events: 1, errors: 0, stopped: 'caught-up' } });
      const stored = (await itemsOfType(deps, 'payment_event')).filter((item) => item.bill_no === billNo);
      expect(stored).toEqual([expect.objectContaining({ amount: '1500000000', toer: shop.receiveAddress, fromer: player.address })]);

      const completed = await complete();
      expect(completed.status, JSON.stringify(completed.body)).toBe(200);
      // A second run starts from the cursor the first saved: nothing new.
      const second = await invokeScheduled('functions/jobs/indexer.ts', resources, env);
      expect(second.result).toEqual({ [canonicalType(PAYMENT_TYPE)]: { pages: 1, events: 0, errors: 0, stopped: 'caught-up' } });
      expect((await itemsOfType(deps, 'payment_event')).filter((item) => item.bill_no === billNo)).toHaveLength(1);
    },
    120_000,
  );

  it('fails the invocation (so Lambda reports and retries it) when its pass throws: it is never silently skipped', async () => {
    const node = await startSuiNode();
    servers.push(node);
    const resources = {
      ...appResource(),
      Table: { name: `${deps.table}-missing` },
      ChainConfig: { value: JSON.stringify({ kind: 'jsonrpc', url: node.url, paymentEventType: PAYMENT_TYPE }) },
    };
    await expect(invokeScheduled('functions/jobs/indexer.ts', resources, { DYNAMODB_ENDPOINT: deps.endpoint })).rejects.toThrow(
      /ResourceNotFoundException|non-existent table/,
    );
  }, 60_000);
});

describe("a failed pass fails the invocation, so the job's Errors alarm sees it (infra/alarms.ts)", () => {
  it('the indexer: a node that keeps failing fails the run, naming the type; the next run indexes what was missed', async () => {
    const node = await startSuiNode();
    servers.push(node);
    const shop = await projectWithLevel(deps);
    const payment = node.script.pay({ billNo: 'PO0000009999', amount: '5', to: shop.receiveAddress, coinType: SUI, emit: 'string' });
    const resources = {
      ...appResource(),
      Table: { name: deps.table },
      ChainConfig: { value: JSON.stringify({ kind: 'jsonrpc', url: node.url, paymentEventType: PAYMENT_TYPE }) },
    };
    node.failNext('http-503', 50);
    await expect(invokeScheduled('functions/jobs/indexer.ts', resources, { DYNAMODB_ENDPOINT: deps.endpoint })).rejects.toThrow(
      /chain indexer: the pass failed for .*PaymentEvent \(node-error\)/,
    );
    expect((await itemsOfType(deps, 'payment_event')).filter((item) => item.tx_digest === payment.txDigest || item.bill_no === 'PO0000009999')).toEqual([]);
    node.recover();
    const next = await invokeScheduled('functions/jobs/indexer.ts', resources, { DYNAMODB_ENDPOINT: deps.endpoint });
    expect(Object.values(next.result as Record<string, { stopped: string }>)[0]!.stopped).toBe('caught-up');
    expect((await itemsOfType(deps, 'payment_event')).filter((item) => item.bill_no === 'PO0000009999')).toHaveLength(1);
  }, 120_000);

  it('settlement: a season that cannot be settled fails the run after the others are settled', async () => {
    const own = await createTestDeps();
    const good = await rewardGame(own, [{ rank: 1, amount: 9 }]);
    const broken = await rewardGame(own, [{ rank: 1, amount: 9 }]);
    await scoresInPastWeek(own, good, [{ id: 'a', wins: 2 }]);
    await scoresInPastWeek(own, broken, [{ id: 'b', wins: 2 }]);
    // The broken game's reward table as no code writes it: settling its seasons throws.
    await own.db.send(new PutCommand({ TableName: own.table, Item: { ...rewardTableKey(broken.code), rewards: 'not a list' } }));
    const resources = { ...appResource(), Table: { name: own.table } };
    await expect(invokeScheduled('functions/jobs/settlement.ts', resources, { DYNAMODB_ENDPOINT: own.endpoint })).rejects.toThrow(
      /settlement: 2 of 4 due seasons failed to settle/,
    );
    const settled = (await itemsOfType(own, 'history_rank')).map((item) => item.game_code);
    expect(settled.sort()).toEqual([good.code, good.code]);
    // The table as code writes it again (test/stored-items.test.ts reads every item the suite leaves).
    await own.db.send(new DeleteCommand({ TableName: own.table, Key: rewardTableKey(broken.code) }));
  }, 120_000);
});

describe('the settlement Lambda (functions/jobs/settlement.ts handler)', () => {
  it('settles every due season of the table once: the history rank shows it; a second run settles nothing', async () => {
    const own = await createTestDeps();
    const ownApp = createAllApps(own);
    const game = await rewardGame(own, [
      { rank: 1, amount: 9 },
      { rank: 2, amount: 4 },
    ]);
    await scoresInPastWeek(own, game, [
      { id: 'first', wins: 2 },
      { id: 'second', wins: 5 },
      { id: 'third', wins: 1 },
    ]);
    const history = async (type: number, range: string) => {
      const res = await call(ownApp, 'GET', '/v2-testing/merchant/games/history/rank', {
        query: { game_code: game.code, season_type: type, season_range: range },
      });
      expect(res.status).toBe(200);
      return res.body.data as { platform_player_id: string; rank: number; reward_amount: number }[];
    };
    expect(await history(1, pastWeek().range)).toEqual([]);

    // Settlement is linked to the table only (functions/deployed.ts functionNeeds.settlement).
    const resources = { ...appResource(), Table: { name: own.table } };
    const env = { DYNAMODB_ENDPOINT: own.endpoint };
    const first = await invokeScheduled('functions/jobs/settlement.ts', resources, env);
    expect(first.result).toEqual({ settled: 2, settledNow: 2, failed: 0 });
    for (const [type, range] of [
      [1, pastWeek().range],
      [2, pastMonth().range],
    ] as const) {
      expect(await history(type, range)).toEqual([
        expect.objectContaining({ platform_player_id: 'second', rank: 1, reward_amount: 9 }),
        expect.objectContaining({ platform_player_id: 'first', rank: 2, reward_amount: 4 }),
      ]);
    }
    const second = await invokeScheduled('functions/jobs/settlement.ts', resources, env);
    expect(second.result).toEqual({ settled: 0, settledNow: 0, failed: 0 });
    expect(await itemsOfType(own, 'history_rank')).toHaveLength(4);
  }, 120_000);
});
