import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { scoreKey, shardOf } from '../core/rankings/keys.js';
import { boardShardsOf, LAUNCH_DELAY_MS, readShardChanges, seasonShards, setBoardShards } from '../core/rankings/shards.js';
import { monthOf, seasonKey, weekOf } from '../core/rankings/seasons.js';
import { createAllApps } from '../functions/apps.js';
import { createTestDeps, type TestDeps } from './support/deps.js';
import { call } from './support/http.js';
import { gameWithServer, seasonScores } from './support/rankings.js';

/**
 * A game sharded for its launch (core/rankings/shards.ts): a change made while the current week and month have
 * no score applies to them too, LAUNCH_DELAY_MS later, if they still have none then; the game's reports are
 * refused meanwhile; a score written under the old K by a process that had not read the change keeps the season
 * on the old K, so no score is left behind.
 */
let deps: TestDeps;
let app: ReturnType<typeof createAllApps>;

beforeAll(async () => {
  deps = await createTestDeps();
  app = createAllApps(deps);
});

const addWin = (server: string, body: Record<string, unknown>) => call(app, 'POST', '/v2-testing/merchant/games/addWin', { token: server, body });
const report = (game: { code: string; server: string }, player: string, kills: number) =>
  addWin(game.server, { game_code: game.code, game_player_id: player, game_player_name: player, kills, wins: 0 });

/** Runs `work` with the deps' clock `ms` after now. */
async function later<T>(ms: number, work: () => Promise<T>): Promise<T> {
  deps.setNow(new Date(Date.now() + ms));
  try {
    return await work();
  } finally {
    deps.setNow(undefined);
  }
}

describe('a game sharded for its launch', () => {
  it('takes the new K in its current week and month; reports wait for it with 503 and Retry-After, then land in the new shards', async () => {
    const game = await gameWithServer(deps);
    const now = new Date();
    const [week, month] = [weekOf(now), monthOf(now)];
    const changes = await setBoardShards(deps, game.code, 8);
    expect(changes.at(-1)!.seasons).toEqual([
      { season: seasonKey(week), was: 1 },
      { season: seasonKey(month), was: 1 },
    ]);
    expect(Date.parse(changes.at(-1)!.from) - now.getTime()).toBeGreaterThanOrEqual(LAUNCH_DELAY_MS - 5_000);
    const shown = await boardShardsOf(deps, game.code);
    expect([shown.week_shards, shown.month_shards]).toEqual([8, 8]);

    const waiting = await report(game, 'early', 3);
    expect(waiting.status).toBe(503);
    expect(waiting.body.error).toBe('ranking.shards_changing');
    const retryAfter = Number(waiting.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(60);
    expect(retryAfter).toBeLessThanOrEqual(LAUNCH_DELAY_MS / 1000);
    expect(await seasonScores(deps, game.code, week, 1)).toEqual([]);

    await later(LAUNCH_DELAY_MS + 1_000, async () => {
      expect(await seasonShards(deps, game.code, week)).toBe(8);
      expect(await seasonShards(deps, game.code, month)).toBe(8);
      const players = Array.from({ length: 40 }, (_, i) => `launch-${i}`);
      for (const player of players) expect((await report(game, player, 2)).status).toBe(200);
      const items = await seasonScores(deps, game.code, week, 8);
      expect(items.map((item) => item.id).sort()).toEqual([...players].sort());
      for (const item of items) expect(item.shard).toBe(shardOf(item.id, 8));
      expect(new Set(items.map((item) => item.shard)).size).toBeGreaterThan(1);
    });
  });

  it('a score written under the old K before the change applied keeps the season on the old K: nothing is left behind', async () => {
    const game = await gameWithServer(deps);
    const week = weekOf(new Date());
    await setBoardShards(deps, game.code, 4);
    // What a process that read the setting before the change would have written in the minute after it.
    await deps.db.send(
      new PutCommand({
        TableName: deps.table,
        Item: {
          ...scoreKey(game.code, week, 'stale', 1),
          game_code: game.code,
          season_type: week.type,
          season_range: week.range,
          game_player_id: 'stale',
          game_player_name: 'stale',
          kills: 5,
          killsAt: new Date().toISOString(),
        },
      }),
    );
    await later(LAUNCH_DELAY_MS + 1_000, async () => {
      expect(await seasonShards(deps, game.code, week)).toBe(1);
      // The month had no score: it launches into 4 shards.
      expect(await seasonShards(deps, game.code, monthOf(new Date()))).toBe(4);
      expect((await report(game, 'stale', 2)).status).toBe(200);
      expect((await seasonScores(deps, game.code, week, 1)).map(({ id, kills }) => ({ id, kills }))).toEqual([{ id: 'stale', kills: 7 }]);
    });
  });

  it('a game with a score in its current seasons is not held up: the change waits for the next seasons, reports go on', async () => {
    const game = await gameWithServer(deps);
    expect((await report(game, 'playing', 1)).status).toBe(200);
    const changes = await setBoardShards(deps, game.code, 8);
    expect(changes.at(-1)!.seasons).toBeUndefined();
    expect((await report(game, 'playing', 1)).status).toBe(200);
    expect(await seasonShards(deps, game.code, weekOf(new Date()))).toBe(1);
  });

  it('a second launch change replaces the first for the seasons it names: the list names each season once', async () => {
    const game = await gameWithServer(deps);
    await setBoardShards(deps, game.code, 4);
    await setBoardShards(deps, game.code, 16);
    const changes = await readShardChanges(deps, game.code);
    const named = changes.flatMap((change) => (change.seasons ?? []).map((entry) => entry.season));
    expect(named.sort()).toEqual([seasonKey(monthOf(new Date())), seasonKey(weekOf(new Date()))].sort());
    await later(LAUNCH_DELAY_MS + 1_000, async () => expect(await seasonShards(deps, game.code, weekOf(new Date()))).toBe(16));
  });
});
