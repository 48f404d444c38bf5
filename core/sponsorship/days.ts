import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod/mini';
import { conditionHeld } from '../platform/conditional-failure.js';
import type { PlatformDeps } from '../platform/deps.js';
import { gameDayKey, playerDayKey } from './keys.js';
import { sponsorError } from './errors.js';

/**
 * The daily limits of sponsored claims: per player and per game, a count of claims signed and the gas budgets they
 * reach together, each UTC day. A signing charges the player's day, then the game's, each one conditional UpdateItem
 * on its own item (a lone write: the game's day is shared by its players, so it is never inside a player's
 * transaction). A day over its limit refuses with 429 and Retry-After to the day's end, and a charge that a later
 * step undoes (the game's day refused, no gas coin free) is given back.
 */

export const dayOf = (now: Date) => now.toISOString().slice(0, 10);

const DAY_MS = 86_400_000;
/**
 * When a day item expires (expiresAt, seconds): a player's two days after its day (only today's is read), a game's
 * 35 days after (the stage screen shows the past month's days).
 */
const PLAYER_DAY_KEPT = 2;
const GAME_DAY_KEPT = 35;
const expiryOf = (now: Date, keptDays: number) => Math.floor((Math.floor(now.getTime() / DAY_MS) * DAY_MS + (keptDays + 1) * DAY_MS) / 1000);
const secondsToDayEnd = (now: Date) => Math.max(1, Math.ceil((Math.floor(now.getTime() / DAY_MS + 1) * DAY_MS - now.getTime()) / 1000));

export interface DayLimit {
  count: number;
  gas: bigint;
}

type Key = { pk: string; sk: string };

/** Gas in MIST as a DynamoDB number reads back: a bigint past 2^53. */
const storedGas = z.union([z.number(), z.bigint()]);
/**
 * A player's sponsored day as stored (charge): its claims and their gas budgets (both 0 again after every charge
 * was given back), until `expiresAt` (the table's TTL, epoch seconds).
 */
export const StoredPlayerDay = z.object({ claims: z.number(), gas: storedGas, expiresAt: z.number() });
/** A game's sponsored day as stored: as a player's, and the gas its claims seen on chain cost (spent.ts), once one is. */
export const StoredGameDay = z.extend(StoredPlayerDay, { gas_spent: z.optional(storedGas) });

/** The `type` of a day item: a player's or a game's (as the update's `:type` value). */
const PLAYER_DAY = 'sponsor_player_day';
const GAME_DAY = 'sponsor_game_day';

/** ADDs one claim of `gas` to the day at `key` unless that takes it past `limit`; false when it would. */
async function charge(
  deps: Pick<PlatformDeps, 'db' | 'table' | 'now'>,
  key: Key,
  kind: Record<':type', typeof PLAYER_DAY | typeof GAME_DAY>,
  keptDays: number,
  gas: bigint,
  limit: DayLimit,
): Promise<boolean> {
  if (gas > limit.gas) return false;
  return conditionHeld(
    deps.db.send(
      new UpdateCommand({
        TableName: deps.table,
        Key: key,
        UpdateExpression: 'SET #type = :type, expiresAt = :expires ADD claims :one, gas :gas',
        ConditionExpression: 'attribute_not_exists(claims) OR (claims < :count AND gas <= :room)',
        ExpressionAttributeNames: { '#type': 'type' },
        ExpressionAttributeValues: {
          ...kind,
          ':expires': expiryOf(deps.now(), keptDays),
          ':one': 1,
          ':gas': gas,
          ':count': limit.count,
          ':room': limit.gas - gas,
        },
      }),
    ),
  );
}

/** Takes a charge back (a signing that did not complete); never makes a day that is gone (a player deleted since). */
async function refund(deps: Pick<PlatformDeps, 'db' | 'table'>, key: Key, gas: bigint) {
  await conditionHeld(
    deps.db.send(
      new UpdateCommand({
        TableName: deps.table,
        Key: key,
        UpdateExpression: 'ADD claims :minusOne, gas :minusGas',
        ConditionExpression: 'attribute_exists(claims)',
        ExpressionAttributeValues: { ':minusOne': -1, ':minusGas': -gas },
      }),
    ),
  );
}

/**
 * Charges a signing of `gas` to the player's and the game's day; answers how to give it back. 429
 * sponsor.over_limit, naming whose day is used up, when either would pass its limit (nothing then stays charged).
 */
export async function chargeDays(
  deps: Pick<PlatformDeps, 'db' | 'table' | 'now'>,
  charged: { uid: string; game: string; gas: bigint },
  limits: { player: DayLimit; game: DayLimit },
): Promise<() => Promise<void>> {
  const day = dayOf(deps.now());
  const player = playerDayKey(charged.uid, day);
  const game = gameDayKey(charged.game, day);
  const overLimit = (whose: string, limit: DayLimit) =>
    sponsorError(
      'sponsor.over_limit',
      `id: ${whose} sponsored claims of today are used up (${limit.count} claims, ${limit.gas} MIST of gas budgets a day); try again after the day ends (UTC)`,
      { retryAfterSeconds: secondsToDayEnd(deps.now()) },
    );
  if (!(await charge(deps, player, { ':type': PLAYER_DAY }, PLAYER_DAY_KEPT, charged.gas, limits.player))) throw overLimit("the player's", limits.player);
  if (!(await charge(deps, game, { ':type': GAME_DAY }, GAME_DAY_KEPT, charged.gas, limits.game))) {
    await refund(deps, player, charged.gas);
    throw overLimit("the game's", limits.game);
  }
  return async () => {
    await Promise.all([refund(deps, player, charged.gas), refund(deps, game, charged.gas)]);
  };
}
