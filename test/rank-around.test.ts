import { randomUUID } from 'node:crypto';
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Board, scoreKey, snapshotDirectoryKey } from '../core/rankings/keys.js';
import { leaveBoards } from '../core/rankings/leave-boards.js';
import { MAX_BOARD, MAX_REPORT_PLAYERS } from '../core/rankings/models.js';
import { applyHeadChanges, MAX_PAGE as HEAD_MAX_PAGE, MIN_PAGE as HEAD_MIN_PAGE, healHead, readHead } from '../core/rankings/rank-head.js';
import type { Directory, PageEntry, RankBoard } from '../core/rankings/rank-pages.js';
import { MAX_PAGE as SNAPSHOT_MAX_PAGE, MIN_PAGE as SNAPSHOT_MIN_PAGE, readSnapshot, writeSnapshot } from '../core/rankings/rank-snapshot.js';
import { applyItemChanges, type ItemChange } from '../core/rankings/rank-stream.js';
import { monthOf, weekOf, type Season } from '../core/rankings/seasons.js';
import { createAllApps } from '../functions/apps.js';
import { createTestDeps, type TestDeps } from './support/deps.js';
import { call } from './support/http.js';
import { merchantWithToken } from './support/merchants.js';
import { playerWithTokens } from './support/payments.js';
import {
  commandCounter,
  drainRankStream,
  gameWithServer,
  headPages,
  headTop,
  seasonScores,
  shardedGame,
  snapshotPages,
  streamRecords,
  takeSnapshots,
} from './support/rankings.js';

/**
 * rank_around (core/rankings/around.ts) from a board's live head (core/rankings/rank-head.ts, kept from the
 * stream) and from its snapshot (core/rankings/rank-snapshot.ts, written by the snapshot job): every answer is
 * compared with ranks computed here from the score items themselves, on boards with big ties, for players in
 * the head and below it, before and after a new snapshot, with consumers racing, and before the stream is applied.
 * The head is kept small here (HEAD standings) so that a board of a few thousand players has both.
 */
const HEAD = 300;
let deps: TestDeps;
let app: ReturnType<typeof createAllApps>;
const base = '/v2-testing/merchant/games';

beforeAll(async () => {
  deps = await createTestDeps({ stream: true });
  deps.rankHeadSize = HEAD;
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

/** A player's place on a board as computed here. */
interface Row {
  id: string;
  name: string;
  score: number;
  at: string;
}

/** The board order, written here independently: score descending, then the time it was reached, then id. */
const byStanding = (a: Row, b: Row) => b.score - a.score || (a.at === b.at ? 0 : a.at < b.at ? -1 : 1) || (a.id === b.id ? 0 : a.id < b.id ? -1 : 1);

/** The board computed here from the score items themselves (every shard read). */
async function expectedBoard(game: string, season: Season, shards: number, board: Board): Promise<Row[]> {
  const rows = (await seasonScores(deps, game, season, shards))
    .map(({ id, kills, wins, item }) => ({
      id,
      name: String(item.game_player_name ?? ''),
      score: board === 'kills' ? kills : wins,
      at: String((board === 'kills' ? item.killsAt : item.winsAt) ?? ''),
    }))
    .filter((row) => row.score > 0);
  return rows.sort(byStanding);
}

const aroundOf = (token: string, query: Record<string, string | number>) => call(app, 'GET', `${base}/rank/around`, { token, query });

/**
 * Checks an answer: the player `me` placed among `others` (a board without them, in order, as computed here), with
 * `players` on the board. An exact answer has `others` = the current board without the player; a snapshot answer
 * the board as it was at the snapshot without the player, the player at their current standing.
 */
function expectPlaced(body: Record<string, unknown>, others: Row[], me: Row, around: number, players: number) {
  const place = others.filter((row) => byStanding(row, me) < 0).length;
  const entry = (row: Row, rank: number) => ({ rank, total: String(row.score), game_player_id: row.id, game_player_name: row.name });
  const start = Math.max(0, place - around);
  expect(body).toMatchObject({
    ranked: true,
    game_player_id: me.id,
    rank: place + 1,
    total: String(me.score),
    players,
    above: others.slice(start, place).map((row, i) => entry(row, start + i + 1)),
    below: others.slice(place, place + around).map((row, i) => entry(row, place + i + 2)),
  });
}

/** Checks one player's answer against the board computed here, as it is now. */
function expectAnswer(body: Record<string, unknown>, rows: Row[], id: string, around: number) {
  const me = rows.find((row) => row.id === id);
  expect(me, id).toBeDefined();
  expectPlaced(
    body,
    rows.filter((row) => row.id !== id),
    me!,
    around,
    rows.length,
  );
}

/** Whether the head ranks a standing, as around.ts documents it: the head holds the whole board, or the standing is above its last page. */
const headRanks = (head: Directory, me: Row) =>
  head.pages.length > 0 && (head.cutoff === undefined || (head.pages.length > 1 && byStanding(me, { ...head.pages.at(-1)!.first, name: '' }) < 0));

/** Rows as the pages hold them (for comparing a stored board with the computed one). */
const rowsOf = (entries: { id: string; name: string; score: number; at: string }[]): Row[] =>
  entries.map(({ id, name, score, at }) => ({ id, name, score, at }));

/**
 * The board's head as stored, checked: each page within its bounds and in order, the directory's counts, versions
 * and first standings true, the top item its first standings. With `rows` (the current board, the stream
 * drained): the head is the board's first standings, all of them while the board is at most `size`, else
 * `size` to `size` + a page of them with a cutoff no standing of the head reaches and the next standing does.
 */
async function expectHeadSound(ref: RankBoard, rows?: Row[], size = HEAD) {
  const { directory, pages } = await headPages(deps, ref);
  const all = pages.flatMap((page) => rowsOf(page.entries));
  expect(new Set(all.map((entry) => entry.id)).size).toBe(all.length);
  for (let i = 1; i < all.length; i++) expect(byStanding(all[i - 1]!, all[i]!), `${all[i - 1]!.id} before ${all[i]!.id}`).toBeLessThan(0);
  expectListed(directory, pages, HEAD_MIN_PAGE, HEAD_MAX_PAGE);
  expect(directory.players).toBe(all.length);
  const cutoff = directory.cutoff;
  if (cutoff) for (const entry of all) expect(byStanding(entry, { ...cutoff, name: '' }), entry.id).toBeLessThan(0);
  expect(rowsOf((await headTop(deps, ref)) ?? [])).toEqual(all.slice(0, MAX_BOARD));
  if (rows) {
    expect(all).toEqual(rows.slice(0, all.length));
    if (rows.length <= size) {
      expect(all.length).toBe(rows.length);
      expect(cutoff).toBeUndefined();
    } else {
      expect(all.length).toBeGreaterThanOrEqual(size);
      expect(all.length).toBeLessThan(size + HEAD_MAX_PAGE);
      expect(cutoff).toBeDefined();
      // The next standing of the board is the cutoff or below it: nothing above the cutoff is missing.
      expect(byStanding(rows[all.length]!, { ...cutoff!, name: '' })).toBeGreaterThanOrEqual(0);
    }
  }
  return { directory, pages, entries: all };
}

/** Each page as its directory lists it (count, version, first standing), and within its kind's bounds. */
function expectListed(directory: Directory, pages: { version: number; entries: PageEntry[] }[], least: number, most: number) {
  pages.forEach((page, i) => {
    const listed = directory.pages[i]!;
    expect({ count: page.entries.length, version: page.version, first: page.entries[0]!.id }).toEqual({
      count: listed.count,
      version: listed.version,
      first: listed.first.id,
    });
    if (pages.length > 1) expect(page.entries.length).toBeGreaterThanOrEqual(least);
    expect(page.entries.length).toBeLessThanOrEqual(most);
  });
}

/** The board's snapshot as stored, checked: its pages within bounds, its directory true, and (with `rows`) exactly that board. */
async function expectSnapshotSound(ref: RankBoard, rows?: Row[]) {
  const { directory, pages } = await snapshotPages(deps, ref);
  const all = pages.flatMap((page) => rowsOf(page.entries));
  expectListed(directory, pages, SNAPSHOT_MIN_PAGE, SNAPSHOT_MAX_PAGE);
  expect(directory.players).toBe(all.length);
  expect(directory.cutoff).toBeUndefined();
  if (rows) expect(all).toEqual(rows);
  else for (let i = 1; i < all.length; i++) expect(byStanding(all[i - 1]!, all[i]!)).toBeLessThan(0);
  return { directory, pages, entries: all };
}

/** The partition of a board's directories (its snapshot pages' partitions begin with it). */
const key = (ref: RankBoard) => snapshotDirectoryKey(ref.board, ref.game, ref.season).pk;

/** The indexes at which a directory's pages begin, as ranks on the board less one. */
const pageStarts = (directory: Directory) => directory.pages.map((_, i) => directory.pages.slice(0, i).reduce((sum, page) => sum + page.count, 0));

describe('a board of several thousand players with big ties: its head live, the rest from its snapshot', () => {
  const players = 2600;
  let game: Awaited<ReturnType<typeof shardedGame>>;
  const season = () => weekOf(new Date());
  const ref = (board: Board): RankBoard => ({ board, game: game.code, season: season() });
  const ask = (board: Board, id: string, around: number, seasonType = 1) =>
    aroundOf(game.server, { game_code: game.code, board, season_type: seasonType, game_player_id: id, around });

  /** Asks for `id` and checks the answer's source: live when the head ranks the player's standing, else the snapshot. */
  async function askChecked(board: Board, me: Row, around: number) {
    const [head, snapshot] = await Promise.all([readHead(deps, ref(board)), readSnapshot(deps, ref(board))]);
    const answer = await ask(board, me.id, around);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const live = headRanks(head, me);
    expect(answer.body.data, me.id).toMatchObject({ standings: live ? 'live' : 'snapshot', as_of: (live ? head : snapshot).updatedAt });
    return { body: answer.body.data as Record<string, unknown>, live };
  }

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

  it('before the first snapshot: the head ranks its players live and exact; a player below it is 503 table.busy', async () => {
    const rows = await expectedBoard(game.code, season(), 4, 'kills');
    const { directory: head } = await expectHeadSound(ref('kills'), rows);
    expect(head.cutoff).toBeDefined();
    expect((await readSnapshot(deps, ref('kills'))).pages).toEqual([]);
    const lastFirst = rows.findIndex((row) => row.id === head.pages.at(-1)!.first.id);
    try {
      for (const index of [0, 1, lastFirst - 1]) {
        const { body, live } = await askChecked('kills', rows[index]!, 5);
        expect(live).toBe(true);
        // Exact; the board's count is the head's until a snapshot has counted the board.
        expectPlaced(
          body,
          rows.filter((row) => row.id !== rows[index]!.id),
          rows[index]!,
          5,
          head.players,
        );
      }
      for (const index of [lastFirst, head.players, rows.length - 1]) {
        const refused = await ask('kills', rows[index]!.id, 5);
        expect({ status: refused.status, error: refused.body.error, retry: refused.headers.get('retry-after') }, String(index)).toEqual({
          status: 503,
          error: 'table.busy',
          retry: expect.stringMatching(/^\d+$/),
        });
      }
    } finally {
      const run = await takeSnapshots(deps);
      // This game's week and month (and whatever other game of the table has scores).
      expect(run.seasons).toBeGreaterThanOrEqual(2);
      expect(run.pages_written).toBeGreaterThan(0);
    }
  });

  it('every answer equals the rank computed from the score items: top, bottom, ties, page edges, both boards, live and snapshot', async () => {
    for (const board of ['kills', 'wins'] as Board[]) {
      const rows = await expectedBoard(game.code, season(), 4, board);
      const { directory: head } = await expectHeadSound(ref(board), rows);
      const { directory: snapshot } = await expectSnapshotSound(ref(board), rows);
      expect(head.pages.length).toBeGreaterThan(1);
      expect(snapshot.pages.length).toBeGreaterThan(1);
      const lastFirst = rows.findIndex((row) => row.id === head.pages.at(-1)!.first.id);
      const edges = [...pageStarts(head), ...pageStarts(snapshot)].flatMap((start) => [start - 1, start]);
      const picks = [
        0,
        1,
        24,
        25,
        26,
        lastFirst - 1,
        lastFirst,
        head.players - 1,
        head.players,
        rows.length >> 1,
        rows.length - 26,
        rows.length - 2,
        rows.length - 1,
      ];
      for (let i = 0; i < 12; i++) picks.push(Math.floor(Math.random() * rows.length));
      const seen = { live: 0, snapshot: 0 };
      for (const index of new Set([...picks, ...edges].filter((index) => index >= 0 && index < rows.length))) {
        const { body, live } = await askChecked(board, rows[index]!, 25);
        expect(live, `${board} ${index}`).toBe(index < lastFirst);
        expectAnswer(body, rows, rows[index]!.id, 25);
        seen[live ? 'live' : 'snapshot']++;
      }
      expect(seen.live).toBeGreaterThan(5);
      expect(seen.snapshot).toBeGreaterThan(5);
    }
  }, 120_000);

  it("a player whose standing is in the head's last page is answered from the snapshot, exactly", async () => {
    const rows = await expectedBoard(game.code, season(), 4, 'kills');
    const { directory: head, pages } = await expectHeadSound(ref('kills'), rows);
    const last = pages.at(-1)!.entries;
    expect(last.length).toBeGreaterThanOrEqual(HEAD_MIN_PAGE);
    for (const entry of [last[0]!, last[1]!, last[last.length >> 1]!, last.at(-1)!]) {
      const me = rows.find((row) => row.id === entry.id)!;
      const { body, live } = await askChecked('kills', me, 10);
      expect(live).toBe(false);
      expect(body.standings).toBe('snapshot');
      expectAnswer(body, rows, me.id, 10);
    }
    // The player just above that page is the head's.
    const above = rows[rows.findIndex((row) => row.id === head.pages.at(-1)!.first.id) - 1]!;
    expect((await askChecked('kills', above, 10)).body.standings).toBe('live');
  });

  it('a rank read is two batch reads, live or from the snapshot, whatever the page', async () => {
    const rows = await expectedBoard(game.code, season(), 4, 'wins');
    const head = await readHead(deps, ref('wins'));
    const lastFirst = rows.findIndex((row) => row.id === head.pages.at(-1)!.first.id);
    const counter = commandCounter(deps);
    for (const [index, standings] of [
      [0, 'live'],
      [lastFirst - 1, 'live'],
      [lastFirst, 'snapshot'],
      [rows.length >> 1, 'snapshot'],
      [rows.length - 1, 'snapshot'],
    ] as const) {
      const query = { game_code: game.code, board: 'wins', season_type: 1, game_player_id: rows[index]!.id };
      // The authorization layer reads whether the named player deleted their account once a minute per process and
      // player (a read, not a write): a warm process has it.
      await aroundOf(game.server, query);
      counter.start();
      const answer = await aroundOf(game.server, query);
      expect(counter.stop()).toEqual({ BatchGetItem: 2 });
      expect(answer.body.data).toMatchObject({ standings, rank: index + 1 });
    }
  });

  it('between snapshots: head players exact and current, the others current themselves among the board as of the snapshot; after the next, all exact', async () => {
    // The board as the snapshot has it (it was taken after the last report): kept to compute the answers from.
    const atSnapshot = await expectedBoard(game.code, season(), 4, 'kills');
    const { directory: snapshotBefore } = await expectSnapshotSound(ref('kills'), atSnapshot);
    const head = await readHead(deps, ref('kills'));
    const lastFirst = atSnapshot.findIndex((row) => row.id === head.pages.at(-1)!.first.id);
    const n = atSnapshot.length;
    // Ten head players gain 2; twenty players in the middle gain 1 and stay below the head; the bottom 30 gain 5,
    // which moves them above much of the tail (so the tail's ranks now differ from the snapshot's).
    const headMovers = atSnapshot.slice(10, 20);
    const middleMovers = atSnapshot.slice(n >> 1, (n >> 1) + 20);
    const bottomMovers = atSnapshot.slice(n - 30);
    const line = (row: Row, kills: number) => ({ game_player_id: row.id, game_player_name: row.name, kills, wins: 0 });
    await report(game.server, game.code, [
      ...headMovers.map((row) => line(row, 2)),
      ...middleMovers.map((row) => line(row, 1)),
      ...bottomMovers.map((row) => line(row, 5)),
    ]);
    await drainRankStream(deps);
    const rows = await expectedBoard(game.code, season(), 4, 'kills');
    await expectHeadSound(ref('kills'), rows);
    // The snapshot is as it was.
    expect((await readSnapshot(deps, ref('kills'))).version).toBe(snapshotBefore.version);

    const stayers = [0, 5, lastFirst - 2, lastFirst, lastFirst + 40, n - 200, n - 31].map((index) => atSnapshot[index]!);
    const checked = [...headMovers.slice(0, 3), ...middleMovers.slice(0, 5), ...bottomMovers.slice(0, 5), ...stayers];
    let differs = 0;
    for (const was of checked) {
      const me = rows.find((row) => row.id === was.id)!;
      const { body, live } = await askChecked('kills', me, 6);
      if (live) {
        expectAnswer(body, rows, me.id, 6);
        continue;
      }
      // Themselves as they are now, among the others as the snapshot read them.
      const others = atSnapshot.filter((row) => row.id !== me.id);
      expectPlaced(body, others, me, 6, atSnapshot.length);
      if (body.rank !== rows.indexOf(me) + 1) differs++;
    }
    // The head's movers answer live, the middle's and bottom's from the snapshot, and some of those answers are
    // not what the board now says (the bottom moved past them): the snapshot's, not the current board's.
    expect(headMovers.every((row) => headRanks(head, rows.find((now) => now.id === row.id)!))).toBe(true);
    expect(differs).toBeGreaterThan(0);

    await takeSnapshots(deps);
    await expectSnapshotSound(ref('kills'), rows);
    for (const was of checked) {
      const me = rows.find((row) => row.id === was.id)!;
      expectAnswer((await askChecked('kills', me, 6)).body, rows, me.id, 6);
    }
  }, 120_000);

  it('the head stays trimmed to its size and a page more, with a cutoff; a tail player who climbs above it enters the head and is ranked live', async () => {
    const before = await expectedBoard(game.code, season(), 4, 'kills');
    const { directory: head } = await expectHeadSound(ref('kills'), before);
    const lastFirst = { ...head.pages.at(-1)!.first, name: '' };
    // One from the bottom climbs to the top; another to just above the head's last page.
    const [top, near] = [before.at(-1)!, before.at(-2)!];
    expect(headRanks(head, top)).toBe(false);
    await report(game.server, game.code, [
      { game_player_id: top.id, game_player_name: top.name, kills: before[0]!.score + 50, wins: 0 },
      { game_player_id: near.id, game_player_name: near.name, kills: lastFirst.score + 1 - near.score, wins: 0 },
    ]);
    // Before the batch lands, the climber is already ranked live (every standing above theirs is in the head),
    // at their new total among the others as the head has them: the board before the report.
    const early = await expectedBoard(game.code, season(), 4, 'kills');
    expect(early[0]!.id).toBe(top.id);
    const { body: first } = await askChecked('kills', early[0]!, 3);
    expect(first).toMatchObject({ game_player_id: top.id, rank: 1, standings: 'live' });
    expectPlaced(
      first,
      before.filter((row) => row.id !== top.id),
      early[0]!,
      3,
      before.length,
    );

    await drainRankStream(deps);
    const rows = await expectedBoard(game.code, season(), 4, 'kills');
    const { entries } = await expectHeadSound(ref('kills'), rows);
    expect(entries.map((entry) => entry.id)).toEqual(expect.arrayContaining([top.id, near.id]));
    for (const id of [top.id, near.id]) {
      const me = rows.find((row) => row.id === id)!;
      const { body, live } = await askChecked('kills', me, 8);
      expect(live, id).toBe(true);
      expectAnswer(body, rows, id, 8);
    }
  });

  it('the month board is its own, and a past season is named by its range', async () => {
    const rows = await expectedBoard(game.code, monthOf(new Date()), 4, 'kills');
    const answer = await ask('kills', rows[3]!.id, 2, 2);
    expect(answer.body.data.standings).toBe('live');
    expectAnswer(answer.body.data, rows, rows[3]!.id, 2);
    const tail = await ask('kills', rows.at(-1)!.id, 2, 2);
    expect(tail.body.data.standings).toBe('snapshot');
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

  /**
   * Runs `read` with the stream's pending batch applied right after its first request (the one that reads the
   * head's directory); answers the keys' sort keys of each batch read it made.
   */
  async function withBatchBetweenReads(read: () => Promise<void>) {
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
      await read();
    } finally {
      deps.db.middlewareStack.remove('batchBetweenReads');
    }
    return reads;
  }

  it('a batch landing between the two reads: the directory and pages are read again together, and the answer is exact', async () => {
    const small = await gameWithServer(deps);
    await report(
      small.server,
      small.code,
      Array.from({ length: 40 }, (_, i) => ({ game_player_id: `x${i}`, game_player_name: '', kills: 10 + i, wins: 0 })),
    );
    await drainRankStream(deps);
    // Five players reported now; their batch is applied right after the read's first request.
    await report(
      small.server,
      small.code,
      Array.from({ length: 5 }, (_, i) => ({ game_player_id: `y${i}`, game_player_name: '', kills: 25 + i, wins: 0 })),
    );
    const reads = await withBatchBetweenReads(async () => {
      const answer = await aroundOf(small.server, { game_code: small.code, board: 'kills', season_type: 1, game_player_id: 'x10', around: 4 });
      expect(answer.body.data.standings).toBe('live');
      expectAnswer(answer.body.data, await expectedBoard(small.code, weekOf(new Date()), 1, 'kills'), 'x10', 4);
    });
    expect(reads).toEqual(['PLAYER#x10,DIRECTORY,SNAPSHOT', 'PAGE', 'DIRECTORY,PAGE']);
  });

  it('the same on a trimmed head: a batch renaming the neighbours of a head player lands between the reads', async () => {
    const rows = await expectedBoard(game.code, season(), 4, 'kills');
    const { directory: head, pages } = await expectHeadSound(ref('kills'), rows);
    // A player in the middle of the head's second page; the batch renames the players on either side of them.
    const page = pages[1]!.entries;
    const target = page[page.length >> 1]!;
    const at = rows.findIndex((row) => row.id === target.id);
    const renamed = [rows[at - 1]!, rows[at + 1]!];
    await report(
      game.server,
      game.code,
      renamed.map((row) => ({ game_player_id: row.id, game_player_name: `${row.name} (renamed)`, kills: 0, wins: 0 })),
    );
    const reads = await withBatchBetweenReads(async () => {
      const answer = await ask('kills', target.id, 3);
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      const now = await expectedBoard(game.code, season(), 4, 'kills');
      expect(now.filter((row) => row.name.endsWith('(renamed)')).map((row) => row.id)).toEqual(renamed.map((row) => row.id));
      expect(answer.body.data).toMatchObject({
        standings: 'live',
        above: expect.arrayContaining([expect.objectContaining({ game_player_name: `${renamed[0]!.name} (renamed)` })]),
      });
      expectAnswer(answer.body.data, now, target.id, 3);
    });
    expect(head.pages.length).toBeGreaterThan(2);
    expect(reads).toEqual([
      `PLAYER#${target.id},DIRECTORY,SNAPSHOT`,
      expect.stringMatching(/^PAGE,PAGE,PAGE$/),
      expect.stringMatching(/^DIRECTORY,PAGE,PAGE,PAGE$/),
    ]);
  });

  // The directory as read (its pages' first standings and its cutoff; stored packed).
  const directoryText = async () => JSON.stringify(await readHead(deps, ref('kills')));
  /** The head is sound and the board's next standing after it is its cutoff: the head's last one, taken out. */
  const expectCutoffNext = async (rows: Row[]) => {
    const { directory, entries } = await expectHeadSound(ref('kills'));
    expect(entries).toEqual(rows.slice(0, entries.length));
    expect(rows[entries.length]!.id).toBe(directory.cutoff!.id);
    return directory.cutoff!;
  };
  const leave = (id: string) => deps.db.send(new DeleteCommand({ TableName: deps.table, Key: scoreKey(game.code, season(), id, 4) }));

  it("a player who leaves the board while the head's cutoff names them is named there no longer, by the deletion's sweep or by the stream", async () => {
    // The deletion deletes the player's score items; its sweep (leaveBoards) may run before the stream is applied.
    const { directory: head } = await expectHeadSound(ref('kills'), await expectedBoard(game.code, season(), 4, 'kills'));
    const first = head.cutoff!.id;
    expect(await directoryText()).toContain(first);
    await leave(first);
    expect(await leaveBoards(deps, first, [ref('kills')])).toBe(1);
    expect(await directoryText()).not.toContain(first);
    await drainRankStream(deps);
    let rows = await expectedBoard(game.code, season(), 4, 'kills');
    const cutoff = await expectCutoffNext(rows);
    // The standing taken out of the head is ranked from the snapshot, as any below the head.
    expect((await askChecked('kills', rows.find((row) => row.id === cutoff.id)!, 2)).live).toBe(false);

    // The stream alone: the new cutoff's player leaves the board, and applying the removal moves the cutoff.
    await leave(cutoff.id);
    await drainRankStream(deps);
    expect(await directoryText()).not.toContain(cutoff.id);
    rows = await expectedBoard(game.code, season(), 4, 'kills');
    expect(rows.some((row) => row.id === first || row.id === cutoff.id)).toBe(false);
    await expectCutoffNext(rows);
  });

  it("the cutoff's player and every player of the head's last page leave in one batch: the cutoff moves to the last standing left", async () => {
    const { directory, pages } = await headPages(deps, ref('kills'));
    expect(pages.length).toBeGreaterThan(1);
    const changes = [...pages.at(-1)!.entries.map((entry) => ({ id: entry.id, before: entry })), { id: directory.cutoff!.id, before: directory.cutoff! }];
    for (const { id } of changes) await leave(id);
    await applyHeadChanges(deps, ref('kills'), changes);
    const text = await directoryText();
    for (const { id } of changes) expect(text).not.toContain(id);
    // The stream's own removals of the same players find nothing left to do.
    await drainRankStream(deps);
    await expectCutoffNext(await expectedBoard(game.code, season(), 4, 'kills'));
  });

  it("the snapshot job moves a cutoff whose player's removal the stream skipped", async () => {
    const gone = (await readHead(deps, ref('kills'))).cutoff!;
    await leave(gone.id);
    const rows = await expectedBoard(game.code, season(), 4, 'kills');
    // The score items read a moment after the standing was reached, without the player: the head is healed.
    const asOf = new Date(Date.now() + 10_000).toISOString();
    expect(await healHead(deps, ref('kills'), new Set(rows.map((row) => row.id)), asOf)).toBe(1);
    expect(await directoryText()).not.toContain(gone.id);
    await expectCutoffNext(rows);
    expect(await healHead(deps, ref('kills'), new Set(rows.map((row) => row.id)), asOf)).toBe(0);
    await drainRankStream(deps);
    await expectCutoffNext(rows);
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
      standings: 'live',
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

/** The stream's records of a game's items, in order, as the consumer gets them (read, not applied). */
async function scoreRecordsOf(game: string): Promise<ItemChange[]> {
  return (await streamRecords(deps)).filter((record) => (record.after ?? record.before)?.game_code === game);
}

describe('the consumer', () => {
  it('racing consumers of one board lose nothing: two readers of the stream apply the same records at once, the head trimmed meanwhile', async () => {
    const game = await gameWithServer(deps);
    const lines = Array.from({ length: 400 }, (_, i) => ({ game_player_id: `r${i}`, game_player_name: '', kills: 1 + (i % 13), wins: 0 }));
    await report(game.server, game.code, lines);
    // A second round: 60 players climb, so the records hold moves as well as arrivals.
    await report(
      game.server,
      game.code,
      lines.slice(0, 60).map((line) => ({ ...line, kills: 7 })),
    );
    const records = await scoreRecordsOf(game.code);
    // Two consumers, each given every record in its own batches of 37: they race on the directory's version.
    const consume = async () => {
      for (let start = 0; start < records.length; start += 37) await applyItemChanges(deps, records.slice(start, start + 37));
    };
    await Promise.all([consume(), consume()]);
    const week = weekOf(new Date());
    const rows = await expectedBoard(game.code, week, 1, 'kills');
    const { directory } = await expectHeadSound({ board: 'kills', game: game.code, season: week }, rows);
    expect(directory.cutoff).toBeDefined();
    // The snapshot counts the board (and ranks the players below the head).
    await takeSnapshots(deps);
    await expectSnapshotSound({ board: 'kills', game: game.code, season: week }, rows);
    for (const index of [0, 150]) {
      const answer = (await aroundOf(game.server, { game_code: game.code, board: 'kills', season_type: 1, game_player_id: rows[index]!.id, around: 4 })).body
        .data;
      expect(answer.standings).toBe('live');
      expectAnswer(answer, rows, rows[index]!.id, 4);
    }
    const last = (await aroundOf(game.server, { game_code: game.code, board: 'kills', season_type: 1, game_player_id: rows.at(-1)!.id, around: 4 })).body.data;
    expect(last.standings).toBe('snapshot');
    expectAnswer(last, rows, rows.at(-1)!.id, 4);
  });

  it('a batch delivered again changes nothing', async () => {
    const game = await gameWithServer(deps);
    await report(game.server, game.code, [
      { game_player_id: 'a', game_player_name: 'A', kills: 3, wins: 0 },
      { game_player_id: 'b', game_player_name: 'B', kills: 2, wins: 0 },
    ]);
    await report(game.server, game.code, [{ game_player_id: 'b', game_player_name: 'B', kills: 5, wins: 0 }]);
    const records = await scoreRecordsOf(game.code);
    const ref: RankBoard = { board: 'kills', game: game.code, season: weekOf(new Date()) };
    await applyItemChanges(deps, records);
    const once = await expectHeadSound(ref, await expectedBoard(game.code, ref.season, 1, 'kills'));
    await applyItemChanges(deps, records);
    const twice = await expectHeadSound(ref, await expectedBoard(game.code, ref.season, 1, 'kills'));
    expect(twice.entries.map((entry) => [entry.id, entry.score])).toEqual([
      ['b', 7],
      ['a', 3],
    ]);
    expect(twice.entries).toEqual(once.entries);
    expect(twice.directory.players).toBe(once.directory.players);
    // Records delivered in two batches and then the first again: the head is still the board.
    await applyItemChanges(deps, records.slice(0, 2));
    await applyItemChanges(deps, records.slice(2));
    expect((await expectHeadSound(ref)).entries).toEqual(once.entries);
  });

  it("a snapshot is exact even when the stream's records were never applied: it reads the score items", async () => {
    const game = await gameWithServer(deps);
    const lines = Array.from({ length: 700 }, (_, i) => ({ game_player_id: `d${i}`, game_player_name: `D${i}`, kills: 1 + (i % 11), wins: 0 }));
    await report(game.server, game.code, lines);
    // d10 climbs to the top, then scores once more: none of these records reaches the head (their batches dropped).
    await report(game.server, game.code, [{ game_player_id: 'd10', game_player_name: 'D10', kills: 40, wins: 0 }]);
    await report(game.server, game.code, [{ game_player_id: 'd10', game_player_name: 'D10', kills: 1, wins: 0 }]);
    const week = weekOf(new Date());
    const ref: RankBoard = { board: 'kills', game: game.code, season: week };
    expect((await readHead(deps, ref)).pages).toEqual([]);
    await takeSnapshots(deps);
    const rows = await expectedBoard(game.code, week, 1, 'kills');
    expect(rows[0]).toMatchObject({ id: 'd10', score: lines[10]!.kills + 41 });
    const { directory } = await expectSnapshotSound(ref, rows);
    expect(directory.players).toBe(700);
    for (const index of new Set([0, 1, ...pageStarts(directory).flatMap((start) => [start - 1, start]), 350, 698, 699].filter((index) => index >= 0))) {
      const answer = (await aroundOf(game.server, { game_code: game.code, board: 'kills', season_type: 1, game_player_id: rows[index]!.id, around: 5 })).body
        .data;
      expect(answer).toMatchObject({ standings: 'snapshot', as_of: directory.updatedAt });
      expectAnswer(answer, rows, rows[index]!.id, 5);
    }
    expect((await readHead(deps, ref)).pages).toEqual([]);
  });
});

describe("the snapshot's pages", () => {
  const at = '2026-11-23T10:00:00.000Z';
  const entry = (i: number, score: number): PageEntry => ({ id: `s${String(i).padStart(4, '0')}`, name: `S${i}`, score, at });
  const sorted = (entries: PageEntry[]) => [...entries].sort(byStanding);

  it('stay within their bounds however the players moved since the last snapshot; pages whose standings did not change are kept', async () => {
    const ref: RankBoard = { board: 'kills', game: `snap-${randomUUID().slice(0, 8)}`, season: weekOf(new Date()) };
    // 1,100 players: two pages.
    const first = Array.from({ length: 1100 }, (_, i) => entry(i, 5000 - i));
    expect(await writeSnapshot(deps, ref, first, at)).toMatchObject({ written: 2, kept: 0, retired: [] });
    const one = await expectSnapshotSound(ref, first);
    expect(one.pages.map((page) => page.entries.length)).toEqual([550, 550]);

    // 449 of the second page's players climb into the first page's range (which then holds 999) and ten leave:
    // the second range keeps 91, too few for a page of its own, and merged into the first it is past MAX_PAGE.
    const second = sorted([...first.slice(0, 550), ...first.slice(550, 641), ...first.slice(651).map((row, i) => ({ ...row, score: 6000 + i }))]);
    const written = await writeSnapshot(deps, ref, second, at);
    expect(written.retired.map((key) => key.pk).sort()).toEqual(one.directory.pages.map((page) => `${key(ref)}#S${page.id}`).sort());
    const two = await expectSnapshotSound(ref, second);
    expect(two.pages.length).toBe(2);

    // The same standings again: every page kept, only the directory written.
    expect(await writeSnapshot(deps, ref, second, at)).toMatchObject({ written: 0, kept: 2, retired: [] });
    const three = await expectSnapshotSound(ref, second);
    expect(three.directory.pages).toEqual(two.directory.pages);
    expect(three.directory.version).toBe(two.directory.version + 1);

    // One player of the last page moves within it: the first page is kept, the last written anew.
    const third = sorted(second.map((row) => (row.id === three.entries.at(-1)!.id ? { ...row, score: row.score + 1 } : row)));
    expect(await writeSnapshot(deps, ref, third, at)).toMatchObject({ written: 1, kept: 1 });
    const four = await expectSnapshotSound(ref, third);
    expect(four.directory.pages[0]).toEqual(three.directory.pages[0]);
    expect(four.directory.pages[1]!.id).not.toBe(three.directory.pages[1]!.id);
  });

  it('an empty board has none, and a board emptied since has none either', async () => {
    const ref: RankBoard = { board: 'wins', game: `snap-${randomUUID().slice(0, 8)}`, season: weekOf(new Date()) };
    await writeSnapshot(deps, ref, [], at);
    expect(await expectSnapshotSound(ref, [])).toMatchObject({ directory: { players: 0, pages: [], updatedAt: at } });
    await writeSnapshot(deps, ref, [entry(1, 3), entry(2, 2)], at);
    await expectSnapshotSound(ref, [entry(1, 3), entry(2, 2)]);
    const emptied = await writeSnapshot(deps, ref, [], at);
    expect(emptied.retired).toHaveLength(1);
    expect(await expectSnapshotSound(ref, [])).toMatchObject({ directory: { players: 0, pages: [] } });
  });
});

describe('answers and refusals', () => {
  it('a player not on the board is not ranked; a player token asks for itself only; bad parameters name the field', async () => {
    const game = await gameWithServer(deps);
    const player = await playerWithTokens(deps, game.code);
    await report(game.server, game.code, [{ game_player_id: player.uid, game_player_name: 'Me', kills: 4, wins: 0 }]);
    await drainRankStream(deps);
    const own = await aroundOf(player.platform, { game_code: game.code, board: 'kills', season_type: 1, game_player_id: player.uid });
    expect(own.body.data).toMatchObject({ ranked: true, rank: 1, total: '4', players: 1, above: [], below: [], standings: 'live' });
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
