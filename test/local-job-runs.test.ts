import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, describe, expect, it } from 'vitest';
import { startIndexerLoop } from '../core/chain/loop.js';
import { createChain } from '../core/chain/source.js';
import { paymentHandlers } from '../core/payments/indexer-handlers.js';
import { SWEEP_AFTER_SECONDS } from '../core/privacy/deletion.js';
import { startDeletionsLoop } from '../core/privacy/loop.js';
import { startSnapshotLoop } from '../core/rankings/loop.js';
import { readSnapshot } from '../core/rankings/rank-snapshot.js';
import { isScoreChange } from '../core/rankings/rank-stream.js';
import { weekOf } from '../core/rankings/seasons.js';
import { rewardTableKey } from '../core/rewards/keys.js';
import { startSettlementLoop } from '../core/rewards/loop.js';
import { createAllApps } from '../functions/apps.js';
import { localConnection } from '../tools/local/dynamo.js';
import { recordedScoreBatches, ScoreStreamReader, startScoreStreamLoop } from '../tools/local/score-stream.js';
import { createTestDeps } from './support/deps.js';
import { call } from './support/http.js';
import { jobsOf } from './support/job-runs.js';
import { playerWithTokens, projectWithLevel } from './support/payments.js';
import { streamRecords } from './support/rankings.js';
import { addWinAt, rewardGame, scoresInPastWeek } from './support/rewards.js';
import { PAYMENT_TYPE, SUI, startSuiNode, type SuiNode } from './support/sui-node.js';
import { scanAll } from './support/table-snapshot.js';

/**
 * The local server's loops (tools/local/serve.ts, the stand-ins for the deployed jobs under `npm start`)
 * record their passes as the deployed jobs record their runs (test/job-runs.test.ts), so the stage overview
 * shows them locally too: each loop started as the server starts it, on a fresh table, its runs read through
 * the overview as an admin reads them. A failed pass (a failing node's, a broken reward table's) is recorded
 * with the deployed job's code, and the loop goes on to a next, successful, one.
 */

const nodes: SuiNode[] = [];
afterAll(async () => {
  await Promise.all(nodes.map((node) => node.stop()));
});

const poll = { timeout: 60_000, interval: 100 };

type JobRead = { last_run: { outcome: string; ended_at: string; error: unknown }; failures: { at: string }[] };

/**
 * A read of a failed pass that shows it twice: as the last run and as the newest failure. The overview reads the
 * two items side by side, and the loop, still failing every 50 ms, may record a pass between the two reads: the read
 * is taken again until both show the same pass.
 */
async function failedPass<T extends JobRead>(read: () => Promise<T>): Promise<T> {
  let seen: T | undefined;
  await expect
    .poll(async () => {
      seen = await read();
      return seen.last_run?.outcome === 'failed' && seen.failures[0]?.at === seen.last_run.ended_at;
    }, poll)
    .toBe(true);
  return seen!;
}

/** The loop went on after a failed pass: a later pass ended ok, after the failed one. */
const okAgainAfter = (read: () => Promise<{ last_run: { outcome: string } | null; last_success_at: string | null }>, failedAt: string) =>
  expect
    .poll(async () => {
      const now = await read();
      return now.last_run?.outcome === 'ok' && (now.last_success_at ?? '') > failedAt;
    }, poll)
    .toBe(true);

describe('the local loops record their passes as the deployed jobs record their runs', () => {
  it("the indexer's loop: an ok pass with what it read and its checkpoint; a pass the node fails, failed with the indexer's code; then ok again", async () => {
    const deps = await createTestDeps();
    const node = await startSuiNode();
    nodes.push(node);
    const shop = await projectWithLevel(deps);
    const payment = node.script.pay({ billNo: 'PO0000004343', amount: '5', to: shop.receiveAddress, coinType: SUI, emit: 'string' });
    const chained = { ...deps, chain: createChain({ kind: 'jsonrpc', url: node.url, paymentEventType: PAYMENT_TYPE }) };
    const checkpoint = `pay::PaymentEvent: ${payment.txDigest}#0`;
    const indexer = async () => (await jobsOf(deps)).indexer;
    const loop = startIndexerLoop(chained, { intervalMs: 50, handlers: paymentHandlers(chained) });
    try {
      // Later passes read nothing new, so only the checkpoint shows that a pass read the payment.
      await expect.poll(indexer, poll).toMatchObject({ last_run: { outcome: 'ok', checkpoint }, failures: [] });
      expect((await indexer()).last_run).toMatchObject({ error: null, did: { event_types: 1, read_errors: 0, types_failed: 0 }, request_id: null });

      // The node answers errors: the pass's reads fail, and the run fails as the deployed one does.
      node.failNext('http-503', 10_000);
      const failed = await failedPass(indexer);
      expect(failed.last_run).toMatchObject({
        error: { code: 'indexer.pass_failed', summary: expect.stringMatching(/^chain indexer: the pass failed for .*PaymentEvent \(node-error\)/) },
        did: { events: 0, types_failed: 1 },
        // Where the stream was left: the checkpoint did not move.
        checkpoint,
      });
      expect(failed.failures[0]).toEqual({ at: failed.last_run.ended_at, error: failed.last_run.error, request_id: null });

      // The node answers again: the loop, still running, records an ok pass after the failed ones.
      node.recover();
      await okAgainAfter(indexer, failed.last_run.ended_at);
    } finally {
      await loop.stop();
    }
  }, 120_000);

  it("settlement's loop: an ok pass with the seasons it settled; a pass that fails to settle, failed with settlement's code; then ok again", async () => {
    const deps = await createTestDeps();
    const settlement = async () => (await jobsOf(deps)).settlement;
    const good = await rewardGame(deps, [{ rank: 1, amount: 9 }]);
    await scoresInPastWeek(deps, good, [{ id: 'a', wins: 2 }]);
    // A long interval: the first pass's record stays the last run while it is read.
    const first = startSettlementLoop(deps, { intervalMs: 3_600_000 });
    try {
      await expect
        .poll(async () => (await settlement()).last_run?.did, poll)
        .toEqual({ seasons_due: 2, seasons_settled: 2, seasons_already_settled: 0, seasons_failed: 0 });
      expect(await settlement()).toMatchObject({ last_run: { outcome: 'ok', error: null, request_id: null }, failures: [] });
    } finally {
      await first.stop();
    }

    // A game whose reward table is not one: settling its seasons throws, and each pass fails until it is gone.
    const broken = await rewardGame(deps, [{ rank: 1, amount: 9 }]);
    await scoresInPastWeek(deps, broken, [{ id: 'b', wins: 2 }]);
    await deps.db.send(new PutCommand({ TableName: deps.table, Item: { ...rewardTableKey(broken.code), rewards: 'not a list' } }));
    const loop = startSettlementLoop(deps, { intervalMs: 50 });
    try {
      const failed = await failedPass(settlement);
      expect(failed.last_run).toMatchObject({
        error: { code: 'settlement.seasons_failed', summary: expect.stringMatching(/^settlement: 2 of 2 due seasons failed to settle/) },
        did: { seasons_due: 2, seasons_settled: 0, seasons_failed: 2 },
      });
      expect(failed.failures[0]).toEqual({ at: failed.last_run.ended_at, error: failed.last_run.error, request_id: null });

      // Without a reward table its seasons close with no entries: the loop, still running, records an ok pass.
      await deps.db.send(new DeleteCommand({ TableName: deps.table, Key: rewardTableKey(broken.code) }));
      await okAgainAfter(settlement, failed.last_run.ended_at);
    } finally {
      await loop.stop();
    }
  }, 120_000);

  it("the rank pages' stream loop: a batch of score records is a run, with its records and boards", async () => {
    const deps = await createTestDeps({ stream: true });
    const game = await rewardGame(deps);
    await scoresInPastWeek(deps, game, [{ id: 'a', wins: 2 }]);
    const scores = (await streamRecords(deps)).filter(isScoreChange).length;
    expect(scores).toBeGreaterThan(0);
    const loop = startScoreStreamLoop(deps, localConnection(deps.endpoint), 50);
    try {
      // The week's and the month's wins boards.
      await expect
        .poll(async () => (await jobsOf(deps))['rank-pages'].last_run, poll)
        .toMatchObject({ outcome: 'ok', error: null, did: { records: scores, boards: 2 }, request_id: null });
    } finally {
      await loop.stop();
    }
  }, 120_000);

  it("the rank pages' stream loop: a poll that finds no score record is not a run, though the stream holds the last run's own record", async () => {
    const deps = await createTestDeps({ stream: true });
    const game = await rewardGame(deps);
    await scoresInPastWeek(deps, game, [{ id: 'a', wins: 2 }]);
    // One reader, as the loop's: each drain reads on from where the last one stopped.
    const reader = new ScoreStreamReader(deps, localConnection(deps.endpoint), recordedScoreBatches(deps));
    const first = new Date('2032-05-01T10:00:00.000Z');
    deps.setNow(first);
    try {
      expect(await reader.drain()).toBeGreaterThan(0);
      expect((await jobsOf(deps))['rank-pages'].last_run).toMatchObject({ outcome: 'ok', started_at: first.toISOString(), did: { boards: 2 } });
      // What was written since (the run's record, the admin reading the overview) is read, and recorded as no run.
      deps.setNow(new Date('2032-05-01T10:05:00.000Z'));
      expect(await reader.drain()).toBeGreaterThan(0);
      expect((await jobsOf(deps))['rank-pages'].last_run.started_at).toBe(first.toISOString());
    } finally {
      deps.setNow(undefined);
    }
  }, 120_000);

  it("the rank snapshots' loop: an ok pass with the seasons and boards it wrote, each board's snapshot from the score items", async () => {
    const deps = await createTestDeps();
    const game = await rewardGame(deps);
    const now = new Date();
    // Two players of the current week and month: one with kills and wins, one with wins only.
    await addWinAt(deps, game, now, { id: 'a', kills: 3, wins: 1 });
    await addWinAt(deps, game, new Date(now.getTime() + 1), { id: 'b', wins: 2 });
    // A long interval: the first pass's record stays the last run while it is read.
    const loop = startSnapshotLoop(deps, { intervalMs: 3_600_000 });
    try {
      await expect
        .poll(async () => (await jobsOf(deps))['rank-snapshots'].last_run, poll)
        .toMatchObject({ outcome: 'ok', error: null, did: { seasons: 2, boards: 4, boards_deferred: 0, pages_deleted: 0 }, request_id: null });
    } finally {
      await loop.stop();
    }
    const season = weekOf(now);
    expect((await readSnapshot(deps, { board: 'kills', game: game.code, season })).players).toBe(1);
    expect((await readSnapshot(deps, { board: 'wins', game: game.code, season })).players).toBe(2);
  }, 120_000);

  it("the deletions' loop: the pass that makes an answered deletion's last sweep is an ok run that finished it, and the player is forgotten", async () => {
    const deps = await createTestDeps();
    const app = createAllApps(deps);
    const player = await playerWithTokens(deps);
    const challenge = await call(app, 'POST', '/v2-testing/account/deletion/challenge', { token: player.platform });
    expect(challenge.status, JSON.stringify(challenge.body)).toBe(200);
    const { signature } = await player.keypair.signPersonalMessage(new TextEncoder().encode(challenge.body.data.message));
    const deleted = await call(app, 'POST', '/v2-testing/account/delete', { token: player.platform, body: { signature } });
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
    const holding = async () => (await scanAll(deps)).filter((item) => JSON.stringify(item).includes(player.uid));
    // Until its sweep the deletion's record and what it learned, beside it, still know the player.
    expect(new Set((await holding()).map((item) => String(item.pk).split('#')[0]))).toEqual(new Set(['ERASURE']));

    // The deps' clock past the sweep's due time; a long interval: the first pass's record stays the last run.
    deps.setNow(new Date(Date.now() + (SWEEP_AFTER_SECONDS + 1) * 1000));
    const loop = startDeletionsLoop(deps, { intervalMs: 3_600_000 });
    try {
      await expect
        .poll(async () => (await jobsOf(deps)).deletions.last_run, poll)
        .toMatchObject({ outcome: 'ok', error: null, did: { finished: 1, failed: 0 }, request_id: null });
    } finally {
      await loop.stop();
      deps.setNow(undefined);
    }
    expect(await holding()).toEqual([]);
  }, 120_000);
});
