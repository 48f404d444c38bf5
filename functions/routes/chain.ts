import { allow, owns } from '../../core/http/auth.js';
import { defineGroup } from '../../core/http/operation.js';
import { chainRewardOps } from './rewards.js';
import { MAX_REPORT_PLAYERS, ScoreReport, ScoreResult } from '../../core/rankings/models.js';
import { scoreReportErrors } from './errors.js';

/** The chain group: game results into the seasons, and the chain-facing reads. */
export const chainRoutes = defineGroup('chain', 'main', {
  submitgamescore: {
    name: 'submitgamescore',
    method: 'POST',
    path: '/chain/game/score',
    tag: 'boards and rewards',
    auth: allow(['server'], [owns.game('body.game_code')], { movesValue: true }),
    summary: "A game result into the current week and month (server token of the game's merchant)",
    description:
      `Adds each line's kills and wins to the player's score in the game's current week and month (UTC; weeks start Monday 00:00, months on the 1st). ` +
      `At most ${MAX_REPORT_PLAYERS} lines, so that the report is one atomic write; lines of the same player are added together. ` +
      '`result_id` makes the report count once: the same id again with the same content answers the first answer and adds nothing; with other content it is 409. ' +
      'A line of 0 kills and 0 wins records the player (name, wallet) without putting them on a board. ' +
      'Lines of players who deleted their account are skipped (nothing of them is recorded); `players` counts the players recorded.',
    body: ScoreReport,
    status: 200,
    envelope: 'data',
    response: ScoreResult,
    errors: scoreReportErrors,
    codes: ['data.changed_concurrently', 'ranking.result_reused', 'ranking.shards_changing'],
  },
  // Rewards: gameCode and rewrad_history.
  ...chainRewardOps,
});
