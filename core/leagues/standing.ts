import type { PlatformDeps } from '../platform/deps.js';
import { readItems, type Item } from '../platform/batch.js';
import { queryItems } from '../platform/query.js';
import { type ScoreItem, toScoreItem } from '../rankings/items.js';
import { scoreKey } from '../rankings/keys.js';
import { compareStandings } from '../rankings/order.js';
import { standingOf } from '../rankings/season-scores.js';
import { seasonShards } from '../rankings/shards.js';
import { DEFAULT_COIN_TYPE } from '../rewards/claims.js';
import type { RewardsDeps } from '../rewards/deps.js';
import { leagueError } from './errors.js';
import { COHORT_INDEX, tierKey } from './keys.js';
import type { LeagueStanding } from './models.js';
import { currentLeague, rewardRows, type StoredRules } from './rules.js';
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
  const league = await currentLeague(deps, game);
  if (!league) throw leagueError('league.not_running', `game_code: ${game} runs no league this season`);
  const { season, rules } = league;
  const shards = await seasonShards(deps, game, season);
  const [own, stored] = await readItems(deps, [scoreKey(game, season, playerId, shards), tierKey(playerId, game)], { consistent: true });
  const cohort = typeof own?.cohort === 'string' ? own.cohort : undefined;
  const tier = typeof own?.tier === 'number' ? own.tier : tierIn(rules, season, stored);
  const rule = rules.tiers[tier - 1] ?? rules.tiers[0]!;
  const players = cohort ? await cohortPlayers(deps, cohort, own!) : [];
  const ranked = cohortOrder(rules.board, players);
  const at = ranked.findIndex((player) => player.game_player_id === playerId);
  const totalOf = (player: ScoreItem) => String(standingOf(rules.board, player).score);
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
    total: at >= 0 ? totalOf(ranked[at]!) : '0',
    players: ranked.map((player, i) => ({
      rank: i + 1,
      game_player_id: player.game_player_id,
      game_player_name: player.game_player_name,
      total: totalOf(player),
    })),
    promote: rule.promote,
    demote: rule.demote,
    rewards: rewardRows(rule.rewards),
    coin_type: deps.claims?.coinType ?? DEFAULT_COIN_TYPE,
  };
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
