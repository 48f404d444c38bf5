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

/** What a memory of reads holds per key: the read (a promise, so concurrent callers share it) and when it began. */
export interface RememberedRead<V> {
  value: Promise<V>;
  readAt: number;
}

/**
 * The value read at `key` within the last `maxAgeMs` (this process's clock), else `read()` again, remembered. A read
 * that fails is forgotten, so the next call reads again rather than answering the failure for the rest of the time.
 */
export function readRemembered<V>(memory: Map<string, RememberedRead<V>>, key: string, maxAgeMs: number, read: () => Promise<V>): Promise<V> {
  const known = memory.get(key);
  if (known && Date.now() - known.readAt < maxAgeMs) return known.value;
  const value = read();
  remember(memory, key, { value, readAt: Date.now() });
  value.catch(() => memory.get(key)?.value === value && memory.delete(key));
  return value;
}

/**
 * How long a value-moving call may use the account state (suspension, revocations: core/access/principals.ts) that
 * its process read, measured from when the read was sent. It spares the busiest calls a read on each request.
 */
export const VALUE_STATE_MS = 1_000;

/**
 * Waits until every account state read before now has aged past VALUE_STATE_MS. A write that suspends a merchant
 * or revokes tokens waits for this before it answers, so from its answer no process moves value on a state read
 * before it. The margin covers timers that fire a millisecond early and clocks read to the millisecond.
 */
export const outlastRememberedStates = () => new Promise<void>((resolve) => setTimeout(resolve, VALUE_STATE_MS + 20));
