import { AsyncLocalStorage } from 'node:async_hooks';

export type ItemKey = { pk: string; sk: string };
export type Item = Record<string, unknown>;

/** A key's identity in maps of items. */
export const idOf = (key: ItemKey) => `${key.pk}\u0000${key.sk}`;

/**
 * Items read ahead for the request being served: the authorization layer reads the items an operation declares it
 * reads first (core/http/operation.ts FirstReads, declared beside its handler) in the same strongly consistent batch as its own fresh reads (core/http/policy.ts),
 * so that a value-moving call makes one read request instead of two. The handler's readItems of exactly those
 * keys (all of them present) is answered from here, once: a second read of them in the same request goes to the
 * table, so nothing the request wrote meanwhile is answered stale.
 */
const readAhead = new AsyncLocalStorage<Map<string, Item | undefined>>();

/** Runs `run` with `items` (read at `keys`, in their order) as the request's items read ahead. */
export function withItemsReadAhead<T>(keys: readonly ItemKey[], items: readonly (Item | undefined)[], run: () => T): T {
  return readAhead.run(new Map(keys.map((key, i) => [idOf(key), items[i]])), run);
}

/** The request's items read ahead at `keys`, taken (each is answered once), or undefined unless every key is there. */
export function takeReadAhead(keys: readonly ItemKey[]): (Item | undefined)[] | undefined {
  const ahead = readAhead.getStore();
  if (!ahead || keys.length === 0 || !keys.every((key) => ahead.has(idOf(key)))) return undefined;
  const items = keys.map((key) => ahead.get(idOf(key)));
  for (const key of keys) ahead.delete(idOf(key));
  return items;
}
