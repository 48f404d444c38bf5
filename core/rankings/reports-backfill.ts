import * as z from 'zod/mini';
import { indexBackfill } from '../platform/index-backfill.js';
import { answerTextOf, eitherForm } from '../platform/kept-answers.js';
import { playerItemsKeys } from '../platform/players.js';
import { objectOf } from '../shared/records.js';
import { RESULT_PREFIX, RESULT_SORT_KEY, SCORE_PLAYER_PREFIX, SCORE_PREFIX } from './keys.js';
import { AddWinResult, ScoreResult } from './models.js';
import { StoredScore } from './items.js';

/**
 * Score items and result records: the kinds of items written before an index that `npm run admin -- backfill-indexes` gives its keys
 * (core/platform/index-backfill.ts, listed in tools/admin/index-backfills.ts). A module of its own so that
 * no function serving requests bundles them.
 */

/**
 * Score items and addWin's result records written before the player's items index (gsi6) have no entry in it, so
 * a deletion would not find them (core/platform/index-backfill.ts): they get the keys scoreUpdate and resultPut
 * set. A score item of a past season is never reported again, so nothing else would set them.
 */
export const scoresBackfill = indexBackfill({
  kind: 'scores',
  match: { pkPrefix: SCORE_PREFIX, skPrefix: SCORE_PLAYER_PREFIX },
  source: z.pick(StoredScore, { game_player_id: true }),
  keys: (score) => playerItemsKeys(score.game_player_id, 'SCORE'),
});

/**
 * An addWin answer names its player; a submitgamescore answer names none, and its record gets no keys. The answer
 * is kept as JSON text since, as a map before (core/platform/kept-answers.ts).
 */
const Answered = z.union([z.pick(objectOf(AddWinResult), { game_player_id: true }), z.pick(objectOf(ScoreResult), { players: true })]);
export const resultsBackfill = indexBackfill({
  kind: 'results',
  match: { pkPrefix: RESULT_PREFIX, skPrefix: RESULT_SORT_KEY },
  source: z.object({ response: z.optional(Answered), response_json: z.optional(answerTextOf(Answered)) }).check(eitherForm('response')),
  keys: (result) => {
    const response = (result.response_json ?? result.response)!;
    return 'game_player_id' in response ? playerItemsKeys(response.game_player_id, 'RESULT') : undefined;
  },
});
