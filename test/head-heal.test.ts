import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { scoreKey } from '../core/rankings/keys.js';
import { applyItemChanges } from '../core/rankings/rank-stream.js';
import { weekOf } from '../core/rankings/seasons.js';
import { createAllApps } from '../functions/apps.js';
import { createTestDeps, type TestDeps } from './support/deps.js';
import { call } from './support/http.js';
import { gameWithServer, headPages, streamRecords, takeSnapshots } from './support/rankings.js';

/**
 * The snapshot job puts right what the stream left wrong in a board's head (core/rankings/rank-head.ts
 * healHead): a record the consumer skipped (one it could not read) leaves a player's old entry beside the one
 * their next change puts in, or a deleted player's entry on the head. The next snapshot run takes those out.
 */
let deps: TestDeps;
let app: ReturnType<typeof createAllApps>;

beforeAll(async () => {
  deps = await createTestDeps({ stream: true });
  app = createAllApps(deps);
});

const report = (game: { code: string; server: string }, player: string, kills: number) =>
  call(app, 'POST', '/v2-testing/merchant/games/addWin', {
    token: game.server,
    body: { game_code: game.code, game_player_id: player, game_player_name: player, kills, wins: 0 },
  });

/** The kills head's entries of the game's week, in order, as [id, score]. */
async function killsHead(game: string) {
  const { pages } = await headPages(deps, { board: 'kills', game, season: weekOf(new Date()) });
  return pages.flatMap((page) => page.entries.map((entry): [string, number] => [entry.id, entry.score]));
}

describe("the snapshot run heals a board's head", () => {
  it("a player's entry left behind by a skipped record, and a deleted player's entry the stream never removed", async () => {
    const game = await gameWithServer(deps);
    // 300 players (so the head has several pages), 'a' at the bottom, 'gone' at the top.
    const players = Array.from({ length: 300 }, (_, i) => ({ id: `p${i}`, kills: 10 + (i % 50) }));
    players.push({ id: 'a', kills: 1 }, { id: 'gone', kills: 500 });
    for (let start = 0; start < players.length; start += 48) {
      const scores = players.slice(start, start + 48).map(({ id, kills }) => ({ game_player_id: id, game_player_name: id, kills, wins: 0 }));
      const answer = await call(app, 'POST', '/v2-testing/chain/game/score', {
        token: game.server,
        body: { game_code: game.code, result_id: `load-${start}`, scores },
      });
      expect(answer.status).toBe(200);
    }
    const mine = (records: Awaited<ReturnType<typeof streamRecords>>) => records.filter((record) => (record.after ?? record.before)?.game_code === game.code);
    await applyItemChanges(deps, mine(await streamRecords(deps)));
    const loaded = await headPages(deps, { board: 'kills', game: game.code, season: weekOf(new Date()) });
    expect(loaded.pages.length).toBeGreaterThan(1);

    // Two more reports of a; the consumer is given only the second (the first skipped as unreadable): a's entry
    // at 1 is on the last page, the one at 101 goes on the first.
    const seen = (await streamRecords(deps)).length;
    expect((await report(game, 'a', 50)).status).toBe(200);
    expect((await report(game, 'a', 50)).status).toBe(200);
    const later = mine((await streamRecords(deps)).slice(seen)).filter((record) => record.before?.game_player_id === 'a' && record.before.season_type === 1);
    expect(later).toHaveLength(2);
    await applyItemChanges(deps, [later[1]!]);
    // And a deleted score item whose removal the consumer never saw.
    await deps.db.send(new DeleteCommand({ TableName: deps.table, Key: scoreKey(game.code, weekOf(new Date()), 'gone', 1) }));
    const entriesOf = (head: [string, number][], id: string) => head.filter(([who]) => who === id).map(([, score]) => score);
    const before = await killsHead(game.code);
    expect(entriesOf(before, 'a')).toEqual([101, 1]);
    expect(entriesOf(before, 'gone')).toEqual([500]);

    // The snapshot's read is made after the entries were written: a run a few seconds later heals both.
    deps.setNow(new Date(Date.now() + 10_000));
    try {
      const run = await takeSnapshots(deps);
      expect(run.head_entries_healed).toBe(2);
    } finally {
      deps.setNow(undefined);
    }
    const after = await killsHead(game.code);
    expect(entriesOf(after, 'a')).toEqual([101]);
    expect(entriesOf(after, 'gone')).toEqual([]);
    expect(after).toHaveLength(301);
    // Healed once, nothing is left to heal.
    expect((await takeSnapshots(deps)).head_entries_healed).toBe(0);
  }, 120_000);

  it('an entry newer than the read is left alone though its player is not in it', async () => {
    const game = await gameWithServer(deps);
    expect((await report(game, 'fresh', 2)).status).toBe(200);
    const records = (await streamRecords(deps)).filter((record) => record.after?.game_code === game.code);
    await applyItemChanges(deps, records);
    // A read made before the report (the clock a minute back) does not see the player: their entry stays.
    await deps.db.send(new DeleteCommand({ TableName: deps.table, Key: scoreKey(game.code, weekOf(new Date()), 'fresh', 1) }));
    deps.setNow(new Date(Date.now() - 60_000));
    try {
      expect((await takeSnapshots(deps)).head_entries_healed).toBe(0);
    } finally {
      deps.setNow(undefined);
    }
    expect(await killsHead(game.code)).toEqual([['fresh', 2]]);
  });
});
