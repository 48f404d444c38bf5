/**
 * What a process (a warm Lambda container, the local server) remembers of the table between requests: facts
 * that never change once read (owners, goods' places, open seasons) or may be a minute old (a principal's
 * state). Keys carry the table name, so deps on different tables (tests, bench) never share an entry.
 *
 * Bounded by `limit` entries: past it the memory is emptied at once, which costs one read again, never a wrong
 * answer, and no bookkeeping on every read (an LRU's); lru-cache would add about 19 KB to every bundle. With
 * `ttlMs`, an entry is answered only while younger than that by the caller's clock (deps.now, which tests move).
 */
export class ProcessMemory<V> {
  readonly #entries = new Map<string, { value: V; at: number }>();

  constructor(private readonly options: { limit: number; ttlMs?: number }) {}

  /** The remembered value; undefined for none, or one older than ttlMs at `now` (epoch ms). */
  get(deps: { table: string }, key: string, now = 0): V | undefined {
    const entry = this.#entries.get(keyOf(deps, key));
    if (entry === undefined || now - entry.at >= (this.options.ttlMs ?? Infinity)) return undefined;
    return entry.value;
  }

  /** Remembers `value`, read at `now` (epoch ms); a full memory is emptied first. */
  set(deps: { table: string }, key: string, value: V, now = 0): void {
    if (this.#entries.size >= this.options.limit) this.#entries.clear();
    this.#entries.set(keyOf(deps, key), { value, at: now });
  }

  /** Forgets `key`; with `value`, only while it is still what the key holds (a later set stays). */
  delete(deps: { table: string }, key: string, ...value: [V] | []): void {
    const full = keyOf(deps, key);
    if (value.length === 0 || this.#entries.get(full)?.value === value[0]) this.#entries.delete(full);
  }
}

const keyOf = (deps: { table: string }, key: string) => `${deps.table}\u0000${key}`;

/**
 * The remembered promise of `key`, else `load()`'s, remembered: concurrent callers share one load. A load that
 * fails, or whose value `keep` refuses (not a fact yet), is forgotten, so the next call loads again.
 */
export function loadOnce<T>(
  memory: ProcessMemory<Promise<T>>,
  deps: { table: string },
  key: string,
  load: () => Promise<T>,
  keep: (value: T) => boolean = () => true,
): Promise<T> {
  const remembered = memory.get(deps, key);
  if (remembered !== undefined) return remembered;
  const loading = load();
  memory.set(deps, key, loading);
  loading.then(
    (value) => keep(value) || memory.delete(deps, key, loading),
    () => memory.delete(deps, key, loading),
  );
  return loading;
}
