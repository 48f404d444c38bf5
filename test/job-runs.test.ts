import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { readItems } from '../core/platform/batch.js';
import { dayStatsKeys, figuresOfDays } from '../core/platform/day-stats.js';
import { afterAll, describe, expect, it } from 'vitest';
import { JobFailed, recordedRun } from '../core/platform/job-runs.js';
import { withRequestContext } from '../core/platform/request-context.js';
import { LOCAL_STAGE } from '../core/platform/stages.js';
import { rewardTableKey } from '../core/rewards/keys.js';
import { createTestDeps, itemsOfType, type TestDeps } from './support/deps.js';
import { jobsOf } from './support/job-runs.js';
import { projectWithLevel } from './support/payments.js';
import { rewardGame, scoresInPastWeek } from './support/rewards.js';
import { invokeLambda, invokeScheduled } from './support/scheduled.js';
import { PAYMENT_TYPE, SUI, startSuiNode, type SuiNode } from './support/sui-node.js';

/**
 * The scheduled jobs' runs (core/platform/job-runs.ts) as the stage overview shows them
 * (`GET /merchant/admin/overview`): each run's record, written whatever its outcome and never failing the job;
 * the failed runs listed by day. First through recordedRun in this process (the clock the deps'), then through
 * the deployed jobs' handlers as Lambda runs them (functions/jobs/indexer.ts, settlement.ts, deletions.ts,
 * rank-pages.ts, each in a process of its own).
 */

const nodes: SuiNode[] = [];
afterAll(async () => {
  await Promise.all(nodes.map((node) => node.stop()));
});

/** A DynamoDB client middleware refusing every write of a run's record while `on()`. */
function refuseRunRecords(deps: TestDeps) {
  let refusing = true;
  let refused = 0;
  deps.db.middlewareStack.add(
    (next, context) => async (args) => {
      const input = args.input as { Key?: { pk?: unknown }; Item?: { pk?: unknown } };
      const pk = input.Key?.pk ?? input.Item?.pk;
      const name = typeof pk === 'string' ? pk : (pk as { S?: string } | undefined)?.S;
      if (refusing && /^(PutItem|UpdateItem)Command$/.test(context.commandName ?? '') && /^JOB(RUN|FAIL)#/.test(name ?? '')) {
        refused++;
        throw Object.assign(new Error('Internal server error'), { name: 'InternalServerError', $fault: 'server' });
      }
      return next(args);
    },
    { step: 'initialize', name: 'refuseRunRecords' },
  );
  return {
    refused: () => refused,
    stop: () => {
      refusing = false;
      deps.db.middlewareStack.remove('refuseRunRecords');
    },
  };
}

describe('a job run, recorded (recordedRun)', () => {
  it('records an ok run (what it did, its request id, the last success) and a failed one (its code and summary, kept in the failures)', async () => {
    const deps = await createTestDeps();
    deps.setNow(new Date('2032-02-10T10:00:00.000Z'));
    const answer = await withRequestContext({ requestId: 'run-ok-1' }, () =>
      recordedRun(deps, 'settlement', async (note) => {
        note({ did: { seasons_due: 2, seasons_settled: 2 } });
        return 'done';
      }),
    );
    expect(answer).toBe('done');
    let jobs = await jobsOf(deps);
    expect(jobs.settlement).toEqual({
      job: 'settlement',
      last_run: {
        started_at: '2032-02-10T10:00:00.000Z',
        ended_at: '2032-02-10T10:00:00.000Z',
        outcome: 'ok',
        error: null,
        did: { seasons_due: 2, seasons_settled: 2 },
        checkpoint: null,
        request_id: 'run-ok-1',
      },
      last_success_at: '2032-02-10T10:00:00.000Z',
      failures: [],
    });
    expect(jobs.indexer).toEqual({ job: 'indexer', last_run: null, last_success_at: null, failures: [] });

    deps.setNow(new Date('2032-02-11T10:10:00.000Z'));
    const failure = new JobFailed('settlement.seasons_failed', 'settlement: 1 of 3 due seasons failed to settle (logged); the next run tries them again');
    await expect(
      recordedRun(deps, 'settlement', async (note) => {
        note({ did: { seasons_due: 3, seasons_settled: 2, seasons_failed: 1 } });
        throw failure;
      }),
    ).rejects.toBe(failure);
    jobs = await jobsOf(deps);
    expect(jobs.settlement.last_run).toMatchObject({
      outcome: 'failed',
      error: { code: 'settlement.seasons_failed', summary: failure.message },
      did: { seasons_due: 3, seasons_settled: 2, seasons_failed: 1 },
      request_id: null,
    });
    expect(jobs.settlement.last_success_at).toBe('2032-02-10T10:00:00.000Z');
    expect(jobs.settlement.failures).toEqual([
      { at: '2032-02-11T10:10:00.000Z', error: { code: 'settlement.seasons_failed', summary: failure.message }, request_id: null },
    ]);
    const [stored] = await itemsOfType(deps, 'job_failure');
    // Kept 30 days.
    expect(stored!.expiresAt).toBe(Date.parse('2032-02-11T10:10:00.000Z') / 1000 + 30 * 86_400);
  });

  it("records an unexpected error by its name only: its message (which may hold what a record must not) stays in the run's logs", async () => {
    const deps = await createTestDeps();
    await expect(
      recordedRun(deps, 'indexer', async () => {
        throw new TypeError('cannot read https://user:hunter2@node.example/ (secret)');
      }),
    ).rejects.toThrow(TypeError);
    const { indexer } = await jobsOf(deps);
    expect(indexer.last_run.error).toEqual({ code: 'TypeError', summary: expect.stringMatching(/^TypeError: an unexpected error/) });
    expect(JSON.stringify(indexer)).not.toMatch(/hunter2|secret|node\.example/);
    expect(indexer.failures).toHaveLength(1);
  });

  it("lists the failed runs of the overview's days only, newest first", async () => {
    const deps = await createTestDeps();
    for (const at of ['2032-03-01T05:00:00.000Z', '2032-03-04T05:00:00.000Z', '2032-03-05T23:59:00.000Z']) {
      deps.setNow(new Date(at));
      await expect(recordedRun(deps, 'deletions', async () => Promise.reject(new JobFailed('deletions.unfinished', `failed at ${at}`)))).rejects.toThrow();
    }
    deps.setNow(new Date('2032-03-06T01:00:00.000Z'));
    const days = async (n: number) => (await jobsOf(deps, n)).deletions.failures.map((f: { at: string }) => f.at);
    expect(await days(1)).toEqual([]);
    expect(await days(2)).toEqual(['2032-03-05T23:59:00.000Z']);
    expect(await days(3)).toEqual(['2032-03-05T23:59:00.000Z', '2032-03-04T05:00:00.000Z']);
    expect(await days(14)).toEqual(['2032-03-05T23:59:00.000Z', '2032-03-04T05:00:00.000Z', '2032-03-01T05:00:00.000Z']);
  });

  it('an overlapping run that started earlier and ends later does not replace the later run, but its success still counts', async () => {
    const deps = await createTestDeps();
    let release!: () => void;
    deps.setNow(new Date('2032-04-01T10:00:00.000Z'));
    const early = recordedRun(deps, 'indexer', async (note) => {
      await new Promise<void>((resolve) => (release = resolve));
      note({ did: { events: 1 } });
    });
    deps.setNow(new Date('2032-04-01T10:01:00.000Z'));
    await recordedRun(deps, 'indexer', async (note) => note({ did: { events: 2 } }));
    deps.setNow(new Date('2032-04-01T10:02:00.000Z'));
    release();
    await early;
    const { indexer } = await jobsOf(deps);
    expect(indexer.last_run).toMatchObject({ started_at: '2032-04-01T10:01:00.000Z', did: { events: 2 } });
    expect(indexer.last_success_at).toBe('2032-04-01T10:02:00.000Z');
  });

  it("a run record that cannot be written never fails the job: the job's answer, or its own error, comes through", async () => {
    const deps = await createTestDeps();
    const refusing = refuseRunRecords(deps);
    try {
      expect(await recordedRun(deps, 'settlement', async () => ({ settled: 3 }))).toEqual({ settled: 3 });
      const own = new JobFailed('settlement.seasons_failed', 'one season failed');
      await expect(
        recordedRun(deps, 'settlement', async () => {
          throw own;
        }),
      ).rejects.toBe(own);
      // The ok run's record, the failed run's record and its failure item: all refused.
      expect(refusing.refused()).toBe(3);
    } finally {
      refusing.stop();
    }
    expect((await jobsOf(deps)).settlement).toMatchObject({ last_run: null, failures: [] });
  });
});

describe('the deployed jobs record their runs (each handler as Lambda runs it, in a process of its own)', () => {
  const appResource = { App: { name: 'game-platform', stage: LOCAL_STAGE } };

  it('settlement: an ok run with the seasons it settled, then a run that throws, listed as failed with its code', async () => {
    const deps = await createTestDeps();
    const resources = { ...appResource, Table: { name: deps.table } };
    const env = { DYNAMODB_ENDPOINT: deps.endpoint };
    const good = await rewardGame(deps, [{ rank: 1, amount: 9 }]);
    await scoresInPastWeek(deps, good, [{ id: 'a', wins: 2 }]);
    expect((await invokeScheduled('functions/jobs/settlement.ts', resources, env)).result).toEqual({ settled: 2, settledNow: 2, failed: 0 });
    let { settlement } = await jobsOf(deps);
    expect(settlement.last_run).toMatchObject({
      outcome: 'ok',
      error: null,
      did: { seasons_due: 2, seasons_settled: 2, seasons_already_settled: 0, seasons_failed: 0 },
    });
    const firstSuccess = settlement.last_success_at;
    expect(firstSuccess).toBe(settlement.last_run.ended_at);

    // A game whose reward table is not one: settling its seasons throws, and the run fails.
    const broken = await rewardGame(deps, [{ rank: 1, amount: 9 }]);
    await scoresInPastWeek(deps, broken, [{ id: 'b', wins: 2 }]);
    await deps.db.send(new PutCommand({ TableName: deps.table, Item: { ...rewardTableKey(broken.code), rewards: 'not a list' } }));
    await expect(invokeScheduled('functions/jobs/settlement.ts', resources, env)).rejects.toThrow(/settlement: 2 of 2 due seasons failed to settle/);
    ({ settlement } = await jobsOf(deps));
    expect(settlement.last_run).toMatchObject({
      outcome: 'failed',
      error: { code: 'settlement.seasons_failed', summary: expect.stringMatching(/^settlement: 2 of 2 due seasons failed/) },
      did: { seasons_due: 2, seasons_settled: 0, seasons_failed: 2 },
    });
    expect(settlement.last_success_at).toBe(firstSuccess);
    expect(settlement.failures).toEqual([{ at: settlement.last_run.ended_at, error: settlement.last_run.error, request_id: null }]);
    // The table as code writes it again (test/stored-items.test.ts reads every item the suite leaves).
    await deps.db.send(new DeleteCommand({ TableName: deps.table, Key: rewardTableKey(broken.code) }));
  }, 120_000);

  it("the indexer: an ok pass with the events it read and its checkpoint; a pass the node fails is failed with the indexer's code", async () => {
    const deps = await createTestDeps();
    const node = await startSuiNode();
    nodes.push(node);
    const shop = await projectWithLevel(deps);
    const payment = node.script.pay({ billNo: 'PO0000004242', amount: '5', to: shop.receiveAddress, coinType: SUI, emit: 'string' });
    const resources = {
      ...appResource,
      Table: { name: deps.table },
      ChainConfig: { value: JSON.stringify({ kind: 'jsonrpc', url: node.url, paymentEventType: PAYMENT_TYPE }) },
    };
    const env = { DYNAMODB_ENDPOINT: deps.endpoint };
    await invokeScheduled('functions/jobs/indexer.ts', resources, env);
    let { indexer } = await jobsOf(deps);
    expect(indexer.last_run).toMatchObject({
      outcome: 'ok',
      did: { event_types: 1, pages: 1, events: 1, read_errors: 0, types_failed: 0 },
      checkpoint: `pay::PaymentEvent: ${payment.txDigest}#0`,
    });

    node.failNext('http-503', 50);
    await expect(invokeScheduled('functions/jobs/indexer.ts', resources, env)).rejects.toThrow(/chain indexer: the pass failed/);
    ({ indexer } = await jobsOf(deps));
    expect(indexer.last_run).toMatchObject({ outcome: 'failed', error: { code: 'indexer.pass_failed' }, did: { events: 0, types_failed: 1 } });
    // Where the stream was left: the checkpoint did not move.
    expect(indexer.last_run.checkpoint).toBe(`pay::PaymentEvent: ${payment.txDigest}#0`);
    expect(indexer.failures).toHaveLength(1);
    expect(indexer.last_success_at).not.toBeNull();
  }, 120_000);

  it('deletions and the rank pages consumer record their runs too', async () => {
    const deps = await createTestDeps();
    const resources = { ...appResource, Table: { name: deps.table } };
    const env = { DYNAMODB_ENDPOINT: deps.endpoint };
    expect((await invokeScheduled('functions/jobs/deletions.ts', resources, env)).result).toEqual({ finished: 0, failed: 0 });
    expect((await invokeLambda('functions/jobs/rank-pages.ts', { Records: [] }, resources, env)).result).toEqual({ boards: 0, placed: 0 });
    const jobs = await jobsOf(deps);
    expect(jobs.deletions.last_run).toMatchObject({ outcome: 'ok', did: { finished: 0, failed: 0 } });
    expect(jobs['rank-pages'].last_run).toMatchObject({ outcome: 'ok', did: { records: 0, boards: 0 } });
  }, 120_000);

  it('the day figures consumer counts a batch as Lambda delivers it, in a fresh process linked to the table', async () => {
    const deps = await createTestDeps();
    const resources = { ...appResource, Table: { name: deps.table } };
    const env = { DYNAMODB_ENDPOINT: deps.endpoint };
    const day = '2032-02-29';
    const inserted = (item: Record<string, unknown>) => ({
      eventName: 'INSERT',
      dynamodb: { Keys: marshall({ pk: item.pk, sk: item.sk }), NewImage: marshall(item) },
    });
    // A deduction without a key: the balance's change adds the entry it holds (core/tickets/held-ledger.ts).
    const heldBefore = { ref: 'minus#b', change: -1, created_at: `${day}T00:30:00.000Z` };
    const balance = { pk: 'USER#u2', sk: 'TICKETS#p#1', type: 'tickets', projectName: 'p', level: 1 };
    const modified = {
      eventName: 'MODIFY',
      dynamodb: {
        Keys: marshall({ pk: balance.pk, sk: balance.sk }),
        OldImage: marshall({ ...balance, balance: 9, entries: [heldBefore] }),
        NewImage: marshall({ ...balance, balance: 4, entries: [heldBefore, { ref: 'minus#c', change: -5, created_at: `${day}T03:00:00.000Z` }] }),
      },
    };
    const records = [
      inserted({ pk: 'USER#u1', sk: 'LEDGER#minus#a', ref: 'minus#a', change: -3, created_at: `${day}T01:00:00.000Z` }),
      inserted({ pk: 'ORDER#1', sk: 'ORDER', type: 'order', status: 0, created_at: `${day}T02:00:00.000Z` }),
      modified,
    ];
    expect((await invokeLambda('functions/jobs/day-figures.ts', { Records: records }, resources, env)).result).toEqual({ days: 1 });
    const shards = await readItems(deps, dayStatsKeys([day]));
    expect(figuresOfDays([day], shards)).toEqual([{ orders_created: 1, orders_paid: 0, tickets_credited: 0, tickets_spent: 8 }]);
  }, 120_000);
});
