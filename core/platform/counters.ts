import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod/mini';
import type { PlatformDeps } from './deps.js';

/**
 * Integer ids: one counter item per entity kind, incremented atomically with `ADD`, so two concurrent
 * callers never get the same id. Access pattern "next id of kind K": pk `COUNTER#K`, sk `COUNTER`.
 *
 * Taking an id is a write. A caller takes it only after every check of its request has passed (validation,
 * existence, ownership, state, price, balance, duplicates, idempotent replays), so that a refused request
 * leaves the table as it was; only a refusal that comes from a concurrent request winning the final
 * conditional write can leave a gap (docs/data-model.md "Refused requests write nothing"). The counter is never
 * part of a player's transaction: every create of its kind writes it (docs/data-model.md
 * "Transactions and contention: what each touches").
 */
export async function nextId(deps: Pick<PlatformDeps, 'db' | 'table'>, kind: string): Promise<number> {
  const [id] = await nextIds(deps, kind, 1);
  return id!;
}

/** The partition prefix and the sort key of every counter item. */
export const COUNTER_PREFIX = 'COUNTER#';
export const COUNTER_SORT_KEY = 'COUNTER';
/** "next id of a kind": one counter item per kind. */
export const counterKey = (kind: string) => ({ pk: `${COUNTER_PREFIX}${kind}`, sk: COUNTER_SORT_KEY });
/**
 * A counter as stored: the last id taken (`value`); the game counter also keeps the games total (`total`,
 * core/games/games.ts), added to in each create's transaction after its id was taken.
 */
export const StoredCounter = z.object({ value: z.number(), total: z.optional(z.number()) });

/** `count` ids of a kind from one `ADD` (unique, consecutive within the block); none for 0, without a write. */
export async function nextIds(deps: Pick<PlatformDeps, 'db' | 'table'>, kind: string, count: number): Promise<number[]> {
  if (count === 0) return [];
  const result = await deps.db.send(
    new UpdateCommand({
      TableName: deps.table,
      Key: counterKey(kind),
      UpdateExpression: 'ADD #value :n',
      ExpressionAttributeNames: { '#value': 'value' },
      ExpressionAttributeValues: { ':n': count },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  // UPDATED_NEW: the counter's `value` alone.
  const { value: last } = StoredCounter.parse(result.Attributes);
  return Array.from({ length: count }, (_, i) => last - count + 1 + i);
}
