import type { Handlers, RouteGroup } from '../../core/http/operation.js';
import { leagueRulesOf, setLeagueRules } from '../../core/leagues/rules.js';
import { leagueStanding } from '../../core/leagues/standing.js';
import type { leagueOps } from '../routes/leagues.js';

/** League operations of the boards group, spread into its handlers. Routes only translate HTTP to core/leagues. */
export const leagueHandlers: Handlers<RouteGroup<typeof leagueOps>> = {
  league_set: ({ deps, body }) => setLeagueRules(deps, body),
  league_get: ({ deps, query }) => leagueRulesOf(deps, query.game_code),
  league_standing: ({ deps, query }) => leagueStanding(deps, query.game_code, query.game_player_id),
};
