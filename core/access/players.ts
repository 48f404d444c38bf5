import type { PlatformDeps } from '../platform/deps.js';
import { goneSince } from '../platform/players.js';
import { remember } from '../platform/process-memory.js';
import { STATE_TTL_MS } from './principals.js';

/**
 * Whether a player deleted their account, as the authorization layer asks it of a player token's subject and of
 * a player a server's request names (core/platform/players.ts keeps the mark). Player tokens carry no
 * revocation, so this read is what refuses them after a deletion.
 *
 * As with a console account's state (principals.ts): a fresh read (strongly consistent) for calls that write or
 * move value, so those stop at once; other calls may use what this process read in the last STATE_TTL_MS. Their
 * reads are eventually consistent (half the cost): an answer that may be STATE_TTL_MS old anyway is at most a
 * moment's replication older. A deletion never comes undone, so a player found gone stays remembered as gone,
 * with no expiry.
 */
const remembered = new Map<string, { gone: boolean; at: number }>();

const keyOf = (table: string, uid: string) => `${table}\u0000${uid}`;

export async function playerGone(deps: Pick<PlatformDeps, 'db' | 'table' | 'now'>, uid: string, fresh: boolean): Promise<boolean> {
  const key = keyOf(deps.table, uid);
  const now = deps.now().getTime();
  const known = remembered.get(key);
  if (known && (known.gone || (!fresh && now - known.at < STATE_TTL_MS))) return known.gone;
  const gone = (await goneSince(deps, uid, fresh)) !== undefined;
  remember(remembered, key, { gone, at: now });
  return gone;
}

/** Remembers what a fresh read made elsewhere found of `uid`'s gone mark (the account state's BatchGet). */
export function rememberGone(deps: Pick<PlatformDeps, 'table' | 'now'>, uid: string, mark: unknown): boolean {
  const gone = mark !== undefined;
  remember(remembered, keyOf(deps.table, uid), { gone, at: deps.now().getTime() });
  return gone;
}

/**
 * Drops what this process remembers of `uid`, so that its next call reads the mark: the deletion calls it in the
 * process it runs in, which then refuses the player at once. Entries are keyed by table and uid (deps on
 * different tables never share one) and the deletion names only the uid, so this walks the memory: at most
 * MEMORY_LIMIT entries, once per deletion.
 */
export function forgetPlayer(uid: string): void {
  const suffix = `\u0000${uid}`;
  for (const key of remembered.keys()) if (key.endsWith(suffix)) remembered.delete(key);
}
