import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { placeNewPlayers } from '../core/leagues/placement.js';
import { createAllApps } from '../functions/apps.js';
import { createTestDeps, type TestDeps } from './support/deps.js';
import { call } from './support/http.js';
import { PartitionLimits } from './support/partition-limits.js';
import { commandCounter, gameWithServer } from './support/rankings.js';
import { scanAll } from './support/table-snapshot.js';

/**
 * League placement under DynamoDB's per-partition write limit (emulated by test/support/partition-limits.ts, scaled
 * down to LIMIT writes a second): one stream batch holds more first scores than their score partition takes in a
 * second. The consumer places them all in that one call, paced per partition and backing off when throttled,
 * instead of failing the batch; and the same batch given again (as Lambda gives a failed one) writes nothing.
 */
const LIMIT = 20;
const PLAYERS = 70;
const COHORT = 10;
const WEEK = 7 * 86_400_000;
const setAt = new Date('2031-03-05T10:00:00.000Z');

let deps: TestDeps;
/** The limit's clock: jumped ahead while the test sets up, so that only placement meets the limit. */
let warp = 0;
const limits = new PartitionLimits(LIMIT, () => performance.now() + warp);

beforeAll(async () => {
  deps = await createTestDeps({ partitions: limits });
});
afterAll(() => deps.setNow(undefined));

it('places a batch of first scores over the partition limit in one call, no partition over it, and a batch given again writes nothing', async () => {
  const app = createAllApps(deps);
  deps.setNow(setAt);
  const game = await gameWithServer(deps);
  const set = await call(app, 'POST', '/v2-testing/merchant/games/league', {
    token: game.owner.token,
    body: { game_code: game.code, board: 'kills', cohort_size: COHORT, tiers: [{ name: 'Only' }] },
  });
  expect(set.status, JSON.stringify(set.body)).toBe(200);
  deps.setNow(new Date(setAt.getTime() + WEEK));
  const server = (await deps.tokens.issue('server', game.owner.accountId, { merchant_id: game.owner.merchant.id })).token;
  const ids = Array.from({ length: PLAYERS }, () => randomUUID());
  for (let i = 0; i < ids.length; i += COHORT) {
    const res = await call(app, 'POST', '/v2-testing/chain/game/score', {
      token: server,
      body: {
        game_code: game.code,
        result_id: randomUUID(),
        scores: ids.slice(i, i + COHORT).map((id) => ({ game_player_id: id, game_player_name: 'Player', kills: 1, wins: 0 })),
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    warp += 2_000;
  }
  warp += 2_000;

  // What the consumer is given: the week's and the month's score records of the game (only the week runs a league).
  const scores = async () => (await scanAll(deps)).filter((item) => String(item.pk).startsWith('SCORE#') && item.game_code === game.code);
  const batch = (await scores()).map((after) => ({ after }));
  const before = limits.stats();
  expect(await placeNewPlayers(deps, batch)).toBe(PLAYERS);
  const after = limits.stats();
  // The batch met the limit (the pacing was needed) and was placed whole anyway, no partition past the limit.
  expect(after.throttled - before.throttled).toBeGreaterThan(0);
  expect(after.hottest.perSecond).toBeLessThanOrEqual(LIMIT);
  const week = (await scores()).filter((item) => item.season_type === 1);
  const cohorts = new Map<string, number>();
  for (const item of week) cohorts.set(String(item.cohort), (cohorts.get(String(item.cohort)) ?? 0) + 1);
  expect(week.every((item) => typeof item.cohort === 'string')).toBe(true);
  expect([...cohorts.values()]).toEqual(Array(PLAYERS / COHORT).fill(COHORT));

  // Given again: one batch read shows everyone placed, and nothing is written.
  const counter = commandCounter(deps);
  counter.start();
  expect(await placeNewPlayers(deps, batch)).toBe(0);
  // The tiers' and the score items' keys, 100 a request.
  expect(counter.stop()).toEqual({ BatchGetItem: Math.ceil((2 * PLAYERS) / 100) });
});
