import { BatchGetCommand } from '@aws-sdk/lib-dynamodb';
import type { Deps } from '../platform/deps.js';

type Key = { pk: string; sk: string };

/**
 * The items of `keys` (distinct; a few) in one BatchGetItem, in the order of `keys`, undefined where none.
 * Strongly consistent for all: some of the items read together need it (a merchant's status, a claim).
 * Unprocessed keys (throttling) are read again.
 */
export async function readItems(deps: Pick<Deps, 'db' | 'table'>, keys: Key[]): Promise<(Record<string, unknown> | undefined)[]> {
  const found: Record<string, unknown>[] = [];
  let pending = keys;
  while (pending.length > 0) {
    const out = await deps.db.send(new BatchGetCommand({ RequestItems: { [deps.table]: { Keys: pending, ConsistentRead: true } } }));
    found.push(...(out.Responses?.[deps.table] ?? []));
    pending = (out.UnprocessedKeys?.[deps.table]?.Keys as Key[] | undefined) ?? [];
  }
  return keys.map((key) => found.find((item) => item.pk === key.pk && item.sk === key.sk));
}
