import { userPartition } from '../identity/keys.js';
import { type Season, seasonKey } from '../rankings/seasons.js';

/**
 * League keys (docs/data-model.md "Leagues"):
 * - "a game's league rules from a season on": pk `LEAGUE#<game>`, sk `RULES#<first instant of the first season they
 *   apply to, ISO>`; the rules of a season are the latest whose sort key is at most the season's start;
 * - "the arrivals of a tier in a season": pk `LEAGUE#<game>`, sk `ARRIVALS#<season key>#<tier>` (`arrived`, a
 *   counter): placement takes a range of it for the players it places, and a player's number says their cohort;
 * - "a cohort's players": gsi3pk `COHORT#<game>#<season key>#<tier>#<cohort>` on the players' score items
 *   (core/rankings/keys.ts scoreKey), gsi3sk the player's id;
 * - "a player's tier in a game's league": pk `USER#<player id>`, sk `LEAGUE#<game>` (the tier from a season on, as
 *   the last settlement the player took part in wrote it);
 * - "a cohort settled": pk `LEAGUE#<game>`, sk `SETTLED#<season key>#<tier>#<cohort>`, put once, with the cohort's
 *   reward entries; "a cohort's rewards, by rank": gsi2pk `LEAGUEHISTORY#<game>#<season key>#<tier>#<cohort>` on
 *   its history entries (in place of the season's ranking, whose ranks they would mix with);
 * - "league seasons to settle": pk `LEAGUE_SEASONS`, sk `<end ISO>#<game>#<season key>`, put by placement before
 *   it places a season's first players, deleted once every cohort of the season is settled.
 */
/** A game's league partition: its rules, arrivals and settled cohorts. */
export const LEAGUE_PREFIX = 'LEAGUE#';
const leaguePartition = (game: string) => `${LEAGUE_PREFIX}${game}`;
export const RULES_PREFIX = 'RULES#';
export const rulesKey = (game: string, from: Date) => ({ pk: leaguePartition(game), sk: `${RULES_PREFIX}${from.toISOString()}` });
export const rulesPartition = leaguePartition;
export const arrivalsKey = (game: string, season: Season, tier: number) => ({ pk: leaguePartition(game), sk: `${arrivalsPrefix(season)}${tier}` });
export const COHORT_INDEX = 'gsi3';
export const cohortPartition = (game: string, season: Season, tier: number, cohort: number) => `COHORT#${game}#${seasonKey(season)}#${tier}#${cohort}`;
export const TIER_PREFIX = 'LEAGUE#';
export const tierKey = (playerId: string, game: string) => ({ pk: userPartition(playerId), sk: `${TIER_PREFIX}${game}` });
export const ARRIVALS_PREFIX = 'ARRIVALS#';
export const arrivalsPrefix = (season: Season) => `${ARRIVALS_PREFIX}${seasonKey(season)}#`;
export const cohortSettledKey = (game: string, season: Season, tier: number, cohort: number) => ({
  pk: leaguePartition(game),
  sk: `${settledPrefix(season)}${tier}#${cohort}`,
});
export const SETTLED_PREFIX = 'SETTLED#';
export const settledPrefix = (season: Season) => `${SETTLED_PREFIX}${seasonKey(season)}#`;
export const cohortHistoryPartition = (game: string, season: Season, tier: number, cohort: number) =>
  `LEAGUEHISTORY#${game}#${seasonKey(season)}#${tier}#${cohort}`;
export const OPEN_LEAGUE_SEASONS = 'LEAGUE_SEASONS';
export const openLeagueSeasonKey = (game: string, season: Season) => ({
  pk: OPEN_LEAGUE_SEASONS,
  sk: `${season.end.toISOString()}#${game}#${seasonKey(season)}`,
});
