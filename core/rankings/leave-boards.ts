import { readItems } from '../platform/batch.js';
import type { PlatformDeps } from '../platform/deps.js';
import { headPageKey } from './keys.js';
import { applyHeadChanges, readHead } from './rank-head.js';
import type { RankBoard } from './rank-pages.js';
import { toPage } from './rank-pages.js';
import { leaveSnapshot } from './rank-snapshot.js';

/**
 * A deleted player's sweep (core/privacy/deletion.ts): the player taken off each board's head and snapshot at
 * once. The stream takes a deleted score item off the head too, and the next snapshot leaves it out; this does
 * not wait for either, and finds the player wherever the head holds them, its cutoff included (every head page is read: a head is at
 * most a few hundred KB, and a deletion rare). Answers how many boards held the player. Running it again
 * changes nothing.
 */
export async function leaveBoards(
  deps: Pick<PlatformDeps, 'db' | 'table' | 'now' | 'rankHeadSize'>,
  uid: string,
  boards: readonly RankBoard[],
): Promise<number> {
  let held = 0;
  for (const ref of boards) {
    const head = await readHead(deps, ref);
    const pages = await readItems(
      deps,
      head.pages.map((page) => headPageKey(ref.board, ref.game, ref.season, page.id)),
    );
    const found = pages.flatMap((item) => (item ? toPage(item).entries.filter((entry) => entry.id === uid) : []));
    for (const entry of found) await applyHeadChanges(deps, ref, [{ id: uid, before: entry }]);
    // The first standing below the head, which the directory names as its cutoff, may be the player's.
    const atCutoff = head.cutoff?.id === uid;
    if (atCutoff) await applyHeadChanges(deps, ref, [{ id: uid, before: head.cutoff }]);
    const inSnapshot = await leaveSnapshot(deps, ref, uid);
    if (found.length > 0 || atCutoff || inSnapshot) held++;
  }
  return held;
}
