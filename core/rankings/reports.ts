import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { readItems } from '../platform/batch.js';
import { sha256Url } from '../platform/digest.js';
import { fingerprintOf, sameRequest } from '../platform/idempotency.js';
import { answerKept, keptAnswer } from '../platform/kept-answers.js';
import type { PlatformDeps } from '../platform/deps.js';
import { platformError } from '../platform/errors.js';
import { goneKey, playerItemsKeys } from '../platform/players.js';
import { rankingError } from './errors.js';
import { ConcurrentChange, transactOrFailures, type FailedCondition, type TransactItem } from '../platform/transactions.js';
import { resultKey, scoreKey } from './keys.js';
import { recordOpenSeasons } from './open-seasons.js';
import { refuseWhileResharding, seasonShards } from './shards.js';
import { type AddWinResult, type ScoreResult, StoredResult, type AddWinBody, type ScoreReport } from './models.js';
import { monthOf, weekOf, type Season } from './seasons.js';

/**
 * addWin and submitgamescore (docs/api.md, "Rankings: reports and boards"): a game server of the game's merchant adds
 * kills and wins of players to the current week and month of the game. Each report is ONE TransactWriteItems:
 * - per player and season, an Update of the score item (keys.ts) that ADDs the points to `kills` and `wins` and
 *   stamps `killsAt`/`winsAt` when that score grows (ties: earlier first). No index orders the score items: each
 *   index entry a report moved would cost two more writes per board (docs/performance.md "What a report
 *   costs"); the ranks are kept from the table's stream instead (rank-stream.ts);
 * - with a result id, a Put of the result record on condition it is absent, so a resubmission adds nothing.
 * A player who deleted their account is not written (addWin refuses, submitgamescore skips them; record() below):
 * their gone marks (core/platform/players.ts) are read fresh just before, in the authorization layer's batch.
 * Nothing in it is shared by reports of other players: the score items are the players', the result record the
 * report's. The score items and board entries of a season are spread over its shards (shards.ts), so the
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
 * A score of 0 is no standing: a player is on the kills board once they have kills, on the wins board once they
 * have wins. Item attributes: game_code, season_type, season_range, game_player_id, game_player_name,
 * wallet_address (when ever given), kills/killsAt and wins/winsAt (once positive), updatedAt, and gsi6pk/gsi6sk
 * (the player's items no key leads to: a score item is keyed by the game's season). addWin's result record
 * carries gsi6 too (its answer names the player); submitgamescore's holds counts only.
 */

/** One player's points in a report (lines of one player summed). */
export interface PlayerPoints {
  id: string;
  name: string;
  wallet?: string;
  kills: number;
  wins: number;
}

/** How long a result id is remembered (TTL): a resubmission within this time is counted once. */
export const RESULT_TTL_DAYS = 400;

const seasonRefs = (seasons: Season[]) => seasons.map((s) => ({ season_type: s.type, season_range: s.range }));

/**
 * addWin: one player's kills and wins into the current week and month; once per `result_id` when given. A player
 * who deleted their account is 404 and nothing is written, the result record neither.
 */
export async function addWin(deps: PlatformDeps, input: AddWinBody): Promise<AddWinResult> {
  const player: PlayerPoints = { id: input.game_player_id, name: input.game_player_name, wallet: input.wallet_address, kills: input.kills, wins: input.wins };
  return record(deps, {
    game: input.game_code,
    players: [player],
    resultId: input.result_id,
    content: { op: 'addWin', ...input },
    answer: (seasons) => ({
      game_code: input.game_code,
      game_player_id: input.game_player_id,
      kills: input.kills,
      wins: input.wins,
      ...(input.result_id !== undefined ? { result_id: input.result_id } : {}),
      seasons: seasonRefs(seasons),
    }),
    refuseGone: () => platformError('player.deleted', 'game_player_id: this player deleted their account'),
    // Its answer names the player.
    resultPlayer: input.game_player_id,
  });
}

/**
 * submitgamescore: a match's scores into the current week and month, once per `result_id`. Lines of the same
 * player are added together (one transaction may not touch an item twice); the last non-empty name and the
 * last wallet given are kept. The same result id with the same content answers the first answer; with other
 * content it is 409. Players who deleted their account are skipped: their lines write nothing, and `players`
 * counts the players recorded. The result record is stored even when no player is left (it names none), so a
 * retry answers the same.
 */
export async function submitScores(deps: PlatformDeps, input: ScoreReport): Promise<ScoreResult> {
  const players = reportPlayers(input.scores);
  return record(deps, {
    game: input.game_code,
    players,
    resultId: input.result_id,
    content: { op: 'submitgamescore', game: input.game_code, players },
    answer: (seasons, recorded) => ({
      game_code: input.game_code,
      result_id: input.result_id,
      players: recorded.length,
      seasons: seasonRefs(seasons),
    }),
  });
}

/**
 * A report's players: lines of one player added together (one transaction may not touch an item twice), the last
 * non-empty name and the last wallet given kept; ordered by id, so that the content is the players' points
 * whatever the order of the lines.
 */
function reportPlayers(lines: ScoreReport['scores']): PlayerPoints[] {
  const byId = new Map<string, PlayerPoints>();
  for (const line of lines) {
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
  return [...byId.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** A report as record() writes it. */
interface Report<R> {
  game: string;
  players: PlayerPoints[];
  resultId: string | undefined;
  /** The request as reported (its fingerprint is kept on the result record). */
  content: unknown;
  /** The answer, from the seasons and the players recorded. */
  answer: (seasons: Season[], recorded: readonly PlayerPoints[]) => R;
  /** When given, a report naming a player who deleted their account is refused with this error, not written without them. */
  refuseGone?: () => Error;
  /** The player the stored result names, if any: the result record then joins that player's items. */
  resultPlayer?: string;
}

/**
 * Writes one report in one transaction (see the top of the file), retried (transactOrFailures: bounded, jittered) while
 * it collides with concurrent transactions on the same items: DynamoDB then cancels it with
 * `TransactionConflict` and nothing was written, so running it again cannot count twice. The result record's
 * condition is the only one: when it fails, the stored record says whether this is the same report (answer what
 * it answered) or another one (409).
 *
 * The players' gone marks are read just before, strongly consistent (`reportReads`: in the authorization layer's
 * batch, no request of their own), not checked inside the transaction: a check there is an item a player billed as
 * a write (2 write units of a report's 6 for one player, 6 of a 3-player match's 20). A deletion that starts
 * between that read and the transaction's commit, a few milliseconds, lets the report write the player's scores;
 * the deletion's last sweep deletes them (core/privacy/deletion.ts), as it deletes whatever else lands after its
 * last round (docs/security.md "Deleting a player's account").
 */
async function record<R>(deps: PlatformDeps, report: Report<R>): Promise<R> {
  const { game, resultId, content } = report;
  const now = deps.now();
  const at = now.toISOString();
  const seasons = [weekOf(now), monthOf(now)];
  const request = fingerprintOf(content);
  // Each season's shard count (shards.ts): read once a minute per process, not per report; none while it changes.
  await refuseWhileResharding(deps, game, seasons);
  const shards = await Promise.all(seasons.map((season) => seasonShards(deps, game, season)));

  const answerStored = (item: Record<string, unknown> | undefined): R => {
    const stored = item && StoredResult.parse(item);
    // Results stored before fingerprintOf hold the SHA-256 of the content's JSON.stringify.
    if (stored && sameRequest(stored.request, content, () => sha256Url(JSON.stringify(content)))) return answerKept(stored, 'response') as R;
    throw rankingError('ranking.result_reused', `result_id: ${resultId} was reported already with other content`);
  };

  const marks = await readItems(deps, goneKeysOf(report.players));
  const players = report.players.filter((_, i) => marks[i] === undefined);
  if (report.refuseGone && players.length < report.players.length) {
    // The result was counted before the player deleted their account: its first answer stands.
    const stored = resultId === undefined ? undefined : await findResult(deps, game, resultId);
    if (stored) return answerStored(stored);
    throw report.refuseGone();
  }
  const response = report.answer(seasons, players);
  const items: TransactItem[] = [];
  if (resultId !== undefined) items.push(resultPut(deps, game, resultId, request, response, now, report.resultPlayer));
  seasons.forEach((season, i) => {
    for (const player of players) items.push(scoreUpdate(deps, game, season, shards[i]!, player, at));
  });
  if (items.length === 0) return response;

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
  if (failed.length === 0) {
    if (players.length > 0) await recordOpenSeasons(deps, game, seasons, at);
    return response;
  }
  // The result id was counted before: its first answer stands, whoever was deleted since.
  const result = resultId === undefined ? undefined : failed.find((failure) => failure.index === 0);
  if (!result || failed.length > 1) throw new Error('scores: a condition the report does not set failed');
  return answerStored(result.item);
}

/** The gone marks of a report's players, in their order (core/platform/players.ts). */
const goneKeysOf = (players: readonly Pick<PlayerPoints, 'id'>[]) => players.map((player) => goneKey(player.id));

/**
 * What a report reads first (core/http/operation.ts FirstReads): its players' gone marks, as record() reads them.
 * Declared beside the handlers, so that the authorization layer reads them in its own fresh batch.
 */
export const reportReads = {
  addWin: (body: Pick<AddWinBody, 'game_player_id'>) => goneKeysOf([{ id: body.game_player_id }]),
  submitgamescore: (body: Pick<ScoreReport, 'scores'>) => goneKeysOf(reportPlayers(body.scores)),
};

/** The result record, put on condition it is absent; `player`: the player its answer names (addWin's). */
function resultPut(deps: PlatformDeps, game: string, resultId: string, request: string, response: unknown, now: Date, player?: string): TransactItem {
  return {
    Put: {
      TableName: deps.table,
      Item: {
        ...resultKey(game, resultId),
        ...(player === undefined ? {} : playerItemsKeys(player, 'RESULT')),
        game_code: game,
        result_id: resultId,
        request,
        ...keptAnswer(response, 'response'),
        createdAt: now.toISOString(),
        expiresAt: Math.floor(now.getTime() / 1000) + RESULT_TTL_DAYS * 86_400,
      },
      ConditionExpression: 'attribute_not_exists(pk)',
      // A resubmission is answered from the stored result the cancellation carries: no second read.
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    },
  };
}

async function findResult(deps: PlatformDeps, game: string, resultId: string) {
  const out = await deps.db.send(new GetCommand({ TableName: deps.table, Key: resultKey(game, resultId), ConsistentRead: true }));
  return out.Item;
}

function scoreUpdate(deps: PlatformDeps, game: string, season: Season, shards: number, player: PlayerPoints, at: string): TransactItem {
  const names: Record<string, string> = {
    '#game': 'game_code',
    '#type': 'season_type',
    '#range': 'season_range',
    '#id': 'game_player_id',
    '#name': 'game_player_name',
    '#updated': 'updatedAt',
  };
  // The player's items no key leads to (core/platform/players.ts): the same two values on every report, so only
  // the item's first write puts an entry in that keys-only index, and later reports write nothing to it.
  const { gsi6pk, gsi6sk } = playerItemsKeys(player.id, 'SCORE');
  const values: Record<string, unknown> = {
    ':game': game,
    ':type': season.type,
    ':range': season.range,
    ':id': player.id,
    ':name': player.name,
    ':at': at,
    ':playerItems': gsi6pk,
    ':kind': gsi6sk,
  };
  const sets = ['#game = :game', '#type = :type', '#range = :range', '#id = :id', '#name = :name', '#updated = :at', 'gsi6pk = :playerItems', 'gsi6sk = :kind'];
  const adds: string[] = [];
  if (player.wallet !== undefined) {
    names['#wallet'] = 'wallet_address';
    values[':wallet'] = player.wallet;
    sets.push('#wallet = :wallet');
  }
  // Only a score that grows moves its "reached at" time.
  if (player.kills > 0) {
    values[':kills'] = player.kills;
    sets.push('killsAt = :at');
    adds.push('kills :kills');
  }
  if (player.wins > 0) {
    values[':wins'] = player.wins;
    sets.push('winsAt = :at');
    adds.push('wins :wins');
  }
  return {
    Update: {
      TableName: deps.table,
      Key: scoreKey(game, season, player.id, shards),
      // An item written when scores were index sort keys leaves those indexes at its next report (keys.ts):
      // removing attributes an item does not have writes nothing.
      UpdateExpression: `SET ${sets.join(', ')}${adds.length > 0 ? ` ADD ${adds.join(', ')}` : ''} REMOVE gsi4pk, gsi5pk`,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    },
  };
}
