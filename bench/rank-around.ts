import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Hono } from 'hono';
import { type Board, headDirectoryKey, snapshotDirectoryKey } from '../core/rankings/keys.js';
import type { PlayerRank, RankedEntry } from '../core/rankings/models.js';
import type { PageEntry } from '../core/rankings/rank-pages.js';
import type { Season } from '../core/rankings/seasons.js';
import { call } from '../test/support/http.js';
import type { LocalDeps } from '../test/support/local-deps.js';
import { buildBoard, loadedPlayer } from './board-loader.js';
import { capacityMeter } from './capacity-meter.js';
import { percentile, round } from './stats.js';

/**
 * Part 7's ranks on the bulk-loaded board (core/rankings/rank-head.ts, rank-snapshot.ts, around.ts):
 * 1. both boards' live heads and snapshots written at once from the loaded standings in board order (outside
 *    any timing: the loader writes score items straight to the table, so neither the stream's consumer nor the
 *    snapshot job saw them; bench/board-loader.ts buildBoard);
 * 2. rank_around (around = 25) read `reads` times per position through the app, in sequence: requests per read,
 *    p50/p99 and whether the head (live) or the snapshot answered. Every answer is checked against ranks counted
 *    here from the loaded scores (1 + the players ranking above), neither from the pages nor from the order they
 *    were built from. Then one more read per position with the capacity meter on (bench/capacity-meter.ts; it
 *    reads every item again, so it is left out of the timing): its read units.
 * Runs before anything else of part 7 changes a score item or a head (both are built from the loaded scores).
 */
export interface AroundPosition {
  board: Board;
  position: string;
  /** Each distinct request mix seen, e.g. "BatchGetItem x2", without what a process reads again once a minute. */
  requests: string[];
  /** Reads that also read again what a process remembers a minute (the game's shard setting, the player's gone mark). */
  settingReads: number;
  /** What answered (`standings` of the answers: live or snapshot), each distinct value seen. */
  standings: string[];
  /** The read units of one more read (of the position's first player) on DynamoDB's billing, by bench/capacity-meter.ts. */
  readUnits: number;
  /** What that read was charged, by item: `BatchGetItem SCORE#… PLAYER#… 1, …`. */
  charged: string;
  p50Ms: number;
  p99Ms: number;
  answers: number;
  wrong: number;
  firstWrong?: string;
}

export interface RankAroundResult {
  around: number;
  reads: number;
  built: { board: Board; headPages: number; headDirectoryKb: number; snapshotPages: number; snapshotDirectoryKb: number; seconds: number }[];
  positions: AroundPosition[];
  /** Every answer as counted. */
  correct: boolean;
  /** Every read made exactly the two BatchGetItems of around.ts. */
  twoRequests: boolean;
}

const AROUND = 25;

/** What the loader wrote, by player index. */
export interface Loaded {
  players: number;
  ids: string[];
  names: string[];
  ats: string[];
  scores: Record<Board, Int32Array>;
}

/** The bench's own board order of the loaded players (score desc, then time, then id), as indexes. */
export function boardOrder(loaded: Loaded, board: Board): number[] {
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

/** A small seeded generator, so runs move the same players. */
export function seeded(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) >>> 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

/** The loaded players' ids, names, times and scores, from the loader's rules. */
export function loadedPlayers(season: Season, players: number, scoreOf: (i: number) => { kills: number; wins: number }): Loaded {
  const loaded: Loaded = { players, ids: [], names: [], ats: [], scores: { kills: new Int32Array(players), wins: new Int32Array(players) } };
  for (let i = 0; i < players; i++) {
    const player = loadedPlayer(season, i);
    const { kills, wins } = scoreOf(i);
    if (kills <= 0 || wins <= 0) throw new Error('rank pages bench: every loaded player is expected on both boards');
    [loaded.ids[i], loaded.names[i], loaded.ats[i], loaded.scores.kills[i], loaded.scores.wins[i]] = [player.id, player.name, player.at, kills, wins];
  }
  return loaded;
}

/** A board's standings in board order, as its pages hold them. */
export const standingsOf = (loaded: Loaded, board: Board, order: readonly number[]): PageEntry[] =>
  order.map((i) => ({ score: loaded.scores[board][i]!, at: loaded.ats[i]!, id: loaded.ids[i]!, name: loaded.names[i]! }));

export async function benchRankAround(
  deps: LocalDeps,
  app: Hono,
  options: { game: string; server: string; season: Season; loaded: Loaded; reads: number },
): Promise<RankAroundResult> {
  const { game, season, loaded } = options;
  const built: RankAroundResult['built'] = [];
  const positions: AroundPosition[] = [];
  const counter = requestCounter(deps);
  const meter = capacityMeter(deps.db, deps.endpoint);
  const kb = async (key: { pk: string; sk: string }) => {
    const out = await deps.db.send(new GetCommand({ TableName: deps.table, Key: key }));
    return round(((out.Item?.data as Uint8Array | undefined)?.length ?? 0) / 1024, 1);
  };
  for (const board of ['kills', 'wins'] as Board[]) {
    const started = performance.now();
    const order = boardOrder(loaded, board);
    const ref = { board, game, season };
    const written = await buildBoard(deps, ref, standingsOf(loaded, board, order));
    built.push({
      board,
      headPages: written.headPages,
      headDirectoryKb: await kb(headDirectoryKey(board, game, season)),
      snapshotPages: written.snapshotPages,
      snapshotDirectoryKb: await kb(snapshotDirectoryKey(board, game, season)),
      seconds: round((performance.now() - started) / 1000, 1),
    });
    const rankOf = ranker(loaded, board);
    const read = (i: number) =>
      call(app, 'GET', '/v2-testing/merchant/games/rank/around', {
        token: options.server,
        query: { game_code: game, board, season_type: season.type, season_range: season.range, game_player_id: loaded.ids[i]!, around: AROUND },
      });
    for (const { position, players: readers } of positionsOf(loaded, board, order)) {
      // Steady state: each player read once before (the process then remembers their gone mark a minute).
      for (const i of readers) await read(i);
      const latencies: number[] = [];
      const mixes = new Set<string>();
      const standings = new Set<string>();
      const found: Pick<AroundPosition, 'wrong' | 'firstWrong'> = { wrong: 0 };
      let settingReads = 0;
      for (let r = 0; r < options.reads; r++) {
        const i = readers[r % readers.length]!;
        counter.start();
        const t0 = performance.now();
        const answer = await read(i);
        latencies.push(performance.now() - t0);
        const { requests, setting } = counter.stop();
        if (setting) settingReads++;
        mixes.add(
          Object.entries(requests)
            .map(([name, n]) => `${name} x${n}`)
            .join(', '),
        );
        standings.add(String((answer.body?.data as PlayerRank | undefined)?.standings));
        const wrong = wrongIn(loaded, board, rankOf, i, answer.status, answer.body?.data as PlayerRank);
        if (wrong) {
          found.wrong++;
          found.firstWrong ??= wrong;
        }
      }
      meter.start();
      await read(readers[0]!);
      const tally = await meter.stop();
      positions.push({
        board,
        position,
        requests: [...mixes],
        settingReads,
        standings: [...standings],
        readUnits: tally.read,
        charged: tally.charges.map((c) => `${c.command} ${c.key} ${c.read}`).join(', '),
        p50Ms: round(percentile(latencies, 50)),
        p99Ms: round(percentile(latencies, 99)),
        answers: options.reads,
        ...found,
      });
    }
  }
  meter.detach();
  return {
    around: AROUND,
    reads: options.reads,
    built,
    positions,
    correct: positions.every((p) => p.wrong === 0),
    twoRequests: positions.every((p) => p.requests.length === 1 && p.requests[0] === 'BatchGetItem x2'),
  };
}

/**
 * Counts the DynamoDB commands the deps' client sends while on, by name, but for what a process remembers a
 * minute and reads again after (a GetItem of the game's shard setting, core/rankings/shards.ts, or of the named
 * player's gone mark, core/access/players.ts), counted apart.
 */
function requestCounter(deps: LocalDeps) {
  let counts: { requests: Record<string, number>; setting: number } | undefined;
  deps.db.middlewareStack.add(
    (next, context) => async (args) => {
      if (counts) {
        const name = (context.commandName ?? 'unknown').replace(/Command$/, '');
        const key = (args.input as { Key?: { pk?: unknown } }).Key;
        if (name === 'GetItem' && /^(GAME|GONE)#/.test(String(key?.pk))) counts.setting++;
        else counts.requests[name] = (counts.requests[name] ?? 0) + 1;
      }
      return next(args);
    },
    { step: 'initialize', name: `rankAroundCounter${Math.random()}` },
  );
  return {
    start: () => void (counts = { requests: {}, setting: 0 }),
    stop: () => {
      const result = counts ?? { requests: {}, setting: 0 };
      counts = undefined;
      return result;
    },
  };
}
