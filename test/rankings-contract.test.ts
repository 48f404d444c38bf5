import { beforeAll, describe, expect, it } from 'vitest';
import { createAllApps } from '../functions/apps.js';
import { call } from './support/http.js';
import { createTestDeps, type TestDeps } from './support/deps.js';
import { gameRank, merchantEnvelope, mismatches, pagedEnvelope, rankEntry } from './contract/contract-shapes.js';
import { drainRankStream, gameWithServer } from './support/rankings.js';

/** The compatibility contract's shapes for the rankings: gameRank's, and the envelopes of addWin and submitgamescore. */
let deps: TestDeps;
let app: ReturnType<typeof createAllApps>;
const base = '/v2-testing';
let game: Awaited<ReturnType<typeof gameWithServer>>;

beforeAll(async () => {
  // gameRank reads the boards' tops kept from the table's stream: the reports' batches are applied below.
  deps = await createTestDeps({ stream: true });
  app = createAllApps(deps);
  game = await gameWithServer(deps);
  const report = (player: string, name: string, kills: number, wins: number) =>
    call(app, 'POST', `${base}/merchant/games/addWin`, {
      token: game.server,
      body: { game_code: game.code, game_player_id: player, game_player_name: name, kills, wins },
    });
  await report('p-1', 'Player One', 12, 3);
  await report('p-2', '', 4, 7);
  await report('p-3', 'Three', 1, 0);
  await drainRankStream(deps);
});

describe('compatibility contract: rankings', () => {
  it('gameRank: GET /merchant/games/rank?game_code=, 200 {code, message, data: {gameWeekKillRank, gameWeekWinRank, gameMothKillRank, gameMothWinRank}}', async () => {
    const res = await call(app, 'GET', `${base}/merchant/games/rank`, { query: { game_code: game.code } });
    expect(res.status).toBe(200);
    expect(mismatches(res.body, gameRank)).toEqual([]);
    expect(res.body.code).toBe(200);
    expect(Object.keys(res.body.data).sort()).toEqual(['gameMothKillRank', 'gameMothWinRank', 'gameWeekKillRank', 'gameWeekWinRank']);
    for (const board of Object.values(res.body.data) as unknown[][]) {
      expect(board.length).toBeGreaterThan(0);
      for (const entry of board) {
        expect(mismatches(entry, rankEntry)).toEqual([]);
        expect((entry as { total: string }).total).toMatch(/^[1-9]\d*$/);
      }
    }
    // total is text; an empty name stays an (empty) string.
    expect(res.body.data.gameWeekKillRank[0]).toEqual({ total: '12', game_player_id: 'p-1', game_player_name: 'Player One' });
    expect(res.body.data.gameMothWinRank[0]).toEqual({ total: '7', game_player_id: 'p-2', game_player_name: '' });
  });

  it('gameRank: an array may be empty; the shape holds for a game without scores', async () => {
    const empty = await gameWithServer(deps);
    const res = await call(app, 'GET', `${base}/merchant/games/rank`, { query: { game_code: empty.code } });
    expect(res.status).toBe(200);
    expect(mismatches(res.body, gameRank)).toEqual([]);
    expect(res.body.data.gameWeekKillRank).toEqual([]);
  });

  it('gameRank errors use the merchant envelope with data null', async () => {
    const res = await call(app, 'GET', `${base}/merchant/games/rank`, { query: { game_code: 'unknown-game' } });
    expect(res.status).toBe(404);
    expect(mismatches(res.body, merchantEnvelope('nullable'))).toEqual([]);
    expect(res.body.data).toBeNull();
  });

  it('addWin answers the merchant envelope; submitgamescore the {data, statusCode, message, totalPage} one', async () => {
    const added = await call(app, 'POST', `${base}/merchant/games/addWin`, {
      token: game.server,
      body: { game_code: game.code, game_player_id: 'p-4', game_player_name: 'n', kills: 1, wins: 0 },
    });
    expect(added.status).toBe(200);
    expect(
      mismatches(
        added.body,
        merchantEnvelope({
          game_code: 'string',
          game_player_id: 'string',
          kills: 'integer',
          wins: 'integer',
          seasons: [{ season_type: 'integer', season_range: 'string' }],
        }),
      ),
    ).toEqual([]);
    const scored = await call(app, 'POST', `${base}/chain/game/score`, {
      token: game.server,
      body: { game_code: game.code, result_id: 'contract-1', scores: [{ game_player_id: 'p-4', game_player_name: 'n', kills: 1, wins: 1 }] },
    });
    expect(scored.status).toBe(200);
    expect(mismatches(scored.body, pagedEnvelope)).toEqual([]);
    expect(
      mismatches(scored.body.data, {
        game_code: 'string',
        result_id: 'string',
        players: 'integer',
        seasons: [{ season_type: 'integer', season_range: 'string' }],
      }),
    ).toEqual([]);
    expect(scored.body.totalPage).toBe(1);
  });
});
