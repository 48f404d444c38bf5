import { toAccountRecord } from '../identity/accounts.js';
import { userKey } from '../identity/keys.js';
import { readItems } from '../platform/batch.js';
import { nextIds } from '../platform/counters.js';
import type { PlatformDeps } from '../platform/deps.js';
import type { TransactItem } from '../platform/transactions.js';
import type { Season } from '../rankings/seasons.js';
import { historyEntryKey, historyIndexKeys } from './keys.js';
import { HistoryStatus, type HistoryEntry } from './models.js';

/**
 * History entries of a settled ranking: a season's board (settlement.ts) or a league's cohort (core/leagues). An
 * entry pays its reward through a claim (claims.ts), whichever ranking made it.
 */

/** A history entry as stored: the contract's fields, with the reward a DynamoDB number of any size (amounts.ts). */
export type StoredHistoryEntry = Omit<HistoryEntry, 'reward_amount' | 'reward_amount_base'> & { reward_amount: bigint };

/** A player's place in a settled ranking and what it pays. */
export interface Placing {
  playerId: string;
  rank: number;
  score: number;
  /** The name on the board (kept on the entry's item, not part of the contract's entry). */
  name: string;
  /** The wallet the reports gave, if any. */
  wallet?: string;
  amount: bigint;
}

/**
 * The placings' entries, with ids from one counter block (unique, not dense: a settlement that loses its race
 * wastes its block) and each wallet the reports gave, else the player's account's, else none.
 */
export async function historyEntriesOf(
  deps: Pick<PlatformDeps, 'db' | 'table'>,
  game: string,
  season: Season,
  placings: readonly Placing[],
  now: string,
): Promise<{ entry: StoredHistoryEntry; name: string }[]> {
  const wallets = await accountWallets(
    deps,
    placings.filter((placing) => !placing.wallet).map((placing) => placing.playerId),
  );
  const ids = await nextIds(deps, 'history_rank', placings.length);
  return placings.map((placing, i) => ({
    entry: {
      id: ids[i]!,
      season_type: season.type,
      create_time: now,
      season_range: season.range,
      game_code: game,
      platform_player_id: placing.playerId,
      wallet_address: placing.wallet ?? wallets.get(placing.playerId) ?? '',
      rank: placing.rank,
      achievement: placing.score,
      reward_amount: placing.amount,
      status: HistoryStatus.unclaimed,
    },
    name: placing.name,
  }));
}

/**
 * An entry's Put, on condition its id is new. `listing` replaces the season's ranking (gsi2, what history rank reads)
 * for a ranking of its own, such as a league's cohort, whose ranks would otherwise mix with the season's.
 */
export function historyEntryPut(table: string, { entry, name }: { entry: StoredHistoryEntry; name: string }, season: Season, listing?: string): TransactItem {
  const index = historyIndexKeys(entry, season);
  return {
    Put: {
      TableName: table,
      Item: {
        ...historyEntryKey(entry.id),
        ...index,
        ...(listing === undefined ? {} : { gsi2pk: listing }),
        type: 'history_rank',
        ...entry,
        game_player_name: name,
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  };
}

/** The wallet addresses of players that are platform users with an account (USER#<uid>), 100 per BatchGetItem. */
async function accountWallets(deps: Pick<PlatformDeps, 'db' | 'table'>, playerIds: string[]): Promise<Map<string, string>> {
  const wallets = new Map<string, string>();
  for (const item of await readItems(deps, playerIds.map(userKey))) {
    const account = item && toAccountRecord(item);
    if (account && account.wallet_address !== '') wallets.set(account.uid, account.wallet_address);
  }
  return wallets;
}
