import { BatchGetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { gameKey } from '../games/games.js';
import type { Deps } from '../platform/deps.js';
import { forbidden, notFound } from '../platform/errors.js';
import type { TokenClaims } from '../platform/tokens.js';
import type { Board } from '../rankings/keys.js';
import { rewardTableKey } from './keys.js';
import type { RewardTable, RewardTableSave } from './models.js';

/**
 * A game's reward table (set by its merchant): which board pays (`wins` by default, or `kills`) and the
 * amount of each rewarded rank, in base units of the coin the game's reward contract pays out. One item per
 * game (pk `REWARD_TABLE#<game>`); settlement reads it when a season closes, so a change applies to every
 * season not yet settled.
 */
export interface StoredRewardTable {
  board: Board;
  rewards: { rank: number; amount: number }[];
  updated_at: string;
}

/** Sets the table of one of the caller's games, in one request: the ownership check and the write are one transaction. */
export async function setRewardTable(deps: Deps, caller: TokenClaims, input: RewardTableSave): Promise<RewardTable> {
  const rewards = [...input.rewards].sort((a, b) => a.rank - b.rank);
  const updated_at = deps.now().toISOString();
  try {
    await deps.db.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            ConditionCheck: {
              TableName: deps.table,
              Key: gameKey(input.game_code),
              ConditionExpression: 'attribute_exists(pk) AND #owner = :me',
              ExpressionAttributeNames: { '#owner': 'accountId' },
              ExpressionAttributeValues: { ':me': caller.sub },
              ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
            },
          },
          {
            Put: {
              TableName: deps.table,
              Item: { ...rewardTableKey(input.game_code), type: 'reward_table', game_code: input.game_code, board: input.board, rewards, updated_at },
            },
          },
        ],
      }),
    );
  } catch (error) {
    // The cancellation carries the game as it was: present means another merchant's, absent means none.
    const reason = (error as { CancellationReasons?: { Code?: string; Item?: unknown }[] }).CancellationReasons?.[0];
    if (reason?.Code !== 'ConditionalCheckFailed') throw error;
    if (reason.Item) throw forbidden(`game_code: game ${input.game_code} belongs to another merchant`);
    throw notFound(`game_code: no game ${input.game_code}`);
  }
  return { game_code: input.game_code, board: input.board, rewards, updated_at };
}

/** The table of one of the caller's games (game and table read in one request); an empty table while none is set. */
export async function rewardTableOf(deps: Deps, caller: TokenClaims, game: string): Promise<RewardTable> {
  const out = await deps.db.send(new BatchGetCommand({ RequestItems: { [deps.table]: { Keys: [gameKey(game), rewardTableKey(game)], ConsistentRead: true } } }));
  let items = out.Responses?.[deps.table] ?? [];
  // Two small items never exceed BatchGetItem's limits; unprocessed keys (throttling) are read once more.
  const unprocessed = out.UnprocessedKeys?.[deps.table]?.Keys;
  if (unprocessed?.length) {
    const again = await deps.db.send(new BatchGetCommand({ RequestItems: { [deps.table]: { Keys: unprocessed, ConsistentRead: true } } }));
    items = [...items, ...(again.Responses?.[deps.table] ?? [])];
  }
  const gameItem = items.find((item) => item.sk === 'GAME');
  if (!gameItem) throw notFound(`game_code: no game ${game}`);
  if (gameItem.accountId !== caller.sub) throw forbidden(`game_code: game ${game} belongs to another merchant`);
  const table = items.find((item) => item.sk === rewardTableKey(game).sk) as StoredRewardTable | undefined;
  return table
    ? { game_code: game, board: table.board, rewards: table.rewards, updated_at: table.updated_at }
    : { game_code: game, board: 'wins', rewards: [], updated_at: null };
}
