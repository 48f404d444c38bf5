import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod/mini';
import type { PlatformDeps } from '../platform/deps.js';
import { platformError } from '../platform/errors.js';
import { logError } from '../platform/log.js';
import { retrying } from '../platform/retry.js';
import { isWriteConflict } from '../platform/transactions.js';
import { openSeasonKey } from './keys.js';
import { openSeasonOnce } from './known.js';
import type { Season } from './seasons.js';

/**
 * "seasons to settle" (keys.ts openSeasonKey): what settlement finds and closes. A score report writes its two
 * seasons' records after its transaction, not in it (reports.ts): every report of a game would include them, and
 * DynamoDB cancels a transaction that includes an item another transaction in flight includes.
 */

/** "seasons to settle" (keys.ts openSeasonKey) as stored, as the snapshot job reads it: the game and season it names. */
export const StoredOpenSeason = z.object({ game_code: z.string(), season_type: z.number(), season_range: z.string() });

/** The seasons' "to settle" records, once per process and season (known.ts); a failure is logged, the report has counted. */
export async function recordOpenSeasons(deps: PlatformDeps, game: string, seasons: Season[], at: string) {
  try {
    await Promise.all(seasons.map((season) => openSeasonOnce(deps, openSeasonKey(game, season).sk, () => writeOpenSeason(deps, game, season, at))));
  } catch (error) {
    await logError('scores: a season to settle was not recorded; the next report of the season records it', {
      game,
      error: error instanceof Error ? error.message : String(error),
    });
  }
}

/**
 * The season's "to settle" record, set if absent and left as it is otherwise (`openedAt` keeps the first
 * time). A lone UpdateItem conflicts only with a transaction in flight on the same record, which is
 * settlement's deleting it; that happens only to an ended season, so a late report of one retries briefly.
 */
async function writeOpenSeason(deps: PlatformDeps, game: string, season: Season, at: string): Promise<void> {
  await retrying(() => deps.db.send(new UpdateCommand(openSeasonUpdate(deps, game, season, at))), {
    retryOn: isWriteConflict,
    giveUp: () => {
      throw platformError('data.changed_concurrently', 'scores: changed concurrently; retry');
    },
  });
}

function openSeasonUpdate(deps: PlatformDeps, game: string, season: Season, at: string) {
  return {
    TableName: deps.table,
    Key: openSeasonKey(game, season),
    UpdateExpression: 'SET #game = :game, #type = :type, #range = :range, #start = :start, #end = :end, #opened = if_not_exists(#opened, :at)',
    ExpressionAttributeNames: {
      '#game': 'game_code',
      '#type': 'season_type',
      '#range': 'season_range',
      '#start': 'start',
      '#end': 'end',
      '#opened': 'openedAt',
    },
    ExpressionAttributeValues: {
      ':game': game,
      ':type': season.type,
      ':range': season.range,
      ':start': season.start.toISOString(),
      ':end': season.end.toISOString(),
      ':at': at,
    },
  };
}
