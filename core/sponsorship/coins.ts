import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod/mini';
import { conditionHeld } from '../platform/conditional-failure.js';
import type { PlatformDeps } from '../platform/deps.js';
import type { GasCoin, GasState } from './gas-reads.js';
import { coinKey } from './keys.js';

/**
 * The sponsor's gas coins, one per pending transaction. Two transactions that name the same coin at the same
 * version must never both be signed: validators would lock the coin for the rest of the epoch, and every claim
 * paid from it would stall. So a coin is reserved, by one conditional Put of its reservation item, for the one
 * transaction it is signed into, until either:
 * - the coin's version moves on: the transaction ran (a failed one still pays its gas, which writes the coin), or
 *   the coin paid for nothing else, since nothing else is signed with it; or
 * - its epoch ends: the transaction was built to expire with the epoch it was signed in, so it can no longer run.
 * Both are read from the chain (gas-reads.ts), so no clock decides; a reservation outlives neither.
 */

/**
 * A reservation as stored: the coin's version and the epoch of the transaction it is in, and for which entry. Only
 * the conditions of its Put and Delete read it.
 */
export const StoredReservation = z.object({ version: z.string(), epoch: z.number(), entry: z.number() });
type Reservation = Pick<z.infer<typeof StoredReservation>, 'version' | 'epoch'>;

/** Whether a reservation still holds the coin at `state`: same version, same epoch. */
export const stillPending = (reservation: Reservation, coin: GasCoin | undefined, state: Pick<GasState, 'epoch'>) =>
  coin !== undefined && coin.version === reservation.version && reservation.epoch >= Number(state.epoch);

/** Conditional Puts tried before answering that no coin is free: a coin taken by a racing signing costs one more. */
const TRIES = 6;

/**
 * Reserves a free coin of `state` able to pay `gas` for the entry; undefined when the tries found none. The coins
 * are tried in random order by the conditional Put alone, without reading the reservations first: a read of all
 * of them would cost a read unit per coin at every signing, where a refused Put costs one write unit, and only
 * when the coin was taken.
 */
export async function reserveCoin(deps: Pick<PlatformDeps, 'db' | 'table' | 'now'>, state: GasState, gas: bigint, entry: number): Promise<GasCoin | undefined> {
  const able = state.coins.filter((coin) => coin.balance >= gas);
  for (const coin of shuffled(able).slice(0, TRIES)) {
    const reserved = await conditionHeld(
      deps.db.send(
        new PutCommand({
          TableName: deps.table,
          Item: {
            ...coinKey(coin.objectId),
            type: 'gas_coin_reservation',
            version: coin.version,
            epoch: Number(state.epoch),
            entry,
            at: deps.now().toISOString(),
          },
          // Taken by no other signing: none, or one whose coin has moved on or whose epoch has ended.
          ConditionExpression: 'attribute_not_exists(pk) OR version <> :version OR epoch < :epoch',
          ExpressionAttributeValues: { ':version': coin.version, ':epoch': Number(state.epoch) },
        }),
      ),
    );
    if (reserved) return coin;
  }
  return undefined;
}

/** A copy of `items` in random order (Fisher-Yates), so that concurrent signings start on different coins. */
function shuffled<T>(items: readonly T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** Frees a coin reserved for a signing that did not complete. */
export async function releaseCoin(deps: Pick<PlatformDeps, 'db' | 'table'>, coin: GasCoin, entry: number) {
  await conditionHeld(
    deps.db.send(
      new DeleteCommand({
        TableName: deps.table,
        Key: coinKey(coin.objectId),
        ConditionExpression: 'entry = :entry AND version = :version',
        ExpressionAttributeValues: { ':entry': entry, ':version': coin.version },
      }),
    ),
  );
}
