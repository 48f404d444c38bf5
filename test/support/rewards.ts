import { addWin } from '../../core/rankings/reports.js';
import { AddWinBody } from '../../core/rankings/models.js';
import { weekOf, monthOf, type Season } from '../../core/rankings/seasons.js';
import { updateGame } from '../../core/games/games.js';
import { GameUpdate } from '../../core/games/models.js';
import { setRewardTable } from '../../core/rewards/table.js';
import { RewardTableSave } from '../../core/rewards/models.js';
import type { Deps } from '../../core/deps.js';
import { queryItems } from '../../core/platform/query.js';
import type { TestDeps } from './deps.js';
import { gameWithServer } from './rankings.js';
import { randomAddress } from './sui-node.js';

/**
 * Fixtures of the rewards tests: scores put into PAST seasons through the real addWin (the clock of the deps is
 * moved into the season for the call), reward tables, and test-only reads of what settlement wrote.
 */

/** A past week and month (UTC): Monday 2 March 2026 to Sunday 8 March, and March 2026. */
export const PAST = new Date('2026-03-04T12:00:00.000Z');
export const pastWeek = (): Season => weekOf(PAST);
export const pastMonth = (): Season => monthOf(PAST);

export interface Points {
  id: string;
  kills?: number;
  wins?: number;
  name?: string;
  wallet?: string;
}

/** A game of an active merchant, with the merchant's claims (for the domain calls) and server token. */
export async function rewardGame(deps: TestDeps, rewards?: { rank: number; amount: number }[], board: 'wins' | 'kills' = 'wins') {
  const game = await gameWithServer(deps);
  if (rewards) await setRewardTable(deps, RewardTableSave.parse({ game_code: game.code, board, rewards }));
  return game;
}

/**
 * A rewardGame whose merchant registered the game's on-chain object (`object_id`, the object a claim names and
 * its verifier is); `objectId: null` leaves it unset (sign_code refuses such a game's claims).
 */
export async function claimableGame(deps: TestDeps, rewards: { rank: number; amount: number }[], objectId: string | null = randomAddress()) {
  const game = await rewardGame(deps, rewards);
  if (objectId !== null) await setGameObject(deps, game, objectId);
  return { ...game, objectId };
}

/** What the merchant's update_single_game does: sets (or with '' clears) the game's object_id. */
export async function setGameObject(deps: Deps, game: { code: string; owner: { claims: Parameters<typeof updateGame>[1] } }, objectId: string) {
  await updateGame(deps, game.owner.claims, GameUpdate.parse({ code: game.code, object_id: objectId }));
}

/**
 * addWin at instant `at` (the deps' clock moved there for the call): the points go into the week and month of
 * `at`, and `at` is when the player reached the new score. Calls must not overlap (one clock).
 */
export async function addWinAt(deps: TestDeps, game: Awaited<ReturnType<typeof rewardGame>>, at: Date, points: Points) {
  deps.setNow(at);
  try {
    await addWin(
      deps,
      AddWinBody.parse({
        game_code: game.code,
        game_player_id: points.id,
        game_player_name: points.name ?? `name of ${points.id}`,
        ...(points.wallet ? { wallet_address: points.wallet } : {}),
        kills: points.kills ?? 0,
        wins: points.wins ?? 0,
      }),
    );
  } finally {
    deps.setNow(undefined);
  }
}

/** Each player's points in the past week, one second apart in the given order (earlier in the list = reached first). */
export async function scoresInPastWeek(deps: TestDeps, game: Awaited<ReturnType<typeof rewardGame>>, players: Points[], from = PAST) {
  for (const [i, points] of players.entries()) await addWinAt(deps, game, new Date(from.getTime() + i * 1000), points);
}

/** The "to settle" items (pk SEASONS) still in the table. */
export const openSeasons = (deps: Deps) =>
  queryItems(deps, { KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': 'SEASONS' }, ConsistentRead: true });
