import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { PlatformDeps } from '../core/platform/deps.js';
import { playerItemsKeys } from '../core/platform/players.js';
import { scoreKey } from '../core/rankings/keys.js';
import { buildHead } from '../core/rankings/rank-head.js';
import type { PageEntry, RankBoard } from '../core/rankings/rank-pages.js';
import { writeSnapshot } from '../core/rankings/rank-snapshot.js';
import type { Season } from '../core/rankings/seasons.js';

/**
 * A bulk loader of boards for the bench (outside any timed part): `players` score items of one game's season
 * written as the reports leave them (core/rankings/keys.ts: the season's shards, the scores in `kills`/`wins`
 * and the times they were reached in `killsAt`/`winsAt`, no board index keys; the player's items index keys,
 * core/platform/players.ts: `loadedPlayer`) with `putItems`, so a report on a loaded player and a read of the
 * season cost what they cost on a board the reports made.
 * Scores follow `scoreOf` (player index -> kills and wins). The loader writes score items straight to the table,
 * so no stream consumer sees them: `buildBoard` then writes a board's live head and snapshot at once from its
 * standings, as the stream's consumer and the snapshot job would have left them.
 */
export interface LoadedBoard {
  players: number;
  seconds: number;
  itemsPerSecond: number;
}

/** Loaded player `i` of a season: its id, name and when it reached its scores (what the score item holds). */
export function loadedPlayer(season: Season, i: number) {
  return { id: `loaded-${i}`, name: `Player ${i}`, at: new Date(season.start.getTime() + (i % 86_400) * 1000).toISOString() };
}

/** Puts `count` items (item `i` built by `itemOf`), 25 to a BatchWriteItem, `inFlight` at a time, unprocessed items sent again. */
export async function putItems(deps: Pick<PlatformDeps, 'db' | 'table'>, count: number, itemOf: (i: number) => Record<string, unknown>, inFlight = 8) {
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const start = next;
      next = Math.min(count, next + 25);
      let requests = Array.from({ length: next - start }, (_, j) => ({ PutRequest: { Item: itemOf(start + j) } }));
      while (requests.length > 0) {
        const out = await deps.db.send(new BatchWriteCommand({ RequestItems: { [deps.table]: requests } }));
        requests = (out.UnprocessedItems?.[deps.table] ?? []) as typeof requests;
      }
    }
  };
  await Promise.all(Array.from({ length: inFlight }, worker));
}

export async function loadBoard(
  deps: Pick<PlatformDeps, 'db' | 'table'>,
  options: { game: string; season: Season; shards: number; players: number; scoreOf: (i: number) => { kills: number; wins: number }; inFlight?: number },
): Promise<LoadedBoard> {
  const { game, season, shards, players } = options;
  const started = performance.now();
  const itemOf = (i: number) => {
    const { id, name, at } = loadedPlayer(season, i);
    const { kills, wins } = options.scoreOf(i);
    return {
      ...scoreKey(game, season, id, shards),
      game_code: game,
      season_type: season.type,
      season_range: season.range,
      game_player_id: id,
      game_player_name: name,
      updatedAt: at,
      ...playerItemsKeys(id, 'SCORE'),
      ...(kills > 0 ? { kills, killsAt: at } : {}),
      ...(wins > 0 ? { wins, winsAt: at } : {}),
    };
  };
  await putItems(deps, players, itemOf, options.inFlight ?? 8);
  const seconds = (performance.now() - started) / 1000;
  return { players, seconds: Math.round(seconds * 10) / 10, itemsPerSecond: Math.round(players / seconds) };
}

/** What building one board wrote: its head's pages and its snapshot's, and how long it took. */
export interface BuiltBoard {
  headPages: number;
  snapshotPages: number;
  seconds: number;
}

/**
 * A loaded board's live head (core/rankings/rank-head.ts buildHead: its top standings, its top item and its
 * directory) and its snapshot (core/rankings/rank-snapshot.ts writeSnapshot: every standing), from `entries`,
 * its standings in board order.
 */
export async function buildBoard(
  deps: Pick<PlatformDeps, 'db' | 'table' | 'now' | 'rankHeadSize'>,
  ref: RankBoard,
  entries: readonly PageEntry[],
): Promise<BuiltBoard> {
  const started = performance.now();
  const head = buildHead(deps, ref, entries);
  await putItems(deps, head.length, (k) => head[k]!, 8);
  const snapshot = await writeSnapshot(deps, ref, entries, deps.now().toISOString());
  return {
    headPages: head.filter((item) => item.sk === 'PAGE').length,
    snapshotPages: snapshot.written + snapshot.kept,
    seconds: Math.round((performance.now() - started) / 100) / 10,
  };
}
