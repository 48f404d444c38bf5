import type { TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import type { Hono } from 'hono';
import type { Board } from '../core/rankings/keys.js';
import type { PlayerRank, RankedEntry } from '../core/rankings/models.js';
import type { Standing } from '../core/rankings/order.js';
import { applyStandingChanges, buildRankPages, readDirectory, type RankBoard, type StandingChange } from '../core/rankings/rank-pages.js';
import type { Season } from '../core/rankings/seasons.js';
import { call } from '../test/support/http.js';
import type { LocalDeps } from '../test/support/local-deps.js';
import { commandCounter } from '../test/support/rankings.js';
import { loadedPlayer, putItems } from './board-loader.js';
import { percentile, round } from './stats.js';

/**
 * Part 7's rank pages on the bulk-loaded board (core/rankings/rank-pages.ts, core/rankings/around.ts):
 * 1. both boards' pages built at once from the loaded standings in board order (outside any timing: the loader
 *    writes score items straight to the table, so the stream's consumer never saw them);
 * 2. rank_around (around = 25) read `reads` times per position through the app, in sequence: requests per read
 *    and p50/p99. Every answer is checked against ranks counted here from the loaded scores (1 + the players
 *    ranking above), neither from the pages nor from the order they were built from;
 * 3. the consumer's cost: applyStandingChanges on the kills board with batches of random players moving up a
 *    few points (as reports move them), `batches` batches of each size: changes a second and what a batch writes.
 * Runs before anything else of part 7 changes a score item (the pages are built from the loaded scores).
 */
export interface AroundPosition {
  board: Board;
  position: string;
  /** Each distinct request mix seen, e.g. "BatchGetItem x2". */
  requests: string[];
  p50Ms: number;
  p99Ms: number;
  answers: number;
  wrong: number;
  firstWrong?: string;
}

export interface ConsumerCost {
  batchSize: number;
  batches: number;
  changesPerSecond: number;
  /** DynamoDB requests per batch, by command. */
  requestsPerBatch: Record<string, number>;
  pagesWrittenPerBatch: number;
  pageBytesPerChange: number;
  directoryBytesPerChange: number;
  /** Write units a change costs deployed: a transaction's write costs 2 units per KB of each item, rounded up. */
  writeUnitsPerChange: number;
  pagesBefore: number;
  pagesAfter: number;
}

export interface RankAroundResult {
  around: number;
  reads: number;
  built: { board: Board; pages: number; directoryKb: number; seconds: number }[];
  positions: AroundPosition[];
  consumer: ConsumerCost[];
  /** The kills board's player count after the consumer's batches: they move players, never add or drop one. */
  playersAfter: number;
  /** Every answer as counted, and the board's player count kept by the consumer. */
  correct: boolean;
  /** Every read made exactly the two BatchGetItems of around.ts. */
  twoRequests: boolean;
}

const AROUND = 25;
const BATCH_SIZES = [100, 1000];

/** What the loader wrote, by player index. */
interface Loaded {
  players: number;
  ids: string[];
  names: string[];
  ats: string[];
  scores: Record<Board, Int32Array>;
}

/** The bench's own board order of the loaded players (score desc, then time, then id), as indexes. */
function boardOrder(loaded: Loaded, board: Board): number[] {
  const { ids, ats } = loaded;
  const scores = loaded.scores[board];
  const order = Array.from({ length: loaded.players }, (_, i) => i);
  return order.sort((a, b) => scores[b]! - scores[a]! || (ats[a]! < ats[b]! ? -1 : ats[a]! > ats[b]! ? 1 : ids[a]! < ids[b]! ? -1 : 1));
}

/** A player's rank counted from the loaded scores: the players of a higher score, plus those of theirs reached earlier or, at the same time, with a smaller id. */
function ranker(loaded: Loaded, board: Board): (i: number) => number {
  const { ids, ats } = loaded;
  const scores = loaded.scores[board];
  const sameScore = new Map<number, number[]>();
  for (let i = 0; i < loaded.players; i++) {
    const list = sameScore.get(scores[i]!) ?? [];
    list.push(i);
    sameScore.set(scores[i]!, list);
  }
  const known = new Map<number, number>();
  return (i) => {
    const cached = known.get(i);
    if (cached !== undefined) return cached;
    let above = 0;
    for (const [score, list] of sameScore) if (score > scores[i]!) above += list.length;
    for (const j of sameScore.get(scores[i]!)!) if (ats[j]! < ats[i]! || (ats[j] === ats[i] && ids[j]! < ids[i]!)) above++;
    known.set(i, above + 1);
    return above + 1;
  };
}

/** The positions read: the top, the middle and the bottom ten, and players inside the board's largest tie. */
function positionsOf(loaded: Loaded, board: Board, order: number[]): { position: string; players: number[] }[] {
  const n = order.length;
  const scores = loaded.scores[board];
  const ranks = (from: number, players: number[]) => `ranks ${(from + 1).toLocaleString('en')}-${(from + players.length).toLocaleString('en')}`;
  const mid = Math.max(0, (n >> 1) - 5);
  const middle = order.slice(mid, mid + 10);
  const bottom = order.slice(Math.max(0, n - 10));
  const tally = new Map<number, number>();
  for (const i of order) tally.set(scores[i]!, (tally.get(scores[i]!) ?? 0) + 1);
  const [tieScore, tieSize] = [...tally].reduce((best, entry) => (entry[1] > best[1] ? entry : best));
  const low = order.findIndex((i) => scores[i] === tieScore);
  // Inside the tie, the players nearest its middle that share their time too: their ranks are decided by id.
  const { ats } = loaded;
  const sameAt = (k: number) => k >= low && k + 1 < low + tieSize && ats[order[k]!] === ats[order[k + 1]!];
  let start = low + (tieSize >> 1);
  for (let d = 0; d < tieSize; d++) {
    const k = [start + d, start - d].find(sameAt);
    if (k !== undefined) {
      start = k;
      break;
    }
  }
  let end = start + 1;
  while (end < low + tieSize && ats[order[end]!] === ats[order[start]!]) end++;
  while (start > low && ats[order[start - 1]!] === ats[order[start]!]) start--;
  const tie = order.slice(start, end);
  const shared = tie.length > 1 ? `${tie.length} sharing score and time` : 'none share a time: its middle player';
  return [
    { position: `top (${ranks(0, order.slice(0, 10))})`, players: order.slice(0, 10) },
    { position: `middle (${ranks(mid, middle)})`, players: middle },
    { position: `bottom (${ranks(n - bottom.length, bottom)})`, players: bottom },
    {
      position: `largest tie (score ${tieScore}, ${tieSize.toLocaleString('en')} players, ${ranks(low, order.slice(low, low + tieSize))}): ${ranks(start, tie)}, ${shared}`,
      players: tie,
    },
  ];
}

/** What is wrong with a rank_around answer for loaded player `i`, from the counted ranks; undefined if nothing. */
function wrongIn(loaded: Loaded, board: Board, rankOf: (i: number) => number, i: number, status: number, body: PlayerRank): string | undefined {
  if (status !== 200) return `${loaded.ids[i]}: HTTP ${status}`;
  const scores = loaded.scores[board];
  const rank = rankOf(i);
  if (!body.ranked || body.rank !== rank || body.total !== String(scores[i]) || body.players !== loaded.players) {
    return `${loaded.ids[i]}: rank ${body.rank} total ${body.total} of ${body.players}, counted rank ${rank} total ${scores[i]} of ${loaded.players}`;
  }
  const above = Math.min(AROUND, rank - 1);
  const below = Math.min(AROUND, loaded.players - rank);
  if (body.above.length !== above || body.below.length !== below) return `${loaded.ids[i]}: ${body.above.length} above, ${body.below.length} below`;
  const indexOf = (entry: RankedEntry) => {
    const j = Number(entry.game_player_id.slice('loaded-'.length));
    return Number.isInteger(j) && j >= 0 && j < loaded.players && entry.game_player_id === loaded.ids[j] ? j : undefined;
  };
  const expected = (entry: RankedEntry, at: number) => {
    const j = indexOf(entry);
    return j !== undefined && entry.rank === at && rankOf(j) === at && entry.total === String(scores[j]) && entry.game_player_name === loaded.names[j];
  };
  const listed = [...body.above.map((entry, k) => [entry, rank - above + k] as const), ...body.below.map((entry, k) => [entry, rank + 1 + k] as const)];
  const wrong = listed.find(([entry, at]) => !expected(entry, at));
  if (!wrong) return undefined;
  const j = indexOf(wrong[0]);
  return `${loaded.ids[i]}: neighbour ${wrong[0].game_player_id} listed at rank ${wrong[0].rank} (its place: ${wrong[1]}), counted rank ${j === undefined ? 'none' : rankOf(j)}`;
}

/** Approximate stored size of an item (DynamoDB counts attribute names and values). */
function itemBytes(item: Record<string, unknown>): number {
  let bytes = 0;
  for (const [name, value] of Object.entries(item)) {
    bytes += name.length;
    if (value instanceof Uint8Array) bytes += value.length;
    else if (typeof value === 'number') bytes += Math.ceil(String(value).length / 2) + 1;
    else bytes += Buffer.byteLength(String(value));
  }
  return bytes;
}

/** Tallies what the TransactWriteItems of the deps' client put while on: pages, their bytes, the directory's bytes. */
function writeRecorder(deps: LocalDeps) {
  let tally: { pages: number; pageBytes: number; directoryBytes: number; writeUnits: number } | undefined;
  deps.db.middlewareStack.add(
    (next, context) => async (args) => {
      if (tally && context.commandName === 'TransactWriteItemsCommand') {
        for (const write of (args.input as TransactWriteCommandInput).TransactItems ?? []) {
          const item = write.Put?.Item;
          if (!item) continue;
          const bytes = (item.data as Uint8Array | undefined)?.length ?? 0;
          if (item.sk === 'PAGE') {
            tally.pages++;
            tally.pageBytes += bytes;
          } else if (item.sk === 'DIRECTORY') tally.directoryBytes += bytes;
          tally.writeUnits += 2 * Math.ceil(itemBytes(item) / 1024);
        }
      }
      return next(args);
    },
    { step: 'initialize', name: 'rankPageWrites' },
  );
  return {
    start: () => void (tally = { pages: 0, pageBytes: 0, directoryBytes: 0, writeUnits: 0 }),
    stop: () => {
      const result = tally!;
      tally = undefined;
      return result;
    },
  };
}

/** A small seeded generator, so runs move the same players. */
function seeded(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) >>> 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

export async function benchRankAround(
  deps: LocalDeps,
  app: Hono,
  options: {
    game: string;
    server: string;
    season: Season;
    players: number;
    scoreOf: (i: number) => { kills: number; wins: number };
    reads: number;
    batches: number;
  },
): Promise<RankAroundResult> {
  const { game, season, players } = options;
  const loaded: Loaded = { players, ids: [], names: [], ats: [], scores: { kills: new Int32Array(players), wins: new Int32Array(players) } };
  for (let i = 0; i < players; i++) {
    const player = loadedPlayer(season, i);
    const { kills, wins } = options.scoreOf(i);
    if (kills <= 0 || wins <= 0) throw new Error('rank pages bench: every loaded player is expected on both boards');
    [loaded.ids[i], loaded.names[i], loaded.ats[i], loaded.scores.kills[i], loaded.scores.wins[i]] = [player.id, player.name, player.at, kills, wins];
  }
  // The consumer's players (below), drawn first: their locators are written with the pages.
  const random = seeded(7);
  const draws = BATCH_SIZES.flatMap((size) => Array.from({ length: size * options.batches }, () => Math.floor(random() * players)));
  const built: RankAroundResult['built'] = [];
  const positions: AroundPosition[] = [];
  const counter = commandCounter(deps);
  for (const board of ['kills', 'wins'] as Board[]) {
    const started = performance.now();
    const order = boardOrder(loaded, board);
    const scores = loaded.scores[board];
    const { pages: items, locators } = buildRankPages(
      deps,
      { board, game, season },
      order.map((i) => ({ score: scores[i]!, at: loaded.ats[i]!, id: loaded.ids[i]!, name: loaded.names[i]! })),
    );
    await putItems(deps, items.length, (k) => items[k]!, 8);
    // Locators only of the players the consumer below moves (all 1,000,000 would double the load's time).
    if (board === 'kills') {
      const moved = new Set(draws.map((i) => loaded.ids[i]!));
      const wanted = locators.filter((item) => moved.has(String(item.pk).slice(String(item.pk).lastIndexOf('#WHO#') + 5)));
      await putItems(deps, wanted.length, (k) => wanted[k]!, 8);
    }
    const directory = items.find((item) => item.sk === 'DIRECTORY')!;
    built.push({
      board,
      pages: items.length - 1,
      directoryKb: round((directory.data as Uint8Array).length / 1024, 1),
      seconds: round((performance.now() - started) / 1000, 1),
    });
    const rankOf = ranker(loaded, board);
    const read = (i: number) =>
      call(app, 'GET', '/v2-testing/merchant/games/rank/around', {
        token: options.server,
        query: { game_code: game, board, season_type: season.type, season_range: season.range, game_player_id: loaded.ids[i]!, around: AROUND },
      });
    for (const { position, players: readers } of positionsOf(loaded, board, order)) {
      await read(readers[0]!);
      const latencies: number[] = [];
      const mixes = new Set<string>();
      const found: Pick<AroundPosition, 'wrong' | 'firstWrong'> = { wrong: 0 };
      for (let r = 0; r < options.reads; r++) {
        const i = readers[r % readers.length]!;
        counter.start();
        const t0 = performance.now();
        const answer = await read(i);
        latencies.push(performance.now() - t0);
        const requests = counter.stop();
        mixes.add(
          Object.entries(requests)
            .map(([name, n]) => `${name} x${n}`)
            .join(', '),
        );
        const wrong = wrongIn(loaded, board, rankOf, i, answer.status, answer.body?.data as PlayerRank);
        if (wrong) {
          found.wrong++;
          found.firstWrong ??= wrong;
        }
      }
      positions.push({
        board,
        position,
        requests: [...mixes],
        p50Ms: round(percentile(latencies, 50)),
        p99Ms: round(percentile(latencies, 99)),
        answers: options.reads,
        ...found,
      });
    }
  }

  // The consumer: kills board, the players drawn above move up 1 to 5 points, stamped now as a report stamps a
  // score that grows.
  const ref: RankBoard = { board: 'kills', game, season };
  const current = new Map<number, Standing>();
  const standing = (i: number): Standing => current.get(i) ?? { score: loaded.scores.kills[i]!, at: loaded.ats[i]!, id: loaded.ids[i]! };
  let drawn = 0;
  const recorder = writeRecorder(deps);
  const consumer: ConsumerCost[] = [];
  for (const size of BATCH_SIZES) {
    const pagesBefore = (await readDirectory(deps, ref)).pages.length;
    let seconds = 0;
    const requests: Record<string, number> = {};
    const writes = { pages: 0, pageBytes: 0, directoryBytes: 0, writeUnits: 0 };
    for (let b = 0; b < options.batches; b++) {
      const changes: StandingChange[] = Array.from({ length: size }, () => {
        const i = draws[drawn++]!;
        const before = standing(i);
        const after = { score: before.score + 1 + Math.floor(random() * 5), at: new Date().toISOString(), id: loaded.ids[i]!, name: loaded.names[i]! };
        current.set(i, after);
        return { id: after.id, after };
      });
      counter.start();
      recorder.start();
      const t0 = performance.now();
      await applyStandingChanges(deps, ref, changes);
      seconds += (performance.now() - t0) / 1000;
      for (const [name, n] of Object.entries(counter.stop())) requests[name] = (requests[name] ?? 0) + n;
      const tally = recorder.stop();
      for (const key of Object.keys(writes) as (keyof typeof writes)[]) writes[key] += tally[key];
    }
    const changes = size * options.batches;
    consumer.push({
      batchSize: size,
      batches: options.batches,
      changesPerSecond: round(changes / seconds, 1),
      requestsPerBatch: Object.fromEntries(Object.entries(requests).map(([name, n]) => [name, round(n / options.batches, 1)])),
      pagesWrittenPerBatch: round(writes.pages / options.batches, 1),
      pageBytesPerChange: Math.round(writes.pageBytes / changes),
      directoryBytesPerChange: Math.round(writes.directoryBytes / changes),
      writeUnitsPerChange: round(writes.writeUnits / changes, 1),
      pagesBefore,
      pagesAfter: (await readDirectory(deps, ref)).pages.length,
    });
  }
  const playersAfter = (await readDirectory(deps, ref)).players;
  return {
    around: AROUND,
    reads: options.reads,
    built,
    positions,
    consumer,
    playersAfter,
    correct: positions.every((p) => p.wrong === 0) && playersAfter === players,
    twoRequests: positions.every((p) => p.requests.length === 1 && p.requests[0] === 'BatchGetItem x2'),
  };
}
