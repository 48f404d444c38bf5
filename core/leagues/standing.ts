import type { PlatformDeps } from '../platform/deps.js';
import { readItems, type Item } from '../platform/batch.js';
import { queryItems } from '../platform/query.js';
import { type ScoreItem, toScoreItem } from '../rankings/items.js';
import { scoreKey } from '../rankings/keys.js';
import { compareStandings } from '../rankings/order.js';
import { standingOf } from '../rankings/season-scores.js';
import { seasonShards } from '../rankings/shards.js';
import type { RewardsDeps } from '../rewards/deps.js';
import { payoutCoin, shownRows } from '../rewards/table.js';
import { leagueError } from './errors.js';
import { COHORT_INDEX, tierKey } from './keys.js';
import type { LeagueStanding } from './models.js';
import type { PlayerRank, RankAroundQuery, RankedEntry } from '../rankings/models.js';
import { currentLeague, type StoredRules } from './rules.js';
import { tierIn } from './tiers.js';

/** A cohort's players in its board's order: all of them, those with 0 on the league's board last. */
export function cohortOrder(board: StoredRules['board'], players: readonly ScoreItem[]): ScoreItem[] {
  return [...players].sort((a, b) => compareStandings(standingOf(board, a), standingOf(board, b)));
}

/**
 * A player's league standing in the current season (docs/api.md "Leagues"): their tier, and once their first score
 * placed them, their cohort's whole board. The player's own score item is read strongly consistent with their tier
 * (one BatchGetItem), so their rank is exact and their total current; the cohort's other players come from its
 * index (one Query, at most the cohort size), a moment behind the reports at most.
 */
export async function leagueStanding(deps: RewardsDeps, game: string, playerId: string): Promise<LeagueStanding> {
  const { season, rules, tier, cohort, players } = await playersCohort(deps, game, playerId);
  const rule = rules.tiers[tier - 1] ?? rules.tiers[0]!;
  const ranked = rankedOn(rules.board, players);
  const at = ranked.findIndex((player) => player.game_player_id === playerId);
  return {
    game_code: game,
    season_type: season.type,
    season_range: season.range,
    board: rules.board,
    game_player_id: playerId,
    tier,
    tier_name: rule.name,
    tiers: rules.tiers.length,
    placed: cohort !== undefined,
    cohort: cohort ?? null,
    rank: at >= 0 ? at + 1 : null,
    total: at >= 0 ? ranked[at]!.total : '0',
    players: ranked,
    promote: rule.promote,
    demote: rule.demote,
    rewards: shownRows(rule.rewards),
    coin_type: payoutCoin(deps),
  };
}

/** A cohort's players as its board on `board` shows them, in its order: rank, total, id and name. */
function rankedOn(board: StoredRules['board'], players: readonly ScoreItem[]): RankedEntry[] {
  return cohortOrder(board, players).map((player, i) => ({
    rank: i + 1,
    total: String(standingOf(board, player).score),
    game_player_id: player.game_player_id,
    game_player_name: player.game_player_name,
  }));
}

/**
 * rank_around within the player's cohort (`scope=cohort`): the player's rank among their cohort on `board` (the
 * league's or the other), with the players just above and below; the league's current season only.
 */
export async function cohortAround(deps: RewardsDeps, query: RankAroundQuery): Promise<PlayerRank> {
  const { season, cohort, players } = await playersCohort(deps, query.game_code, query.game_player_id);
  if (season.type !== query.season_type || (query.season_range !== undefined && query.season_range !== season.range)) {
    throw leagueError(
      'league.not_running',
      `season_type, season_range: game_code ${query.game_code} runs no league in that season (its league's is ${season.range})`,
    );
  }
  const board = query.board;
  // The board's own rule: a player is on it once they have a score on it.
  const ranked = rankedOn(board, players).filter((player) => player.total !== '0');
  const at = ranked.findIndex((player) => player.game_player_id === query.game_player_id);
  return {
    game_code: query.game_code,
    board,
    season_type: season.type,
    season_range: season.range,
    game_player_id: query.game_player_id,
    ranked: at >= 0,
    rank: at >= 0 ? at + 1 : null,
    total: at >= 0 ? ranked[at]!.total : '0',
    above: at >= 0 ? ranked.slice(Math.max(0, at - query.around), at) : [],
    below: at >= 0 ? ranked.slice(at + 1, at + 1 + query.around) : [],
    players: ranked.length,
    as_of: cohort ? deps.now().toISOString() : null,
    standings: 'cohort',
  };
}

/** The current league season, the player's tier and, once placed, their cohort's players (their own item current). */
async function playersCohort(deps: RewardsDeps, game: string, playerId: string) {
  const league = await currentLeague(deps, game);
  if (!league) throw leagueError('league.not_running', `game_code: ${game} runs no league this season`);
  const { season, rules } = league;
  const shards = await seasonShards(deps, game, season);
  const [own, stored] = await readItems(deps, [scoreKey(game, season, playerId, shards), tierKey(playerId, game)], { consistent: true });
  const cohort = typeof own?.cohort === 'string' ? own.cohort : undefined;
  const tier = typeof own?.tier === 'number' ? own.tier : tierIn(rules, season, stored);
  const players = cohort ? await cohortPlayers(deps, cohort, own!) : [];
  return { season, rules, tier, cohort, players };
}

/** The cohort's players from its index, the player's own item as just read in place of its index copy. */
async function cohortPlayers(deps: Pick<PlatformDeps, 'db' | 'table'>, cohort: string, own: Item): Promise<ScoreItem[]> {
  const listed = await queryItems(deps, {
    IndexName: COHORT_INDEX,
    KeyConditionExpression: `${COHORT_INDEX}pk = :cohort`,
    ExpressionAttributeValues: { ':cohort': cohort },
  });
  const mine = toScoreItem(own);
  return [mine, ...listed.map(toScoreItem).filter((player) => player.game_player_id !== mine.game_player_id)];
}
