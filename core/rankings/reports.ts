import { GetCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod/mini';
import { sha256Url } from '../platform/digest.js';
import { fingerprintOf, sameRequest } from '../platform/idempotency.js';
import type { PlatformDeps } from '../platform/deps.js';
import { rankingError } from './errors.js';
import { ConcurrentChange, transactOrFailures, type FailedCondition, type TransactItem } from '../platform/transactions.js';
import { boardPartition, resultKey, scoreKey, shardOf } from './keys.js';
import { recordOpenSeasons } from './open-seasons.js';
import { seasonShards } from './shards.js';
import type { AddWinBody, AddWinResult, ScoreReport, ScoreResult } from './models.js';
import { monthOf, weekOf, type Season } from './seasons.js';

/**
 * addWin and submitgamescore (docs/api.md, "Rankings: reports and boards"): a game server of the game's merchant adds
 * kills and wins of players to the current week and month of the game. Each report is ONE TransactWriteItems:
 * - per player and season, an Update of the score item (keys.ts) that ADDs the points to the board sort keys
 *   themselves (`gsi4sk` = kills, `gsi5sk` = wins: a GSI sort key cannot be computed from another attribute,
 *   so the score IS the sort key) and stamps `killsAt`/`winsAt` when that score grows (ties: earlier first);
 * - with a result id, a Put of the result record on condition it is absent, so a resubmission adds nothing;
 * Nothing in it is shared by reports of other players: the score items are the players', the result record
 * the report's. The score items and board entries of a season are spread over its shards (shards.ts), so the
 * reports of a game are not held to one partition's writes. What all reports of a game share stays out of it,
 * because DynamoDB cancels a transaction that includes an item another transaction in flight includes
 * (TransactionConflict):
 * - the open-season records of the two seasons (what settlement finds and closes) are written after the
 *   transaction, by an idempotent UpdateItem, once per process and season (known.ts; concurrent first reports
 *   share the one write). After, so that a refused report writes nothing. If that write fails (or the process
 *   stops between the two), the report still counted: the next report of the game in that season, from any
 *   process, writes the record; only a season whose last report lost it stays unsettled, which an admin
 *   settles on demand (history/test);
 * - the game's owner is checked by the authorization layer before the handler (owners are remembered per
 *   process, core/access/owners.ts), never by a ConditionCheck on the game item.
 *
 * Boards are sparse: a score item joins the kills board (`gsi4pk` set) only when it gets kills, and the wins
 * board only when it gets wins, so players at 0 are on no board. Scores never decrease, so once on a board an
 * item stays on it. Item attributes: game_code, season_type, season_range, game_player_id, game_player_name,
 * wallet_address (when ever given), gsi4pk/gsi4sk/killsAt, gsi5pk/gsi5sk/winsAt (when positive), updatedAt.
 */

/** One player's points in a report (lines of one player summed). */
export interface PlayerPoints {
  id: string;
  name: string;
  wallet?: string;
  kills: number;
  wins: number;
}

/**
 * "a player's score in a season" and the boards (keys.ts scoreKey, boardPartition): a score item as stored. The
 * scores are the board sort keys (`gsi4sk` kills, `gsi5sk` wins), absent (0) while the player is on no board; a
 * name never given reads ''.
 */
const StoredScore = z.object({
  game_code: z.string(),
  season_type: z.number(),
  season_range: z.string(),
  game_player_id: z.string(),
  game_player_name: z._default(z.string(), ''),
  wallet_address: z.optional(z.string()),
  gsi4sk: z._default(z.number(), 0),
  gsi5sk: z._default(z.number(), 0),
  killsAt: z.optional(z.string()),
  winsAt: z.optional(z.string()),
});

/** A score item as stored, read back with its scores named (settlement reads these too). */
export interface ScoreItem extends Omit<z.infer<typeof StoredScore>, 'gsi4sk' | 'gsi5sk' | 'killsAt' | 'winsAt'> {
  kills: number;
  wins: number;
  killsAt?: string;
  winsAt?: string;
}

export function toScoreItem(item: Record<string, unknown>): ScoreItem {
  const { gsi4sk, gsi5sk, killsAt, winsAt, ...player } = StoredScore.parse(item);
  return { ...player, kills: gsi4sk, wins: gsi5sk, ...(killsAt === undefined ? {} : { killsAt }), ...(winsAt === undefined ? {} : { winsAt }) };
}

/** How long a result id is remembered (TTL): a resubmission within this time is counted once. */
export const RESULT_TTL_DAYS = 400;

const seasonRefs = (seasons: Season[]) => seasons.map((s) => ({ season_type: s.type, season_range: s.range }));

/** addWin: one player's kills and wins into the current week and month; once per `result_id` when given. */
export async function addWin(deps: PlatformDeps, input: AddWinBody): Promise<AddWinResult> {
  const player: PlayerPoints = { id: input.game_player_id, name: input.game_player_name, wallet: input.wallet_address, kills: input.kills, wins: input.wins };
  return record(deps, input.game_code, [player], input.result_id, { op: 'addWin', ...input }, (seasons) => ({
    game_code: input.game_code,
    game_player_id: input.game_player_id,
    kills: input.kills,
    wins: input.wins,
    ...(input.result_id !== undefined ? { result_id: input.result_id } : {}),
    seasons: seasonRefs(seasons),
  }));
}

/**
 * submitgamescore: a match's scores into the current week and month, once per `result_id`. Lines of the same
 * player are added together (one transaction may not touch an item twice); the last non-empty name and the
 * last wallet given are kept. The same result id with the same content answers the first answer; with other
 * content it is 409.
 */
export async function submitScores(deps: PlatformDeps, input: ScoreReport): Promise<ScoreResult> {
  const byId = new Map<string, PlayerPoints>();
  for (const line of input.scores) {
    const seen = byId.get(line.game_player_id);
    if (!seen) {
      byId.set(line.game_player_id, { id: line.game_player_id, name: line.game_player_name, wallet: line.wallet_address, kills: line.kills, wins: line.wins });
      continue;
    }
    seen.kills += line.kills;
    seen.wins += line.wins;
    if (line.game_player_name !== '') seen.name = line.game_player_name;
    if (line.wallet_address !== undefined) seen.wallet = line.wallet_address;
  }
  // The content is the players' points, whatever the order of the lines.
  const players = [...byId.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return record(deps, input.game_code, players, input.result_id, { op: 'submitgamescore', game: input.game_code, players }, (seasons) => ({
    game_code: input.game_code,
    result_id: input.result_id,
    players: players.length,
    seasons: seasonRefs(seasons),
  }));
}

/**
 * Writes one report in one transaction (see the top of the file), retried (transactOrFailures: bounded, jittered) while
 * it collides with concurrent transactions on the same items: DynamoDB then cancels it with
 * `TransactionConflict` and nothing was written, so running it again cannot count twice. The only condition is
 * the result record's: when it fails, the stored record says whether this is the same report (answer what it
 * answered) or another one (409).
 */
async function record<R>(
  deps: PlatformDeps,
  game: string,
  players: PlayerPoints[],
  resultId: string | undefined,
  content: unknown,
  answer: (seasons: Season[]) => R,
): Promise<R> {
  const now = deps.now();
  const at = now.toISOString();
  const seasons = [weekOf(now), monthOf(now)];
  const response = answer(seasons);
  const request = fingerprintOf(content);
  const items: TransactItem[] = [];
  if (resultId !== undefined) {
    items.push({
      Put: {
        TableName: deps.table,
        Item: {
          ...resultKey(game, resultId),
          game_code: game,
          result_id: resultId,
          request,
          response,
          createdAt: at,
          expiresAt: Math.floor(now.getTime() / 1000) + RESULT_TTL_DAYS * 86_400,
        },
        ConditionExpression: 'attribute_not_exists(pk)',
        // A resubmission is answered from the stored result the cancellation carries: no second read.
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      },
    });
  }
  // Each season's shard count (shards.ts): read once a minute per process, not per report.
  const shards = await Promise.all(seasons.map((season) => seasonShards(deps, game, season)));
  seasons.forEach((season, i) => {
    for (const player of players) items.push(scoreUpdate(deps, game, season, shards[i]!, player, at));
  });

  const answerStored = (stored: Record<string, unknown> | undefined): R => {
    // Results stored before fingerprintOf hold the SHA-256 of the content's JSON.stringify.
    if (stored && sameRequest(stored.request, content, () => sha256Url(JSON.stringify(content)))) return stored.response as R;
    throw rankingError('ranking.result_reused', `result_id: ${resultId} was reported already with other content`);
  };

  let failed: FailedCondition[];
  try {
    failed = await transactOrFailures(deps, items, 'scores: changed concurrently; retry');
  } catch (error) {
    // Submissions of one result racing each other cancel each other on the result record until one is written
    // (DynamoDB's TransactionConflict); a submission that ran out of attempts answers what that one stored.
    if (resultId === undefined || !(error instanceof ConcurrentChange)) throw error;
    const stored = await findResult(deps, game, resultId);
    if (!stored) throw error;
    return answerStored(stored);
  }
  if (failed.length > 0) {
    // Only the result record has a condition: the result id was counted before.
    return answerStored(failed[0]!.item);
  }
  await recordOpenSeasons(deps, game, seasons, at);
  return response;
}

async function findResult(deps: PlatformDeps, game: string, resultId: string) {
  const out = await deps.db.send(new GetCommand({ TableName: deps.table, Key: resultKey(game, resultId), ConsistentRead: true }));
  return out.Item;
}

function scoreUpdate(deps: PlatformDeps, game: string, season: Season, shards: number, player: PlayerPoints, at: string): TransactItem {
  const shard = shardOf(player.id, shards);
  const names: Record<string, string> = {
    '#game': 'game_code',
    '#type': 'season_type',
    '#range': 'season_range',
    '#id': 'game_player_id',
    '#name': 'game_player_name',
    '#updated': 'updatedAt',
  };
  const values: Record<string, unknown> = { ':game': game, ':type': season.type, ':range': season.range, ':id': player.id, ':name': player.name, ':at': at };
  const sets = ['#game = :game', '#type = :type', '#range = :range', '#id = :id', '#name = :name', '#updated = :at'];
  const adds: string[] = [];
  if (player.wallet !== undefined) {
    names['#wallet'] = 'wallet_address';
    values[':wallet'] = player.wallet;
    sets.push('#wallet = :wallet');
  }
  // Only a metric that grows joins its board and moves its "reached at" time (sparse boards, see above).
  if (player.kills > 0) {
    values[':killsBoard'] = boardPartition('kills', game, season, shard, shards);
    values[':kills'] = player.kills;
    sets.push('gsi4pk = :killsBoard', 'killsAt = :at');
    adds.push('gsi4sk :kills');
  }
  if (player.wins > 0) {
    values[':winsBoard'] = boardPartition('wins', game, season, shard, shards);
    values[':wins'] = player.wins;
    sets.push('gsi5pk = :winsBoard', 'winsAt = :at');
    adds.push('gsi5sk :wins');
  }
  return {
    Update: {
      TableName: deps.table,
      Key: scoreKey(game, season, player.id, shards),
      UpdateExpression: `SET ${sets.join(', ')}${adds.length > 0 ? ` ADD ${adds.join(', ')}` : ''}`,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    },
  };
}
