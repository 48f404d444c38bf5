import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, describe, expect, it } from 'vitest';
import { weekOf } from '../core/rankings/seasons.js';
import { createAllApps } from '../functions/apps.js';
import { createTestDeps, dropTables } from './support/deps.js';
import { call } from './support/http.js';
import { PartitionLimits } from './support/partition-limits.js';
import { seasonScores, shardedGame } from './support/rankings.js';

/**
 * The emulated per-partition write limit (test/support/partition-limits.ts), with its clock held still so
 * that a second never passes and the limit is exact: writes over it are refused as the service refuses them,
 * whether the table's partition or an index's is full, and the platform answers its documented 503; board
 * shards spread one game's reports over K partitions.
 */
const LIMIT = 10;

async function limitedDeps() {
  const limits = new PartitionLimits(LIMIT, () => 0);
  const deps = await createTestDeps({ partitions: limits });
  return { deps, limits, app: createAllApps(deps) };
}

describe('the partition write limit', () => {
  /** The tables of the items written here (`HOT`, `COLD`, `OWN#…`: no kind of the platform's), dropped at the end. */
  const tables: string[] = [];
  const plainDeps = async () => {
    const made = await limitedDeps();
    tables.push(made.deps.table);
    return made;
  };
  // test/stored-items.test.ts holds every item the suite leaves to a declared kind.
  afterAll(() => dropTables(tables));

  it("a table partition takes LIMIT writes; the next is refused as the service refuses it, after the SDK's retries", async () => {
    const { deps, limits } = await plainDeps();
    for (let i = 0; i < LIMIT; i++) await deps.db.send(new PutCommand({ TableName: deps.table, Item: { pk: 'HOT', sk: `item-${i}` } }));
    await expect(deps.db.send(new PutCommand({ TableName: deps.table, Item: { pk: 'HOT', sk: 'one more' } }))).rejects.toMatchObject({
      name: 'ProvisionedThroughputExceededException',
    });
    // Other partitions are not held back.
    await deps.db.send(new PutCommand({ TableName: deps.table, Item: { pk: 'COLD', sk: 'x' } }));
    expect(limits.stats()).toMatchObject({ accepted: LIMIT + 1, hottest: { partition: `${deps.table} HOT`, perSecond: LIMIT } });
    // Each of the SDK's attempts was refused (the service's throttling is retried by the SDK, as here).
    expect(limits.stats().throttled).toBe(await deps.db.config.maxAttempts());
  });

  it('an index partition over its limit refuses the table write, though each item is in a partition of its own', async () => {
    const { deps, limits } = await plainDeps();
    const put = (i: number) => deps.db.send(new PutCommand({ TableName: deps.table, Item: { pk: `OWN#${i}`, sk: 'x', gsi4pk: 'BOARD', gsi4sk: i } }));
    for (let i = 0; i < LIMIT; i++) await put(i);
    await expect(put(LIMIT)).rejects.toMatchObject({ name: 'ProvisionedThroughputExceededException' });
    expect(limits.stats().hottest).toEqual({ partition: `${deps.table}.gsi4 BOARD`, perSecond: LIMIT });
  });
});

describe('score reports under the limit', () => {
  /** Reports of `players` distinct players (one each): the answers by status. */
  async function reportAll(shards: number, players: number) {
    const { deps, limits, app } = await limitedDeps();
    const game = await shardedGame(deps, shards);
    const answers = await Promise.all(
      Array.from({ length: players }, (_, i) =>
        call(app, 'POST', '/v2-testing/merchant/games/addWin', {
          token: game.server,
          body: { game_code: game.code, game_player_id: `player-${i}`, game_player_name: '', kills: 1, wins: 0 },
        }),
      ),
    );
    // The players with a score item in the week, from each of its shards.
    const week = weekOf(new Date());
    const scored = (await seasonScores(deps, game.code, week, shards)).map(({ id }) => id);
    return { answers, limits, scored };
  }

  it('K = 1: the game takes what one partition takes; the rest is the documented 503 with Retry-After, and nothing of it written', async () => {
    const { answers, limits, scored } = await reportAll(1, 40);
    const accepted = answers.filter((a) => a.status === 200).length;
    expect(scored).toHaveLength(accepted);
    // Each report writes the week's and the month's score partitions: LIMIT reports fill them.
    expect(accepted).toBe(LIMIT);
    for (const refused of answers.filter((a) => a.status !== 200)) {
      expect({ status: refused.status, code: refused.body.code, error: refused.body.error, retryAfter: refused.headers.get('retry-after') }).toEqual({
        status: 503,
        code: 503,
        error: 'table.busy',
        retryAfter: '1',
      });
    }
    expect(limits.stats().hottest.perSecond).toBe(LIMIT);
  });

  it('K = 8: the same reports spread over eight partitions, each at most at the limit', async () => {
    const { answers, limits, scored } = await reportAll(8, 40);
    const accepted = answers.filter((a) => a.status === 200).length;
    expect(scored).toHaveLength(accepted);
    expect(accepted).toBeGreaterThan(3 * LIMIT);
    expect(answers.every((a) => a.status === 200 || a.status === 503)).toBe(true);
    expect(limits.stats().hottest.perSecond).toBeLessThanOrEqual(LIMIT);
  });
});
