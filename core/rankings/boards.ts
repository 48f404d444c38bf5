import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { PlatformDeps } from '../platform/deps.js';
import { gameError } from '../games/errors.js';
import { tableDefinition } from '../platform/table.js';
import { boardIndex, boardPartition, type Board } from './keys.js';
import { ownerOf } from '../access/owners.js';
import type { GameRank, RankEntry } from './models.js';
import { toScoreItem, type ScoreItem } from './reports.js';
import { monthOf, weekOf, type Season } from './seasons.js';
import { seasonShards } from './shards.js';
import { compareStandings, type Standing } from './order.js';

/** A player's place on one board: the score of that board and when the player reached it. */
export interface BoardRow {
  item: ScoreItem;
  score: number;
  /** When the player reached `score` (ISO); ties go to the earlier. */
  at: string;
}

/** A score item's place on `board` (order.ts); its score is 0 when the player is not on that board. */
export function standingOf(board: Board, item: ScoreItem): Standing {
  return { score: board === 'kills' ? item.kills : item.wins, at: (board === 'kills' ? item.killsAt : item.winsAt) ?? '', id: item.game_player_id };
}

/** The board's order (order.ts). */
const compareRows = (a: BoardRow, b: BoardRow) => compareStandings({ ...a, id: a.item.game_player_id }, { ...b, id: b.item.game_player_id });

/**
 * Reads a board's index, highest score first, until `max` rows or the end. `score` narrows it to the rows of
 * exactly that score (all of them when `max` is Infinity). Items on the board always have a positive score
 * (boards are sparse, reports.ts); the key condition `> 0` states it and costs nothing.
 */
async function readIndex(deps: PlatformDeps, board: Board, partition: string, max: number, score?: number): Promise<BoardRow[]> {
  const index = boardIndex[board];
  const [pk, sk] = tableDefinition.indexes[index];
  const rows: BoardRow[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const out = await deps.db.send(
      new QueryCommand({
        TableName: deps.table,
        IndexName: index,
        KeyConditionExpression: score === undefined ? '#pk = :p AND #sk > :score' : '#pk = :p AND #sk = :score',
        ExpressionAttributeNames: { '#pk': pk, '#sk': sk },
        ExpressionAttributeValues: { ':p': partition, ':score': score ?? 0 },
        ScanIndexForward: false,
        ...(Number.isFinite(max) ? { Limit: max - rows.length } : {}),
        ExclusiveStartKey: start,
      }),
    );
    for (const raw of out.Items ?? []) {
      const item = toScoreItem(raw);
      const { score, at } = standingOf(board, item);
      rows.push({ item, score, at });
    }
    start = out.LastEvaluatedKey;
  } while (start && rows.length < max);
  return rows;
}

/**
 * The top `limit` of one board partition (a shard of a season), ties broken by who reached the score first: one
 * Query of `limit + 1` rows on the board's index, ordered by score. DynamoDB orders equal sort keys by nothing
 * we control, so the rows read are put in order (an in-memory sort of at most `limit + 1` rows, never of the
 * season). That order is final unless the row after the cut has the cut's score: then players we did not read
 * may have that score too, some of them earlier, and the last places belong to the earliest of ALL of them. So
 * a second Query reads every row of exactly that score (`sk = :score`, paged to the end) and the places from
 * that score down are filled from it. Its cost grows with the number of players tied at the cut (the usual
 * case, no tie at the cut, is one Query); the time cannot go into the sort key instead, because `ADD` cannot
 * rewrite a combined score-and-time number atomically.
 */
async function partitionTop(deps: PlatformDeps, board: Board, partition: string, limit: number): Promise<BoardRow[]> {
  const read = (await readIndex(deps, board, partition, limit + 1)).sort(compareRows);
  if (read.length <= limit || read[limit]!.score !== read[limit - 1]!.score) return read.slice(0, limit);
  const cut = read[limit - 1]!.score;
  const tied = (await readIndex(deps, board, partition, Infinity, cut)).sort(compareRows);
  return [...read.filter((row) => row.score > cut), ...tied].slice(0, limit);
}

/**
 * The top `limit` of a season's board: each of its K shards' top `limit` (shards.ts), read in parallel, merged
 * in the board's order and cut. Exact: every row of the board's top `limit` is within its own shard's top
 * `limit`. K Queries (one more per shard tied at its cut).
 */
export async function boardTop(deps: PlatformDeps, board: Board, game: string, season: Season, limit: number): Promise<BoardRow[]> {
  const shards = await seasonShards(deps, game, season);
  const tops = await Promise.all(
    Array.from({ length: shards }, (_, shard) => partitionTop(deps, board, boardPartition(board, game, season, shard, shards), limit)),
  );
  return tops.flat().sort(compareRows).slice(0, limit);
}

const toRankEntry = (row: BoardRow): RankEntry => ({
  total: String(row.score),
  game_player_id: row.item.game_player_id,
  game_player_name: row.item.game_player_name,
});

/**
 * gameRank: the four boards of the game's current week and month, top `limit` each, read in parallel (with the
 * game's existence, a cached read: games are never deleted).
 */
export async function gameRank(deps: PlatformDeps, game: string, limit: number): Promise<GameRank> {
  const now = deps.now();
  const [week, month] = [weekOf(now), monthOf(now)];
  const [owner, weekKills, weekWins, monthKills, monthWins] = await Promise.all([
    ownerOf(deps, 'game', game),
    boardTop(deps, 'kills', game, week, limit),
    boardTop(deps, 'wins', game, week, limit),
    boardTop(deps, 'kills', game, month, limit),
    boardTop(deps, 'wins', game, month, limit),
  ]);
  if (owner === undefined) throw gameError('game.not_found', `game_code: no game ${game}`);
  return {
    gameWeekKillRank: weekKills.map(toRankEntry),
    gameWeekWinRank: weekWins.map(toRankEntry),
    gameMothKillRank: monthKills.map(toRankEntry),
    gameMothWinRank: monthWins.map(toRankEntry),
  };
}
