import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ed25519Keypair } from '@mysten/sui/keypairs/ed25519';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startDynamoLocal, type LocalDynamo } from '../tools/local/dynamo.js';
import { createAllApps } from '../functions/apps.js';
import { startIndexerLoop } from '../core/chain/loop.js';
import { paymentHandlers } from '../core/payments/indexer-handlers.js';
import { createChain } from '../core/chain/source.js';
import { createDocumentClient } from '../core/platform/db.js';
import type { Deps } from '../core/deps.js';
import { repeatEvery, wait } from '../core/platform/loop.js';
import { LOCAL_STAGE } from '../core/platform/stages.js';
import { AddWinBody, ScoreReport } from '../core/rankings/models.js';
import { addWin, submitScores } from '../core/rankings/reports.js';
import { weekOf } from '../core/rankings/seasons.js';
import { startSettlementLoop } from '../core/rewards/loop.js';
import { call } from './support/http.js';
import { createTestDeps, itemsOfType } from './support/deps.js';
import { killLocalServers, logLines, request, startLocalServer } from './support/local-server.js';
import { PAST, pastMonth, pastWeek, rewardGame, scoresInPastWeek } from './support/rewards.js';
import { PAYMENT_TYPE, SUI, randomAddress, startSuiNode, type SuiNode } from './support/sui-node.js';

/**
 * The jobs of a long-running process: the chain indexer and settlement loops run their pass
 * whether or not anyone listens to it, a failing pass is logged with its cause and retried with a growing,
 * capped pause that a success resets, and `npm start` (tools/local/server.ts, a child process configured by
 * environment only) really indexes payments and settles seasons, seen through its HTTP API.
 */

const nodes: SuiNode[] = [];
const dynamos: LocalDynamo[] = [];

afterAll(async () => {
  await killLocalServers();
  await Promise.all([...nodes.map((node) => node.stop()), ...dynamos.map((dynamo) => dynamo.stop())]);
});

describe('repeatEvery', () => {
  it('backs off after failed passes (doubling from the interval, capped) and is back to the interval after a success; failures never end it', async () => {
    // false: the pass throws; true: it succeeds. After the script, passes succeed.
    const script = [false, false, false, false, false, false, true, false, true];
    let passes = 0;
    const pauses: number[] = [];
    const loop = repeatEvery(
      100,
      'test job',
      async () => {
        const outcome = script[passes++];
        if (outcome === false) throw new Error('table unavailable', { cause: new Error('connect ECONNREFUSED 127.0.0.1:1') });
      },
      {
        maxBackoffMs: 1000,
        // Records the pause asked for instead of waiting it; once enough are recorded, waits until stop().
        sleep: (ms, signal) => {
          pauses.push(ms);
          return pauses.length >= script.length + 2 ? wait(3_600_000, signal) : new Promise((r) => setImmediate(r));
        },
      },
    );
    await expect.poll(() => pauses.length, { timeout: 10_000 }).toBe(script.length + 2);
    await loop.stop();
    expect(passes).toBe(script.length + 2);
    expect(pauses).toEqual([200, 400, 800, 1000, 1000, 1000, 100, 200, 100, 100, 100]);
  });

  it('never backs off below the interval, and caps at the interval when the interval is longer than the cap', async () => {
    const pauses: number[] = [];
    const loop = repeatEvery(
      5000,
      'slow job',
      async () => {
        throw new Error('always');
      },
      {
        maxBackoffMs: 1000,
        sleep: (ms, signal) => {
          pauses.push(ms);
          return pauses.length >= 3 ? wait(3_600_000, signal) : Promise.resolve();
        },
      },
    );
    await expect.poll(() => pauses.length, { timeout: 10_000 }).toBe(3);
    await loop.stop();
    expect(pauses).toEqual([5000, 5000, 5000]);
  });
});

describe('the loops run their pass with no onPass (as the local server starts them)', () => {
  it('the indexer loop stores a payment event of the chain', async () => {
    const node = await startSuiNode();
    nodes.push(node);
    const base = await createTestDeps();
    const deps = { ...base, chain: createChain({ kind: 'jsonrpc', url: node.url, paymentEventType: PAYMENT_TYPE }) };
    const billNo = `PO${'7'.repeat(12)}`;
    node.script.pay({ billNo, coinType: SUI, emit: 'string' });
    const loop = startIndexerLoop(deps, { intervalMs: 50, handlers: paymentHandlers(deps) });
    try {
      await expect
        .poll(async () => (await itemsOfType(base, 'payment_event')).map((item) => item.bill_no), { timeout: 20_000, interval: 100 })
        .toEqual([billNo]);
    } finally {
      await loop.stop();
    }
  });

  it('the settlement loop settles a due season', async () => {
    const deps = await createTestDeps();
    const app = createAllApps(deps);
    const game = await rewardGame(deps, [{ rank: 1, amount: 3 }]);
    await scoresInPastWeek(deps, game, [{ id: 'looped', wins: 4 }]);
    const loop = startSettlementLoop(deps, { intervalMs: 50 });
    try {
      await expect
        .poll(
          async () =>
            (
              await call(app, 'GET', '/v2-testing/merchant/games/history/rank', {
                query: { game_code: game.code, season_type: 1, season_range: pastWeek().range },
              })
            ).body.data,
          { timeout: 20_000, interval: 100 },
        )
        .toEqual([expect.objectContaining({ platform_player_id: 'looped', rank: 1, reward_amount: 3 })]);
    } finally {
      await loop.stop();
    }
  });
});

describe('npm start runs its jobs (the server entry as a child process, its HTTP API only)', () => {
  const v2 = '/v2-testing';
  let dataDir: string;
  let dynamoDir: string;
  let dynamoPort: number;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'jobs-server-'));
    dynamoDir = mkdtempSync(join(tmpdir(), 'jobs-dynamo-'));
    dynamoPort = await freePort();
  });

  it('a payment on chain becomes a completable order, a due season becomes reward history, and a failing pass is logged with its cause and retried while the server keeps serving', async () => {
    // The DynamoDB the server uses (AWS_ENDPOINT_URL_DYNAMODB), ours so that the past season's scores can be
    // written into it, and so that it can be stopped and started again under the running server.
    let dynamo = await startDynamoLocal({ dataDir: dynamoDir, port: dynamoPort });
    dynamos.push(dynamo);
    const node = await startSuiNode();
    nodes.push(node);
    const server = await startLocalServer({
      DATA_DIR: dataDir,
      AWS_ENDPOINT_URL_DYNAMODB: dynamo.endpoint,
      AWS_REGION: 'local',
      AWS_ACCESS_KEY_ID: 'local',
      AWS_SECRET_ACCESS_KEY: 'local',
      CHAIN_CONFIG: JSON.stringify({ kind: 'jsonrpc', url: node.url, paymentEventType: PAYMENT_TYPE }),
      INDEXER_INTERVAL_MS: '200',
      SETTLEMENT_INTERVAL_MS: '200',
      // No admin: an empty table gets the demo merchant and its games.
      SEED_ADMIN_EMAIL: '',
      SEED_ADMIN_PASSWORD: '',
    });
    const api = (method: string, path: string, options?: Parameters<typeof request>[3]) => request(server.base, method, `${v2}${path}`, options);

    // The demo merchant signs in and opens a shop paid in SUI.
    const demo = server.output().match(/demo merchant account: (\S+) \/ (\S+)/);
    expect(demo, server.output()).not.toBeNull();
    const login = await api('POST', '/merchant/login', { body: { email: demo![1], password: demo![2] } });
    expect(login.status).toBe(200);
    const merchant = login.body.data.accessToken as string;
    const projectName = `jobs-${Date.now().toString(36)}`;
    const receiveAddress = randomAddress();
    const project = await api('POST', '/merchant/projects', {
      token: merchant,
      body: { project_name: projectName, receive_address: receiveAddress, coin_type: SUI, precison: 9 },
    });
    expect(project.status, JSON.stringify(project.body)).toBe(200);
    const level = await api('POST', '/merchant/projects/levels', {
      token: merchant,
      body: { project_name: projectName, level: 1, amount: 1_500_000_000, tickets: 100, status: 1 },
    });
    expect(level.status, JSON.stringify(level.body)).toBe(200);

    // A player signs in with a wallet and orders tickets.
    const keypair = Ed25519Keypair.generate();
    const address = keypair.toSuiAddress();
    const uuid = randomUUID();
    const nonce = await api('GET', '/account/nonce', { query: { address } });
    const { signature } = await keypair.signPersonalMessage(new TextEncoder().encode(nonce.body.data.message));
    const signIn = await api('POST', '/account/register/chainwallet', { body: { uuid, address, signature } });
    expect(signIn.status, JSON.stringify(signIn.body)).toBe(200);
    const player = signIn.body.platformToken.accessToken as string;
    const order = await api('POST', '/account/user/rechargeOrder', {
      token: player,
      body: { userId: uuid, project: projectName, priceId: level.body.data.priceId, prevId: -1, level: 1, amount: 1_500_000_000 },
    });
    expect(order.status, JSON.stringify(order.body)).toBe(200);

    // The wallet pays the bill on chain; after it, someone pays the shop's address with a bill of no order.
    // The indexer stores a page's events in chain order, so once the second is listed as stranded (which only
    // the indexer does), the order's payment is stored too.
    const payment = node.script.pay({ billNo: order.body.bill_no, amount: '1500000000', from: address, to: receiveAddress, coinType: SUI, emit: 'string' });
    const unbilled = node.script.pay({ billNo: `PO${'9'.repeat(12)}`, amount: '5', to: receiveAddress, coinType: SUI, emit: 'string' });
    const strandedDigests = async () => {
      const res = await api('GET', '/merchant/payments/stranded', { token: merchant, query: { project: projectName } });
      return res.status === 200 ? (res.body.data.payments as { cursor: { txDigest: string } }[]).map((p) => p.cursor.txDigest) : [];
    };
    await expect.poll(strandedDigests, { timeout: 60_000, interval: 250 }).toContain(unbilled.txDigest);
    const completed = await api('POST', '/account/user/orderComplete', { token: player, body: { orderId: order.body.id, transactionId: payment.txDigest } });
    expect(completed.status, JSON.stringify(completed.body)).toBe(200);
    // Completed from what the indexer stored: orderComplete never had to ask the node for the transaction.
    expect(node.calls('sui_getTransactionBlock').filter((c) => c.params[0] === payment.txDigest)).toEqual([]);

    // A due season: the demo game's reward table through the API; the scores of a past week written into the
    // server's table as addWin writes them during that week (the API reports only into the current week).
    const rewards = await api('POST', '/merchant/games/rewards', {
      token: merchant,
      body: {
        game_code: 'demo-arena',
        rewards: [
          { rank: 1, amount: 7 },
          { rank: 2, amount: 2 },
        ],
      },
    });
    expect(rewards.status, JSON.stringify(rewards.body)).toBe(200);
    const pastClock = {
      stage: LOCAL_STAGE,
      production: false,
      db: createDocumentClient({ endpoint: dynamo.endpoint }),
      table: 'game-platform',
      now: () => PAST,
    } as unknown as Deps;
    // One match report of both players (one transaction): the season becomes due with both scores in it, as
    // a real season is, whose reports all came before it ended (separate reports could let a pass settle it
    // between them).
    await submitScores(
      pastClock,
      ScoreReport.parse({
        game_code: 'demo-arena',
        result_id: 'past-match',
        scores: [
          { game_player_id: 'runner-up', game_player_name: 'runner-up', kills: 0, wins: 2 },
          { game_player_id: 'winner', game_player_name: 'winner', kills: 0, wins: 6 },
        ],
      }),
    );
    const history = async (type: number, range: string) =>
      (await api('GET', '/merchant/games/history/rank', { query: { game_code: 'demo-arena', season_type: type, season_range: range } })).body.data;
    for (const [type, range] of [
      [1, pastWeek().range],
      [2, pastMonth().range],
    ] as const) {
      await expect
        .poll(() => history(type, range), { timeout: 60_000, interval: 250 })
        .toEqual([
          expect.objectContaining({ platform_player_id: 'winner', rank: 1, achievement: 6, reward_amount: 7 }),
          expect.objectContaining({ platform_player_id: 'runner-up', rank: 2, achievement: 2, reward_amount: 2 }),
        ]);
    }

    // The table goes away under the running server: both jobs' passes fail, are logged with their cause, and
    // are retried with growing pauses; the server keeps running.
    await dynamo.stop();
    const failures = (job: string) =>
      logLines(server.output()).filter((line) => line.message === `${job}: pass failed; retrying with back-off`) as {
        error: { message: string; cause?: unknown; code?: string };
        failuresInRow: number;
        retryInMs: number;
      }[];
    for (const job of ['chain indexer', 'settlement']) {
      await expect.poll(() => failures(job).length, { timeout: 60_000, interval: 250 }).toBeGreaterThanOrEqual(2);
      const [first, second] = failures(job);
      expect(first!.error.message.length + JSON.stringify(first!.error.cause ?? '').length).toBeGreaterThan(0);
      expect(JSON.stringify(first!.error)).toMatch(/ECONNREFUSED|connect|socket/i);
      expect(first!.failuresInRow).toBe(1);
      expect(second!.failuresInRow).toBe(2);
      expect(second!.retryInMs).toBeGreaterThan(first!.retryInMs);
    }
    expect(server.child.exitCode).toBeNull();
    expect((await fetch(`${server.base}${v2}/health`)).status).toBe(200);

    // The table is back (same port, same data): the next retry succeeds and the jobs carry on.
    dynamo = await startDynamoLocal({ dataDir: dynamoDir, port: dynamoPort });
    dynamos.push(dynamo);
    const later = node.script.pay({ billNo: `PO${'8'.repeat(12)}`, amount: '6', to: receiveAddress, coinType: SUI, emit: 'string' });
    await expect.poll(strandedDigests, { timeout: 90_000, interval: 500 }).toContain(later.txDigest);
    // And settlement: a score of an earlier past week, written now, is settled by the next passes.
    const earlier = new Date(PAST.getTime() - 7 * 86_400_000);
    const afterwards = { ...pastClock, db: createDocumentClient({ endpoint: dynamo.endpoint }), now: () => earlier } as Deps;
    await addWin(afterwards, AddWinBody.parse({ game_code: 'demo-arena', game_player_id: 'after-outage', game_player_name: 'after', kills: 0, wins: 1 }));
    await expect
      .poll(() => history(1, weekOf(earlier).range), { timeout: 90_000, interval: 500 })
      .toEqual([expect.objectContaining({ platform_player_id: 'after-outage', rank: 1, reward_amount: 7 })]);
    expect(server.child.exitCode).toBeNull();

    expect(await server.stop()).toBe(0);
  }, 300_000);
});
