import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_STAGE } from '../core/platform/stages.js';
import { createTestDeps, itemsOfType, type TestDeps } from './support/deps.js';
import { startDynamoProxy, type DynamoProxy } from './support/dynamo-proxy.js';
import { rewardGame, scoresInPastWeek } from './support/rewards.js';
import { invokeScheduled } from './support/scheduled.js';
import { PAYMENT_TYPE, SUI, startSuiNode, type ChainScript, type Loopback } from './support/sui-node.js';
import { scanAll } from './support/table-snapshot.js';

/**
 * The scheduled jobs killed between their writes (docs/reliability.md "Scheduled jobs killed
 * between writes"). Each job runs as Lambda runs it (its handler in a process of its own, test/support/
 * scheduled.ts) against a proxy in front of DynamoDB Local (test/support/dynamo-proxy.ts) that lets k writes
 * through and then fails every request, for every k from 0 to the writes a clean run makes: as if the
 * process died there. The next run (the schedule's retry) then completes, and every payment event, cursor,
 * history entry and reward is stored exactly once, exactly as a clean run stores them.
 */
let proxy: DynamoProxy;
let node: Loopback & { script: ChainScript };
const app = { App: { name: 'game-platform', stage: LOCAL_STAGE } };
const figures = { indexerKills: 0, settlementKills: 0, reruns: 0 };

beforeAll(async () => {
  const first = await createTestDeps();
  proxy = await startDynamoProxy(first.endpoint);
  node = (await startSuiNode()) as Loopback & { script: ChainScript };
  for (let i = 0; i < 4; i++) node.script.pay({ billNo: `PO${randomUUID().slice(0, 8)}`, amount: String(1_000_000 * (i + 1)), coinType: SUI });
});

afterAll(async () => {
  console.log(`job faults: ${JSON.stringify(figures)}`);
  await Promise.all([proxy?.stop(), node?.stop()]);
});

/** Runs a job through the proxy, killed after `killAt` writes (undefined: not killed); answers the writes that passed. */
async function run(entry: 'functions/jobs/indexer.ts' | 'functions/jobs/settlement.ts', resources: Record<string, unknown>, killAt?: number) {
  proxy.reset();
  proxy.killAt = killAt;
  const outcome = await invokeScheduled(entry, { ...app, ...resources }, { DYNAMODB_ENDPOINT: proxy.endpoint }).then(
    (done) => ({ done: done.result }),
    (error: Error) => ({ failed: error.message }),
  );
  const writes = proxy.writes;
  proxy.reset();
  return { ...outcome, writes };
}

/**
 * What a job leaves that must be there once: items of these types, without what differs from table to table
 * (keys naming the game, which each table's fixtures create anew; ids from a counter, where a killed run may
 * have left a gap; timestamps), in a stable order.
 */
async function outcomeOf(deps: TestDeps, types: string[]) {
  const items = (await scanAll(deps)).filter((item) => types.includes(String(item.type)));
  const kept = items.map((item) =>
    Object.fromEntries(Object.entries(item).filter(([name]) => !/^(pk|sk|gsi\d+(pk|sk)|game_code|id)$|(_at|_time)$/.test(name))),
  );
  return kept.map((item) => JSON.stringify(item)).sort();
}

describe('the chain indexer killed between writes', () => {
  it('stores each payment event once and saves the cursor where a clean run does, whatever write it died after', async () => {
    const types = ['payment_event', 'chain_cursor'];
    const resourcesOf = (deps: TestDeps) => ({
      Table: { name: deps.table },
      ChainConfig: { value: JSON.stringify({ kind: 'jsonrpc', url: node.url, paymentEventType: PAYMENT_TYPE }) },
    });
    const clean = await createTestDeps();
    const cleanRun = await run('functions/jobs/indexer.ts', resourcesOf(clean));
    expect(cleanRun).toMatchObject({ done: expect.anything() });
    const expected = await outcomeOf(clean, types);
    expect(expected.filter((item) => item.includes('"type":"payment_event"'))).toHaveLength(4);
    expect(cleanRun.writes).toBeGreaterThan(1);

    for (let killAt = 0; killAt < cleanRun.writes; killAt++) {
      const deps = await createTestDeps();
      const killed = await run('functions/jobs/indexer.ts', resourcesOf(deps), killAt);
      figures.indexerKills++;
      // A kill fails the run, or (a type whose pass failed keeps its cursor for the next run) is counted in it; a kill at
      // the last write, the run's record (core/platform/job-runs.ts), loses the record only, never the job's outcome.
      expect(killed.writes, `killed after ${killAt} writes`).toBe(killAt);
      if (killAt === cleanRun.writes - 1) expect(killed, 'killed at the run record').toEqual({ ...cleanRun, writes: killAt });
      else
        expect('failed' in killed || JSON.stringify(killed.done).includes('"errors":1'), `killed after ${killAt} writes: ${JSON.stringify(killed)}`).toBe(true);
      const rerun = await run('functions/jobs/indexer.ts', resourcesOf(deps));
      figures.reruns++;
      expect(rerun, `the run after a kill at ${killAt}`).toMatchObject({ done: expect.anything() });
      expect(await outcomeOf(deps, types), `killed after ${killAt} writes, then run again`).toEqual(expected);
    }
  }, 240_000);
});

describe('settlement killed between writes', () => {
  it('settles each season once: every history entry and reward once, whatever write it died after', async () => {
    const types = ['season_settled', 'history_rank'];
    // The same rankings on every table: one reward game, the same reports in the past week.
    const seeded = async () => {
      const deps = await createTestDeps();
      const game = await rewardGame(deps, [
        { rank: 1, amount: 9 },
        { rank: 2, amount: 4 },
      ]);
      await scoresInPastWeek(deps, game, [
        { id: 'first', wins: 2 },
        { id: 'second', wins: 5 },
        { id: 'third', wins: 1 },
      ]);
      return deps;
    };
    const clean = await seeded();
    const cleanRun = await run('functions/jobs/settlement.ts', { Table: { name: clean.table } });
    expect(cleanRun).toMatchObject({ done: { settled: 2, failed: 0 } });
    const expected = await outcomeOf(clean, types);
    expect(expected.filter((item) => item.includes('"type":"history_rank"'))).toHaveLength(4);

    for (let killAt = 0; killAt < cleanRun.writes; killAt++) {
      const deps = await seeded();
      const killed = await run('functions/jobs/settlement.ts', { Table: { name: deps.table } }, killAt);
      figures.settlementKills++;
      // A season that fails is counted and left for the next run (the run itself may still end); a kill at the last
      // write, the run's record (core/platform/job-runs.ts), loses the record only, never the job's outcome.
      expect(killed.writes, `killed after ${killAt} writes`).toBe(killAt);
      if (killAt === cleanRun.writes - 1) expect(killed, 'killed at the run record').toEqual({ ...cleanRun, writes: killAt });
      else expect('failed' in killed || (killed.done as { failed: number }).failed > 0, `killed after ${killAt} writes: ${JSON.stringify(killed)}`).toBe(true);
      const rerun = await run('functions/jobs/settlement.ts', { Table: { name: deps.table } });
      figures.reruns++;
      expect(rerun, `the run after a kill at ${killAt}`).toMatchObject({ done: { failed: 0 } });
      expect(await outcomeOf(deps, types), `killed after ${killAt} writes, then run again`).toEqual(expected);
      expect(await itemsOfType(deps, 'history_rank')).toHaveLength(4);
    }
  }, 240_000);
});
