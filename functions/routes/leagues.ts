import { allow, consoleAuth, owns } from '../../core/http/auth.js';
import type { OperationSpec } from '../../core/http/operation.js';
import { LeagueQuery, LeagueRules, LeagueRulesSave, LeagueStanding, MAX_COHORT, MAX_TIERS, MIN_COHORT, StandingQuery } from '../../core/leagues/models.js';
import { batchRead, merchantToken } from './errors.js';

/**
 * Leagues in the boards group (docs/api.md "Leagues"): a studio's league rules (console operations of ours) and a
 * player's standing. The boards' stream consumer places players (core/leagues/placement.ts).
 */
export const leagueOps = {
  league_set: {
    name: 'league set',
    method: 'POST',
    path: '/merchant/games/league',
    tag: 'leagues',
    auth: consoleAuth([owns.game('body.game_code')]),
    summary: "Set the league of one of the caller's games (extra operation)",
    description:
      `\`tiers\` (1-${MAX_TIERS}, lowest first) each name a tier, how many of each cohort move up (\`promote\`, none from the top tier) and down (\`demote\`, none from the lowest) at a season's end, and what each rank of a cohort pays (\`rewards\`, ranks up to \`cohort_size\`, amounts positive integers up to 10^12 in base units of the stage's payout coin). ` +
      `\`cohort_size\` (${MIN_COHORT}-${MAX_COHORT}) is how many players compete in one cohort; \`idle_drop\` how many tiers a player with no score in a season drops; \`start_tier\` where a player's first season starts (1, the lowest, by default); \`board\` the board a cohort ranks on (\`wins\` by default, or \`kills\`); \`season_type\` 1 a week (default), 2 a month. ` +
      'A change applies from the next season of its kind: the current season keeps its rules, and a change waiting for the next season is replaced. Answers the rules now and next.',
    body: LeagueRulesSave,
    status: 200,
    envelope: 'merchant',
    response: LeagueRules,
    errors: {
      400: 'a field is missing or invalid: a tier name used twice, a rank paid twice or beyond the cohort size, promotion from the top tier or demotion from the lowest, more moving than a cohort holds, a start tier beyond the tiers',
      ...merchantToken,
      403: "the game is another merchant's",
      404: 'no game with that code',
    },
  },
  league_get: {
    name: 'league get',
    method: 'GET',
    path: '/merchant/games/league',
    tag: 'leagues',
    auth: consoleAuth([owns.game('query.game_code')], { whileSuspended: true }),
    summary: "The league of one of the caller's games (extra operation)",
    description: '`current` is null while the game runs no league this season, `next` while no change waits for a later season.',
    query: LeagueQuery,
    status: 200,
    envelope: 'merchant',
    response: LeagueRules,
    errors: { 400: 'game_code missing or malformed', ...merchantToken, 403: "the game is another merchant's", 404: 'no game with that code' },
  },
  league_standing: {
    name: 'league standing',
    method: 'GET',
    path: '/merchant/games/league/standing',
    tag: 'leagues',
    // The studio's console reads any player's standing of its games as its server does (the boards screen), and
    // still while suspended, as its other reads of its games.
    auth: allow(['platform', 'game', 'server', 'merchant'], [owns.game('query.game_code'), owns.self('query.game_player_id')], { whileSuspended: true }),
    summary: "A player's tier and cohort board in the game's current league season (extra operation)",
    description:
      "A player's own platform or game token asks for themselves (`game_player_id` is then their user id); a server or console (merchant) token of the game's merchant for any player of the game. " +
      "The player's first score of a season places them in a cohort of their tier, a moment after the report; until then `placed` is false and the board empty. " +
      "The board is the whole cohort, every player with their name, total on the league's board and rank; equal totals rank by who reached them first. The player's own rank is exact and their total current; the others' totals are at most a moment behind the reports. " +
      "`rewards` is what each rank of a cohort of the tier pays at the season's end; `promote` and `demote` how many of the cohort move up and down.",
    query: StandingQuery,
    status: 200,
    envelope: 'merchant',
    response: LeagueStanding,
    errors: {
      400: 'game_code or game_player_id missing or malformed',
      401: 'no token, or an invalid or expired platform, game, server or merchant token',
      403: "a player token naming another player, or the game is another merchant's (server or merchant token)",
      404: 'no game with that code, or the game runs no league this season',
      ...batchRead,
    },
    codes: ['league.not_running'],
  },
} as const satisfies Record<string, OperationSpec>;
