import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { RewardsDeps } from './deps.js';
import * as z from 'zod/mini';
import { rewardTableKey } from './keys.js';
import { boardName, type RewardTable, type RewardTableSave } from './models.js';
import { jsonInteger, toBigInt } from '../shared/amounts.js';
import { DEFAULT_COIN_TYPE } from './claims.js';

/**
 * A game's reward table (set by its merchant): which board pays (`wins` by default, or `kills`) and the
 * amount of each rewarded rank, in base units of the coin the game's reward contract pays out. One item per
 * game (pk `REWARD_TABLE#<game>`); settlement reads it when a season closes, so a change applies to every
 * season not yet settled.
 */
/** "a game's reward table" (rewardTableKey) as stored: each amount a DynamoDB number, read back as a number or, past 2^53, a bigint (core/shared/amounts.ts). */
export const StoredRewardTable = z.object({
  board: boardName,
  rewards: z.array(z.object({ rank: z.int(), amount: z.union([z.number(), z.bigint()]) })),
  updated_at: z.string(),
});
export type StoredRewardTable = z.infer<typeof StoredRewardTable>;

/** Stored reward rows as the API shows them (a reward table's, a league tier's): the amount as an exact JSON integer and as decimal text. */
export const shownRows = (rows: StoredRewardTable['rewards']): RewardTable['rewards'] =>
  rows.map(({ rank, amount }) => ({ rank, amount: jsonInteger(amount), amount_base: toBigInt(amount).toString() }));

/** The coin the stage's claims pay (its claim settings'), in which every table's amounts are counted. */
export const payoutCoin = (deps: RewardsDeps) => deps.claims?.coinType ?? DEFAULT_COIN_TYPE;

/**
 * Sets the table of one of the caller's games, in one request. The authorization layer has checked the game is
 * the caller's (the route's policy; owners never change), so the write needs no condition on the game item.
 */
export async function setRewardTable(deps: RewardsDeps, input: RewardTableSave): Promise<RewardTable> {
  const rewards = input.rewards.map(({ rank, amount }) => ({ rank, amount: BigInt(amount) })).sort((a, b) => a.rank - b.rank);
  const updated_at = deps.now().toISOString();
  await deps.db.send(
    new PutCommand({
      TableName: deps.table,
      Item: { ...rewardTableKey(input.game_code), type: 'reward_table', game_code: input.game_code, board: input.board, rewards, updated_at },
    }),
  );
  return { game_code: input.game_code, board: input.board, rewards: shownRows(rewards), updated_at, coin_type: payoutCoin(deps) };
}

/** The table of one of the caller's games (checked by the authorization layer); an empty table while none is set. */
export async function rewardTableOf(deps: RewardsDeps, game: string): Promise<RewardTable> {
  const out = await deps.db.send(new GetCommand({ TableName: deps.table, Key: rewardTableKey(game), ConsistentRead: true }));
  const table = out.Item ? StoredRewardTable.parse(out.Item) : undefined;
  return table
    ? { game_code: game, board: table.board, rewards: shownRows(table.rewards), updated_at: table.updated_at, coin_type: payoutCoin(deps) }
    : { game_code: game, board: 'wins', rewards: [], updated_at: null, coin_type: payoutCoin(deps) };
}
