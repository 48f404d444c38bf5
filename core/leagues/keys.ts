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
 *   the last settlement the player took part in wrote it).
 */
const leaguePartition = (game: string) => `LEAGUE#${game}`;
export const RULES_PREFIX = 'RULES#';
export const rulesKey = (game: string, from: Date) => ({ pk: leaguePartition(game), sk: `${RULES_PREFIX}${from.toISOString()}` });
export const rulesPartition = leaguePartition;
export const arrivalsKey = (game: string, season: Season, tier: number) => ({ pk: leaguePartition(game), sk: `ARRIVALS#${seasonKey(season)}#${tier}` });
export const COHORT_INDEX = 'gsi3';
export const cohortPartition = (game: string, season: Season, tier: number, cohort: number) => `COHORT#${game}#${seasonKey(season)}#${tier}#${cohort}`;
export const TIER_PREFIX = 'LEAGUE#';
export const tierKey = (playerId: string, game: string) => ({ pk: userPartition(playerId), sk: `${TIER_PREFIX}${game}` });
