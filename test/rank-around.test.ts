import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Board } from '../core/rankings/keys.js';
import { MAX_REPORT_PLAYERS } from '../core/rankings/models.js';
import { MAX_PAGE, MIN_PAGE, readDirectory } from '../core/rankings/rank-pages.js';
import { applyItemChanges, type ItemChange } from '../core/rankings/rank-stream.js';
import { monthOf, weekOf, type Season } from '../core/rankings/seasons.js';
import { createAllApps } from '../functions/apps.js';
import { createTestDeps, type TestDeps } from './support/deps.js';
import { call } from './support/http.js';
import { merchantWithToken } from './support/merchants.js';
import { playerWithTokens } from './support/payments.js';
import { boardPages, commandCounter, drainRankStream, gameWithServer, seasonScores, shardedGame, streamRecords } from './support/rankings.js';

/**
 * rank_around (core/rankings/around.ts) on boards kept by the stream's consumer (core/rankings/rank-pages.ts):
 * every answer is compared with ranks computed here from the score items themselves, on boards of several
 * pages with big ties, after splits and merges, with consumers racing, and before the stream is applied.
 */
let deps: TestDeps;
let app: ReturnType<typeof createAllApps>;
const base = '/v2-testing/merchant/games';

beforeAll(async () => {
  deps = await createTestDeps({ stream: true });
  app = createAllApps(deps);
});

interface Line {
  game_player_id: string;
  game_player_name: string;
  kills: number;
  wins: number;
}

/** Reports lines through submitgamescore, as many players a report as one takes. */
async function report(server: string, game: string, lines: Line[]) {
  for (let start = 0; start < lines.length; start += MAX_REPORT_PLAYERS) {
    const answer = await call(app, 'POST', '/v2-testing/chain/game/score', {
      token: server,
      body: { game_code: game, result_id: randomUUID(), scores: lines.slice(start, start + MAX_REPORT_PLAYERS) },
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  }
}

/** The board computed here, independently: score items sorted by score, then the time it was reached, then id. */
async function expectedBoard(game: string, season: Season, shards: number, board: Board) {
  const rows = (await seasonScores(deps, game, season, shards))
    .map(({ id, item }) => ({
      id,
      name: String(item.game_player_name ?? ''),
      score: Number((board === 'kills' ? item.gsi4sk : item.gsi5sk) ?? 0),
      at: String((board === 'kills' ? item.killsAt : item.winsAt) ?? ''),
    }))
    .filter((row) => row.score > 0);
  rows.sort((a, b) => b.score - a.score || (a.at === b.at ? 0 : a.at < b.at ? -1 : 1) || (a.id === b.id ? 0 : a.id < b.id ? -1 : 1));
  return rows;
}

const aroundOf = (token: string, query: Record<string, string | number>) => call(app, 'GET', `${base}/rank/around`, { token, query });

/** Checks one player's answer against the independently computed board. */
function expectAnswer(body: Record<string, unknown>, rows: Awaited<ReturnType<typeof expectedBoard>>, id: string, around: number) {
  const at = rows.findIndex((row) => row.id === id);
  const entry = (row: (typeof rows)[number], index: number) => ({
    rank: index + 1,
    total: String(row.score),
    game_player_id: row.id,
    game_player_name: row.name,
  });
  expect(body).toMatchObject({
    ranked: true,
    rank: at + 1,
    total: String(rows[at]!.score),
    players: rows.length,
    above: rows.slice(Math.max(0, at - around), at).map((row, i) => entry(row, Math.max(0, at - around) + i)),
    below: rows.slice(at + 1, at + 1 + around).map((row, i) => entry(row, at + 1 + i)),
  });
}

/** The board's pages as stored: each within its bounds, in order, the directory's counts and first standings true. */
async function expectPagesSound(game: string, season: Season, board: Board) {
  const { directory, pages } = await boardPages(deps, { board, game, season });
  const all = pages.flatMap((page) => page.entries);
  expect(new Set(all.map((entry) => entry.id)).size).toBe(all.length);
  for (let i = 1; i < all.length; i++) {
    const [a, b] = [all[i - 1]!, all[i]!];
    expect(a.score > b.score || (a.score === b.score && (a.at < b.at || (a.at === b.at && a.id < b.id))), `${a.id} before ${b.id}`).toBe(true);
  }
  pages.forEach((page, i) => {
    const listed = directory.pages[i]!;
    expect({ count: page.entries.length, version: page.version, first: page.entries[0]!.id }).toEqual({
      count: listed.count,
      version: listed.version,
      first: listed.first.id,
    });
    if (pages.length > 1) expect(page.entries.length).toBeGreaterThanOrEqual(MIN_PAGE);
    expect(page.entries.length).toBeLessThanOrEqual(MAX_PAGE);
  });
  expect(directory.players).toBe(all.length);
  return { directory, pages };
}

describe('a board of several pages, with big ties', () => {
  const players = 2600;
  let game: Awaited<ReturnType<typeof shardedGame>>;
  const season = () => weekOf(new Date());

  beforeAll(async () => {
    game = await shardedGame(deps, 4);
    // Scores from a small range (ties of hundreds), several players at the same instant (ties broken by id).
    const lines = Array.from({ length: players }, (_, i) => ({
      game_player_id: `p${String(i).padStart(5, '0')}-${randomUUID().slice(0, 4)}`,
      game_player_name: `Player ${i}`,
      kills: 1 + (i % 7),
      wins: i % 3,
    }));
    deps.setNow(new Date());
    await report(game.server, game.code, lines.slice(0, 500));
    deps.setNow(undefined);
    await report(game.server, game.code, lines.slice(500));
    await drainRankStream(deps);
  }, 120_000);

  it('every answer equals the rank computed from the score items: top, bottom, ties, both boards', async () => {
    for (const board of ['kills', 'wins'] as Board[]) {
      const rows = await expectedBoard(game.code, season(), 4, board);
      const { pages } = await expectPagesSound(game.code, season(), board);
      expect(pages.length).toBeGreaterThan(1);
      const picks = [0, 1, 24, 25, 26, rows.length >> 1, rows.length - 26, rows.length - 2, rows.length - 1];
      for (let i = 0; i < 12; i++) picks.push(Math.floor(Math.random() * rows.length));
      for (const index of picks) {
        const id = rows[index]!.id;
        const answer = await aroundOf(game.server, { game_code: game.code, board, season_type: 1, game_player_id: id, around: 25 });
        expect(answer.status, JSON.stringify(answer.body)).toBe(200);
        expectAnswer(answer.body.data, rows, id, 25);
      }
    }
  }, 120_000);

  it('players move up by later reports: pages split and merge, and every answer stays exact', async () => {
    const rows = await expectedBoard(game.code, season(), 4, 'kills');
    // The bottom 700 jump to the top (their old pages empty out and merge), 300 of the middle gain a little.
    const movers = [
      ...rows.slice(-700).map((row, i) => ({ game_player_id: row.id, game_player_name: row.name, kills: 20 + (i % 3), wins: 0 })),
      ...rows.slice(900, 1200).map((row) => ({ game_player_id: row.id, game_player_name: `${row.name}*`, kills: 1, wins: 0 })),
    ];
    const pagesBefore = (await readDirectory(deps, { board: 'kills', game: game.code, season: season() })).pages.map((page) => page.id);
    await report(game.server, game.code, movers);
    await drainRankStream(deps);
    const after = await expectedBoard(game.code, season(), 4, 'kills');
    const pagesAfter = (await expectPagesSound(game.code, season(), 'kills')).directory.pages.map((page) => page.id);
    // Pages were merged away (the bottom emptied) and split off (the top filled).
    expect(pagesBefore.filter((id) => !pagesAfter.includes(id)).length).toBeGreaterThan(0);
    expect(pagesAfter.filter((id) => !pagesBefore.includes(id)).length).toBeGreaterThan(0);
    for (const index of [0, 5, 699, 700, 701, 1000, after.length - 1]) {
      const id = after[index]!.id;
      const answer = await aroundOf(game.server, { game_code: game.code, board: 'kills', season_type: 1, game_player_id: id, around: 7 });
      expectAnswer(answer.body.data, after, id, 7);
    }
  }, 120_000);

  it('a rank read is two batch reads, whatever the page', async () => {
    const rows = await expectedBoard(game.code, season(), 4, 'wins');
    const counter = commandCounter(deps);
    for (const index of [0, rows.length >> 1, rows.length - 1]) {
      const query = { game_code: game.code, board: 'wins', season_type: 1, game_player_id: rows[index]!.id };
      // The authorization layer reads whether the named player deleted their account once a minute per process and
      // player (a read, not a write): a warm process has it.
      await aroundOf(game.server, query);
      counter.start();
      await aroundOf(game.server, query);
      expect(counter.stop()).toEqual({ BatchGetItem: 2 });
    }
  });

  it('the month board is its own, and a past season is named by its range', async () => {
    const rows = await expectedBoard(game.code, monthOf(new Date()), 4, 'kills');
    const answer = await aroundOf(game.server, { game_code: game.code, board: 'kills', season_type: 2, game_player_id: rows[3]!.id, around: 2 });
    expectAnswer(answer.body.data, rows, rows[3]!.id, 2);
    const lastWeek = weekOf(new Date(Date.now() - 7 * 86_400_000));
    const past = await aroundOf(game.server, {
      game_code: game.code,
      board: 'kills',
      season_type: 1,
      season_range: lastWeek.range,
      game_player_id: rows[3]!.id,
    });
    expect(past.body.data).toMatchObject({ season_range: lastWeek.range, ranked: false, rank: null, players: 0 });
  });
  it('a batch landing between the two reads: the directory and pages are read again together, and the answer is exact', async () => {
    const game = await gameWithServer(deps);
    await report(
      game.server,
      game.code,
      Array.from({ length: 40 }, (_, i) => ({ game_player_id: `x${i}`, game_player_name: '', kills: 10 + i, wins: 0 })),
    );
    await drainRankStream(deps);
    // Five players reported now; their batch is applied right after the read's first request.
    await report(
      game.server,
      game.code,
      Array.from({ length: 5 }, (_, i) => ({ game_player_id: `y${i}`, game_player_name: '', kills: 25 + i, wins: 0 })),
    );
    let draining = false;
    let landed = false;
    const reads: string[] = [];
    deps.db.middlewareStack.add(
      (next, context) => async (args) => {
        const out = await next(args);
        if (draining || context.commandName !== 'BatchGetItemCommand') return out;
        const keys = Object.values((args.input as { RequestItems: Record<string, { Keys: { sk: string }[] }> }).RequestItems).flatMap((t) => t.Keys);
        reads.push(keys.map((key) => key.sk).join(','));
        if (!landed && keys.some((key) => key.sk === 'DIRECTORY')) {
          landed = true;
          draining = true;
          await drainRankStream(deps).finally(() => (draining = false));
        }
        return out;
      },
      { step: 'initialize', name: 'batchBetweenReads' },
    );
    try {
      const answer = await aroundOf(game.server, { game_code: game.code, board: 'kills', season_type: 1, game_player_id: 'x10', around: 4 });
      expectAnswer(answer.body.data, await expectedBoard(game.code, weekOf(new Date()), 1, 'kills'), 'x10', 4);
      expect(reads).toEqual([expect.stringContaining('DIRECTORY'), 'PAGE', 'DIRECTORY,PAGE']);
    } finally {
      deps.db.middlewareStack.remove('batchBetweenReads');
    }
  });
});

describe('freshness: the player current, the others as of the last batch', () => {
  it('before the stream is applied the player sees their new total placed among the board as it was; after, it is exact', async () => {
    const game = await gameWithServer(deps);
    const lines = Array.from({ length: 30 }, (_, i) => ({ game_player_id: `f${i}`, game_player_name: `F${i}`, kills: 10 + i, wins: 0 }));
    await report(game.server, game.code, lines);
    await drainRankStream(deps);
    const asOf = (await aroundOf(game.server, { game_code: game.code, board: 'kills', season_type: 1, game_player_id: 'f0' })).body.data.as_of;
    // f0 (10 kills, last) gets 25 more: 35, tied with f25, who reached it first; below f29 to f25, above f24.
    await report(game.server, game.code, [{ game_player_id: 'f0', game_player_name: 'F0', kills: 25, wins: 0 }]);
    const before = (await aroundOf(game.server, { game_code: game.code, board: 'kills', season_type: 1, game_player_id: 'f0', around: 1 })).body.data;
    expect(before).toMatchObject({
      rank: 6,
      total: '35',
      as_of: asOf,
      above: [{ game_player_id: 'f25', rank: 5 }],
      below: [{ game_player_id: 'f24', rank: 7 }],
    });
    // Another player's view is still the old one until the batch lands: f0 is last there.
    const other = (await aroundOf(game.server, { game_code: game.code, board: 'kills', season_type: 1, game_player_id: 'f1', around: 1 })).body.data;
    expect(other).toMatchObject({ rank: 29, below: [{ game_player_id: 'f0', total: '10' }] });
    await drainRankStream(deps);
    const rows = await expectedBoard(game.code, weekOf(new Date()), 1, 'kills');
    const after = (await aroundOf(game.server, { game_code: game.code, board: 'kills', season_type: 1, game_player_id: 'f1', around: 3 })).body.data;
    expectAnswer(after, rows, 'f1', 3);
    expect(after.as_of > asOf).toBe(true);
  });
});

describe('the consumer', () => {
  it('racing consumers of one board lose nothing: two readers of the stream apply the same records at once', async () => {
    const game = await gameWithServer(deps);
    const lines = Array.from({ length: 400 }, (_, i) => ({ game_player_id: `r${i}`, game_player_name: '', kills: 1 + (i % 13), wins: 0 }));
    await report(game.server, game.code, lines);
    const records = await scoreRecordsOf(game.code);
    // Two consumers, each given every record in its own batches of 37: they race on the directory's version.
    const consume = async () => {
      for (let start = 0; start < records.length; start += 37) await applyItemChanges(deps, records.slice(start, start + 37));
    };
    await Promise.all([consume(), consume()]);
    const rows = await expectedBoard(game.code, weekOf(new Date()), 1, 'kills');
    await expectPagesSound(game.code, weekOf(new Date()), 'kills');
    for (const index of [0, 150, 399]) {
      const id = rows[index]!.id;
      expectAnswer(
        (await aroundOf(game.server, { game_code: game.code, board: 'kills', season_type: 1, game_player_id: id, around: 4 })).body.data,
        rows,
        id,
        4,
      );
    }
  });

  it('a batch delivered again changes nothing', async () => {
    const game = await gameWithServer(deps);
    await report(game.server, game.code, [
      { game_player_id: 'a', game_player_name: 'A', kills: 3, wins: 0 },
      { game_player_id: 'b', game_player_name: 'B', kills: 2, wins: 0 },
    ]);
    await report(game.server, game.code, [{ game_player_id: 'b', game_player_name: 'B', kills: 5, wins: 0 }]);
    const records = await scoreRecordsOf(game.code);
    await applyItemChanges(deps, records);
    const once = await readDirectory(deps, { board: 'kills', game: game.code, season: weekOf(new Date()) });
    await applyItemChanges(deps, records);
    const { pages } = await expectPagesSound(game.code, weekOf(new Date()), 'kills');
    expect(pages[0]!.entries.map((entry) => [entry.id, entry.score])).toEqual([
      ['b', 7],
      ['a', 3],
    ]);
    expect((await readDirectory(deps, { board: 'kills', game: game.code, season: weekOf(new Date()) })).players).toBe(once.players);
  });
  it('a dropped record leaves no trace once the player changes again: their entry is where their locator says', async () => {
    const game = await gameWithServer(deps);
    const lines = Array.from({ length: 1500 }, (_, i) => ({ game_player_id: `d${i}`, game_player_name: '', kills: 1 + i, wins: 0 }));
    await report(game.server, game.code, lines);
    // d10 climbs from near the bottom to near the top (another page), then scores once more.
    await report(game.server, game.code, [{ game_player_id: 'd10', game_player_name: '', kills: 1400, wins: 0 }]);
    await report(game.server, game.code, [{ game_player_id: 'd10', game_player_name: '', kills: 1, wins: 0 }]);
    const records = await scoreRecordsOf(game.code);
    const climb = (record: ItemChange) => record.after?.game_player_id === 'd10' && record.after.gsi4sk === 1411;
    expect(records.filter(climb)).toHaveLength(2);
    // The consumer never gets the climb (a batch dropped after its retries), then gets the next change.
    await applyItemChanges(
      deps,
      records.filter((record) => !climb(record)),
    );
    const { pages } = await expectPagesSound(game.code, weekOf(new Date()), 'kills');
    expect(pages.length).toBeGreaterThan(1);
    const rows = await expectedBoard(game.code, weekOf(new Date()), 1, 'kills');
    expectAnswer(
      (await aroundOf(game.server, { game_code: game.code, board: 'kills', season_type: 1, game_player_id: 'd10', around: 5 })).body.data,
      rows,
      'd10',
      5,
    );
  });
});

/** The stream's records of a game's items, in order, as the consumer gets them (read, not applied). */
async function scoreRecordsOf(game: string): Promise<ItemChange[]> {
  return (await streamRecords(deps)).filter((record) => (record.after ?? record.before)?.game_code === game);
}

describe('answers and refusals', () => {
  it('a player not on the board is not ranked; a player token asks for itself only; bad parameters name the field', async () => {
    const game = await gameWithServer(deps);
    const player = await playerWithTokens(deps, game.code);
    await report(game.server, game.code, [{ game_player_id: player.uid, game_player_name: 'Me', kills: 4, wins: 0 }]);
    await drainRankStream(deps);
    const own = await aroundOf(player.platform, { game_code: game.code, board: 'kills', season_type: 1, game_player_id: player.uid });
    expect(own.body.data).toMatchObject({ ranked: true, rank: 1, total: '4', players: 1, above: [], below: [] });
    expect((await aroundOf(player.game, { game_code: game.code, board: 'kills', season_type: 1, game_player_id: player.uid })).status).toBe(200);
    const wins = await aroundOf(player.platform, { game_code: game.code, board: 'wins', season_type: 1, game_player_id: player.uid });
    expect(wins.body.data).toMatchObject({ ranked: false, rank: null, total: '0', above: [], below: [], players: 0, as_of: null });
    const nobody = await aroundOf(game.server, { game_code: game.code, board: 'kills', season_type: 2, game_player_id: 'nobody' });
    expect(nobody.body.data).toMatchObject({ ranked: false, rank: null, players: 1 });

    const other = await aroundOf(player.platform, { game_code: game.code, board: 'kills', season_type: 1, game_player_id: 'someone-else' });
    expect({ status: other.status, code: other.body.error }).toEqual({ status: 403, code: 'auth.not_caller' });
    const stranger = await merchantWithToken(deps);
    const strangerServer = (await deps.tokens.issue('server', stranger.accountId, { merchant_id: stranger.merchant.id })).token;
    const foreign = await aroundOf(strangerServer, { game_code: game.code, board: 'kills', season_type: 1, game_player_id: player.uid });
    expect({ status: foreign.status, code: foreign.body.error }).toEqual({ status: 403, code: 'access.other_owner' });
    const missing = await aroundOf(game.server, { game_code: 'no-such-game', board: 'kills', season_type: 1, game_player_id: 'x' });
    expect(missing.status).toBe(404);
    expect((await aroundOf('', { game_code: game.code, board: 'kills', season_type: 1, game_player_id: 'x' })).status).toBe(401);

    const good = { game_code: game.code, board: 'kills', season_type: 1, game_player_id: 'x' };
    const cases: [Record<string, string | number | undefined>, string][] = [
      [{ board: 'losses' }, 'query.board'],
      [{ season_type: 3 }, 'query.season_type'],
      [{ season_range: '2026-11-17-11-23' }, 'query.season_range'],
      [{ season_range: 'last week' }, 'query.season_range'],
      [{ around: 26 }, 'query.around'],
      [{ around: -1 }, 'query.around'],
      [{ game_player_id: undefined }, 'query.game_player_id'],
    ];
    for (const [change, field] of cases) {
      const query = Object.fromEntries(Object.entries({ ...good, ...change }).filter((entry): entry is [string, string | number] => entry[1] !== undefined));
      const bad = await aroundOf(game.server, query);
      expect({ status: bad.status, message: bad.body.message }, JSON.stringify(change)).toEqual({
        status: 400,
        message: expect.stringMatching(new RegExp(`^${field}`)),
      });
    }
  });
});
