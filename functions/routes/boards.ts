import { allow, consoleAuth, open, owns } from '../../core/http/auth.js';
import { defineGroup } from '../../core/http/operation.js';
import { GameCodeQuery } from '../../core/identity/models.js';
import {
  AddWinBody,
  AddWinResult,
  BoardShards,
  BoardShardsSave,
  DEFAULT_SHARDS,
  GameRank,
  MAX_AROUND,
  MAX_BOARD,
  MAX_SHARDS,
  PlayerRank,
  RankAroundQuery,
  RankQuery,
} from '../../core/rankings/models.js';
import { CHANGE_DELAY_MS, KEPT_CHANGES, LAUNCH_DELAY_MS } from '../../core/rankings/shards.js';
import { leagueOps } from './leagues.js';
import { boardRewardOps } from './rewards.js';
import { addWinErrors, batchRead, merchantToken } from './errors.js';

/**
 * The boards group: a game's leaderboards and their seasons' rewards (score reports, the boards, a player's
 * rank, the boards' shards, reward tables, the history rank and claim signatures). Its own function, apart
 * from the consoles' inner group, so each loads only its own domains at a cold start (docs/performance.md).
 */
export const boardsRoutes = defineGroup('boards', 'main', {
  addWin: {
    name: 'addWin',
    method: 'POST',
    path: '/merchant/games/addWin',
    tag: 'boards and rewards',
    auth: allow(['server'], [owns.game('body.game_code')], { movesValue: true }),
    summary: "Add a player's kills and wins to the current week and month (server token of the game's merchant)",
    description:
      'Seasons are UTC: a week starts Monday 00:00, a month on the 1st. `kills` and `wins` are what to add (non-negative integers, at least one positive). ' +
      "`game_player_id` is the player's platform user id or the game's own id for the player; the latest `game_player_name` is the one shown (may be empty). " +
      'With `result_id` the report counts once: the same id again with the same content answers the first answer and adds nothing; with other content it is 409. ' +
      'A player reaching a score earlier ranks above players reaching it later. ' +
      'A player who deleted their account is 404 `player.deleted`, and nothing is recorded.',
    body: AddWinBody,
    status: 200,
    envelope: 'merchant',
    response: AddWinResult,
    errors: addWinErrors,
    codes: ['data.changed_concurrently', 'player.deleted', 'ranking.result_reused', 'ranking.shards_changing'],
  },
  gameRank: {
    name: 'gameRank',
    method: 'GET',
    path: '/merchant/games/rank',
    tag: 'boards and rewards',
    auth: open,
    summary: 'The four boards of the current week and month',
    description:
      `Kills and wins of the game's current week and month (UTC), highest first, top \`limit\` of each (default and most ${MAX_BOARD}). ` +
      '`total` is the score as text. Equal scores rank by who reached the score first. Players with 0 of a metric are not on its board.',
    query: RankQuery,
    status: 200,
    envelope: 'merchant',
    response: GameRank,
    errors: { 400: 'game_code missing or malformed, or limit out of range', 404: 'no game with that code' },
    codes: ['game.not_found'],
  },
  rank_around: {
    name: 'rank_around',
    method: 'GET',
    path: '/merchant/games/rank/around',
    tag: 'boards and rewards',
    auth: allow(['platform', 'game', 'server'], [owns.game('query.game_code'), owns.self('query.game_player_id')]),
    summary: "A player's rank on one board, with the players just above and below (extra operation)",
    description:
      '`board` is `kills` or `wins`; `season_type` 1 is the week, 2 the month; the current one unless `season_range` (YYYY-MM-DD-MM-DD of its first and last day) names another. ' +
      `\`around\` (0-${MAX_AROUND}, default 10) is how many players above and below to include. ` +
      "A player's own platform or game token asks for themselves (`game_player_id` is then their user id); a server token of the game's merchant for any player of the game. " +
      "The rank is exact and the player's total current; the other players are as of `as_of`, at most a few seconds behind the reports (docs/performance.md). " +
      'Equal totals rank by who reached them first. A player with no score on the board gets `ranked: false`, not an error. ' +
      '`scope=cohort` ranks the player within their league cohort of the game\'s current league season instead (`standings: "cohort"`): the season must be the league\'s (404 `league.not_running` otherwise), and a player not yet placed gets `ranked: false`.',
    query: RankAroundQuery,
    status: 200,
    envelope: 'merchant',
    response: PlayerRank,
    errors: {
      400: 'a parameter is missing or invalid (board, season_type, season_range, game_player_id, around)',
      401: 'no token, or an invalid or expired platform, game or server token',
      403: "a player token naming another player, or the game is another merchant's (server token)",
      404: 'no game with that code, or (scope=cohort) the game runs no league in that season',
      ...batchRead,
    },
    codes: ['season.range_invalid', 'league.not_running'],
  },
  board_shards_set: {
    name: 'board shards set',
    method: 'POST',
    path: '/merchant/games/boards',
    tag: 'boards and rewards',
    auth: consoleAuth([owns.game('body.game_code')]),
    summary: "Spread one of the caller's games' boards over more partitions (extra operation)",
    description:
      `\`shards\` (1-${MAX_SHARDS}, default ${DEFAULT_SHARDS}) is how many partitions each season's scores and boards of the game are spread over: one partition takes about 1,000 writes a second, so a game whose reports near that rate needs more (docs/performance.md). ` +
      `The change applies to the seasons that start ${CHANGE_DELAY_MS / 60_000} minutes after it or later; a season keeps the shards it started with, so no score moves and none is lost. ` +
      `A current week or month with no score yet (a game preparing its launch) takes the change too, ${LAUNCH_DELAY_MS / 1000} seconds after it, if it still has none then; meanwhile the game's reports answer 503 \`ranking.shards_changing\` with Retry-After. ` +
      'Each board read reads every shard: more shards, more reads. ' +
      `Answers the setting with its changes: each change that decides some season's shards, and the last ${KEPT_CHANGES} made (a change overtaken by a later one before any season started under it is dropped beyond those).`,
    body: BoardShardsSave,
    status: 200,
    envelope: 'merchant',
    response: BoardShards,
    errors: {
      400: 'game_code missing or malformed, or shards out of range',
      ...merchantToken,
      403: "the game is another merchant's",
      404: 'no game with that code',
      409: 'other changes of the setting kept landing while this one was written (five tries); nothing of it was written: send it again',
    },
    codes: ['game.not_found', 'data.changed_concurrently'],
  },
  board_shards_get: {
    name: 'board shards get',
    method: 'GET',
    path: '/merchant/games/boards',
    tag: 'boards and rewards',
    auth: consoleAuth([owns.game('query.game_code')], { whileSuspended: true }),
    summary: "How one of the caller's games' boards are spread (extra operation)",
    description:
      "The shards of seasons that start from now on, of the current week and month, and the changes kept (those that decide a season's shards, and the last ones made).",
    query: GameCodeQuery,
    status: 200,
    envelope: 'merchant',
    response: BoardShards,
    errors: { 400: 'game_code missing or malformed', ...merchantToken, 403: "the game is another merchant's", 404: 'no game with that code' },
  },
  ...boardRewardOps,
  ...leagueOps,
});
