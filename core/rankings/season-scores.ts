import type { PlatformDeps } from '../platform/deps.js';
import { queryItems } from '../platform/query.js';
import { type Board, scorePartition } from './keys.js';
import { compareStandings, type Standing } from './order.js';
import type { PageEntry } from './rank-pages.js';
import { type ScoreItem, toScoreItem } from './items.js';
import type { Season } from './seasons.js';
import { seasonShards } from './shards.js';

/**
 * A season's score items read whole: each of its K shard partitions (shards.ts) queried to its end, in parallel.
 * What the snapshot (rank-snapshot.ts) and settlement read: no index orders the scores (reports.ts), and a read
 * of every item costs half a read unit per 4 KB, far less than keeping an order on every report would.
 */
export async function readSeasonScores(
  deps: Pick<PlatformDeps, 'db' | 'table' | 'now'>,
  game: string,
  season: Season,
  consistent = false,
): Promise<ScoreItem[]> {
  const shards = await seasonShards(deps, game, season);
  const parts = await Promise.all(
    Array.from({ length: shards }, (_, shard) =>
      queryItems(deps, {
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': scorePartition(game, season, shard, shards) },
        ConsistentRead: consistent,
      }),
    ),
  );
  return parts.flat().map(toScoreItem);
}

/** A score item's place on `board` (order.ts); its score is 0 when the player is not on that board. */
export function standingOf(board: Board, item: ScoreItem): Standing {
  return { score: board === 'kills' ? item.kills : item.wins, at: (board === 'kills' ? item.killsAt : item.winsAt) ?? '', id: item.game_player_id };
}

/** The players of a board, in its order: those with a score above 0 on it. */
export function boardStandings(board: Board, items: readonly ScoreItem[]): PageEntry[] {
  return items
    .map((item) => ({ ...standingOf(board, item), name: item.game_player_name }))
    .filter((entry) => entry.score > 0)
    .sort(compareStandings);
}

/**
 * The top `limit` of a season's board, in its order (settlement's read): every score item read, consistently,
 * and sorted. Exact whatever the ties, at half a read unit (a whole one, consistent) per 4 KB of the season once.
 */
export async function seasonTop(deps: Pick<PlatformDeps, 'db' | 'table' | 'now'>, board: Board, game: string, season: Season, limit: number) {
  const items = await readSeasonScores(deps, game, season, true);
  return items
    .map((item) => ({ item, standing: standingOf(board, item) }))
    .filter(({ standing }) => standing.score > 0)
    .sort((a, b) => compareStandings(a.standing, b.standing))
    .slice(0, limit)
    .map(({ item, standing }) => ({ item, score: standing.score }));
}
