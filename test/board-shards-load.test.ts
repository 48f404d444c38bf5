import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { type Board, shardOf } from '../core/rankings/keys.js';
import { weekOf, type Season } from '../core/rankings/seasons.js';
import { createAllApps } from '../functions/apps.js';
import { createTestDeps } from './support/deps.js';
import { call } from './support/http.js';
import { drainRankStream, seasonScores, shardedGame, snapshotPages, takeSnapshots } from './support/rankings.js';

/**
 * Board shards under load (core/rankings/shards.ts): 10,000 score reports of 1,000 players, 50 at a time, on a game
 * of 8 shards with the suite's transaction conflict rule on. Run by itself once the suite has run (vitest.config.ts
 * LOAD); the setting, the bound on its changes, a hot player, settlement and the keys are in board-shards.test.ts.
 */
const base = '/v2-testing/merchant/games';

describe('sharded writes under load', () => {
  it('10,000 reports across 1,000 players: each total is the sum of its accepted reports, and the board of all shards is exact', async () => {
    // A table with its stream: the boards' heads are kept from it.
    const streamed = await createTestDeps({ stream: true });
    const streamedApp = createAllApps(streamed);
    const addWin = (server: string, body: Record<string, unknown>) => call(streamedApp, 'POST', `${base}/addWin`, { token: server, body });
    const scoreItems = (game: string, season: Season, shards: number) => seasonScores(streamed, game, season, shards);
    const game = await shardedGame(streamed, 8);
    // Mid-week for the whole run, whenever the suite runs it: the reports of a run across the turn of a week would
    // land in two weeks.
    const midWeek = new Date(weekOf(new Date()).start.getTime() + 3.5 * 86_400_000);
    streamed.setNow(midWeek);
    const players = Array.from({ length: 1000 }, (_, i) => `p${i}-${randomUUID().slice(0, 8)}`);
    const sent = Array.from({ length: 10_000 }, (_, i) => ({ id: players[(i * 7919) % 1000]!, kills: (i % 13) + 1, wins: i % 3 === 0 ? 1 : 0 }));
    const totals = new Map<string, { kills: number; wins: number }>();
    // 50 in flight at every moment: each of 50 senders sends its next report when its last one is answered.
    let next = 0;
    await Promise.all(
      Array.from({ length: 50 }, async () => {
        while (next < sent.length) {
          const report = sent[next++]!;
          const answer = await addWin(game.server, {
            game_code: game.code,
            game_player_id: report.id,
            game_player_name: report.id,
            kills: report.kills,
            wins: report.wins,
          });
          expect([200, 409]).toContain(answer.status);
          if (answer.status !== 200) continue;
          const total = totals.get(report.id) ?? { kills: 0, wins: 0 };
          totals.set(report.id, { kills: total.kills + report.kills, wins: total.wins + report.wins });
        }
      }),
    );
    const week = weekOf(midWeek);
    const items = await scoreItems(game.code, week, 8);
    expect(items).toHaveLength(totals.size);
    for (const { shard, id, kills, wins } of items) {
      expect({ shard, kills, wins }).toEqual({ shard: shardOf(id, 8), ...totals.get(id)! });
    }
    // Every shard holds some of the players: the writes are spread.
    expect(new Set(items.map((i) => i.shard)).size).toBe(8);

    // The board as computed here from the items of all shards: kills descending, then who reached them first, then id.
    const boardOf = (board: Board) =>
      items
        .map(({ id, kills, wins, item }) => ({
          id,
          score: board === 'kills' ? kills : wins,
          at: String((board === 'kills' ? item.killsAt : item.winsAt) ?? ''),
        }))
        .filter((row) => row.score > 0)
        .sort((a, b) => b.score - a.score || (a.at < b.at ? -1 : a.at > b.at ? 1 : 0) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));

    // gameRank reads each board's top as the stream keeps it: once the stream's batches are applied, the top 100 of
    // each week board are the 100 first of that board, in order (ties by who reached the score first).
    await drainRankStream(streamed);
    const rank = await call(streamedApp, 'GET', `${base}/rank`, { query: { game_code: game.code, limit: 100 } });
    expect(rank.status).toBe(200);
    for (const [board, shown] of [
      ['kills', rank.body.data.gameWeekKillRank],
      ['wins', rank.body.data.gameWeekWinRank],
    ] as const) {
      const expected = boardOf(board).slice(0, 100);
      expect(expected).toHaveLength(100);
      expect(shown, board).toEqual(expected.map((row) => ({ total: String(row.score), game_player_id: row.id, game_player_name: row.id })));
      for (const row of expected) expect(row.score).toBe(totals.get(row.id)![board]);
    }

    // The snapshot reads every shard's items: each board whole, in the same order.
    await takeSnapshots(streamed);
    for (const board of ['kills', 'wins'] as Board[]) {
      const { directory, pages } = await snapshotPages(streamed, { board, game: game.code, season: week });
      expect(directory.players).toBe(boardOf(board).length);
      expect(
        pages.flatMap((page) => page.entries.map(({ id, score, at }) => ({ id, score, at }))),
        board,
      ).toEqual(boardOf(board));
    }
  }, 600_000);
});
