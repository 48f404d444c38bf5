/**
 * What a process (a warm Lambda container, the local server) remembers of the table between requests, in a
 * plain Map written through `remember`: facts that never change once read (owners, goods' places, open
 * seasons) or may be a minute old (a principal's state, which carries its own read time). Callers' keys carry
 * the table name, so deps on different tables (tests, bench) never share an entry.
 *
 * Every memory is bounded by MEMORY_LIMIT entries: past it, it is emptied at once, which costs one read again,
 * never a wrong answer, and no bookkeeping on every read (an LRU's). lru-cache would add about 19 KB to every
 * bundle that remembers anything, and a class of our own more than the maps it replaces; this function does not.
 */
export const MEMORY_LIMIT = 10_000;

/** Remembers `value` under `key`; a full memory is emptied first. */
export function remember<V>(memory: Map<string, V>, key: string, value: V): void {
  if (memory.size >= MEMORY_LIMIT) memory.clear();
  memory.set(key, value);
}
