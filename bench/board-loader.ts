import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { PlatformDeps } from '../core/platform/deps.js';
import { boardPartition, scoreKey, shardOf } from '../core/rankings/keys.js';
import type { Season } from '../core/rankings/seasons.js';

/**
 * A bulk loader of boards for the bench (outside any timed part): `players` score items of one game's season
 * written as the reports leave them (core/rankings/keys.ts: the season's shards, the boards' index keys with
 * the scores as their sort keys, the times the scores were reached: `loadedPlayer`) with `putItems`. Scores
 * follow `scoreOf` (player index -> kills and wins).
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
    const shard = shardOf(id, shards);
    return {
      ...scoreKey(game, season, id, shards),
      game_code: game,
      season_type: season.type,
      season_range: season.range,
      game_player_id: id,
      game_player_name: name,
      updatedAt: at,
      ...(kills > 0 ? { gsi4pk: boardPartition('kills', game, season, shard, shards), gsi4sk: kills, killsAt: at } : {}),
      ...(wins > 0 ? { gsi5pk: boardPartition('wins', game, season, shard, shards), gsi5sk: wins, winsAt: at } : {}),
    };
  };
  await putItems(deps, players, itemOf, options.inFlight ?? 8);
  const seconds = (performance.now() - started) / 1000;
  return { players, seconds: Math.round(seconds * 10) / 10, itemsPerSecond: Math.round(players / seconds) };
}
