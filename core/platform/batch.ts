import { BatchGetCommand, BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { PlatformDeps } from './deps.js';
import { platformError } from './errors.js';
import { idOf, takeReadAhead } from './read-ahead.js';
import { AGAIN, backOff, retrying } from './retry.js';

/**
 * The one way the platform reads several items by key: BatchGetItem, read completely.
 *
 * DynamoDB answers a BatchGetItem with the items it read and, under throttling (or past 16 MB), the keys it did
 * not read as `UnprocessedKeys`: not an error, so a caller that ignores them takes a missing item for an absent
 * one (a user without an account, a merchant that is not suspended). Here:
 * - keys are deduplicated (BatchGetItem refuses a key twice) and sent 100 per request (its limit), the requests
 *   in parallel;
 * - a request's unprocessed keys are asked again after an exponential back-off with full jitter (AWS's advice
 *   for batch operations: retries of many callers spread out instead of arriving together), at most
 *   RETRIES times;
 * - keys still unprocessed then make the request fail with `busy()`: 503 with Retry-After, nothing decided
 *   on a partial read. Every operation that batch-reads lists that 503 (docs/api.md).
 * A read that every key answers costs one request per 100 keys, as a bare BatchGetItem does (the bench counts it).
 */

export type { Item, ItemKey } from './read-ahead.js';
import type { Item, ItemKey } from './read-ahead.js';

/** BatchGetItem's limit of keys per request. */
export const BATCH_GET_LIMIT = 100;
/** Rounds of unprocessed keys asked again before the read gives up (503). */
export const RETRIES = 5;
/** The back-off before retry n (1-based) is a random pause in [0, BASE_PAUSE_MS * 2^n): at most 1.24 s in all. */
const BASE_PAUSE_MS = 20;
/** What a caller is told to wait before trying again, in seconds. */
export const BUSY_RETRY_AFTER_SECONDS = 1;

/** The cause every operation that batch-reads lists for its 503 (the route tables, core/http/policy-text.ts). */
export const BATCH_READ_BUSY = 'the table kept some keys of a batch read unprocessed (throttling) after every retry; Retry-After says when to try again';

/** The 503 of a batch read that could not be completed. */
export const busy = () =>
  platformError('table.busy', 'the table is busy: some items could not be read; try again shortly', { retryAfterSeconds: BUSY_RETRY_AFTER_SECONDS });

/**
 * The items of `keys`, in the order of `keys`, undefined where there is none. Strongly consistent unless
 * `consistent: false` (catalogue reads where a moment's staleness is fine and half the read cost is welcome).
 * Items the request read ahead (withItemsReadAhead, strongly consistent) answer with no request.
 */
export async function readItems(
  deps: Pick<PlatformDeps, 'db' | 'table'>,
  keys: readonly ItemKey[],
  options: { consistent?: boolean } = {},
): Promise<(Item | undefined)[]> {
  const ahead = takeReadAhead(keys);
  if (ahead) return ahead;
  const distinct = [...new Map(keys.map((key) => [idOf(key), { pk: key.pk, sk: key.sk }])).values()];
  const chunks: ItemKey[][] = [];
  for (let start = 0; start < distinct.length; start += BATCH_GET_LIMIT) chunks.push(distinct.slice(start, start + BATCH_GET_LIMIT));
  const found = new Map<string, Item>();
  await Promise.all(chunks.map((chunk) => readChunk(deps, chunk, options.consistent ?? true, found)));
  return keys.map((key) => found.get(idOf(key)));
}

/** The items of `keys` that exist, in the order of `keys` (readItems without the gaps; no request for no keys). */
export async function presentItems(deps: Pick<PlatformDeps, 'db' | 'table'>, keys: readonly ItemKey[]): Promise<Item[]> {
  if (keys.length === 0) return [];
  return (await readItems(deps, keys)).filter((item): item is Item => item !== undefined);
}

async function readChunk(deps: Pick<PlatformDeps, 'db' | 'table'>, keys: ItemKey[], consistent: boolean, found: Map<string, Item>) {
  let pending: ItemKey[] = keys;
  await retrying(
    async () => {
      const out = await deps.db.send(new BatchGetCommand({ RequestItems: { [deps.table]: { Keys: pending, ConsistentRead: consistent } } }));
      for (const item of out.Responses?.[deps.table] ?? []) found.set(idOf(item as ItemKey), item);
      pending = (out.UnprocessedKeys?.[deps.table]?.Keys as ItemKey[] | undefined) ?? [];
      return pending.length > 0 ? AGAIN : undefined;
    },
    { attempts: 1 + RETRIES, pause: batchPause, giveUp: unprocessed },
  );
}

/** BatchWriteItem's limit of writes per request. */
const BATCH_WRITE_LIMIT = 25;

/**
 * Puts `items` and deletes the items at `deletes` by BatchWriteItem (25 a request, the requests in parallel; not
 * atomic, each write by itself), asking again for the writes DynamoDB left unprocessed as the reads do; 503 past
 * the retries. For items no reader sees half-written: the snapshot's new pages before its directory names them.
 */
export async function writeItems(deps: Pick<PlatformDeps, 'db' | 'table'>, items: readonly Item[], deletes: readonly ItemKey[] = []): Promise<void> {
  type Write = { PutRequest: { Item: Item } } | { DeleteRequest: { Key: ItemKey } };
  const writes: Write[] = [...items.map((item) => ({ PutRequest: { Item: item } })), ...deletes.map((key) => ({ DeleteRequest: { Key: key } }))];
  const chunks: Write[][] = [];
  for (let start = 0; start < writes.length; start += BATCH_WRITE_LIMIT) chunks.push(writes.slice(start, start + BATCH_WRITE_LIMIT));
  await Promise.all(
    chunks.map(async (chunk) => {
      let pending = chunk;
      await retrying(
        async () => {
          const out = await deps.db.send(new BatchWriteCommand({ RequestItems: { [deps.table]: pending } }));
          pending = (out.UnprocessedItems?.[deps.table] as Write[] | undefined) ?? [];
          return pending.length > 0 ? AGAIN : undefined;
        },
        { attempts: 1 + RETRIES, pause: batchPause, giveUp: unprocessed },
      );
    }),
  );
}

/** The back-off after try n, before retry n: full jitter, so that many callers' retries spread out. */
export const batchPause = backOff(BASE_PAUSE_MS);

/** Keys or writes still unprocessed after every retry: the 503. */
const unprocessed = (): never => {
  throw busy();
};
