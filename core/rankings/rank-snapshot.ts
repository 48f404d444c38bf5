import { createHash } from 'node:crypto';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { type ItemKey, readItems, writeItems } from '../platform/batch.js';
import { isConditionalFailure } from '../platform/conditional-failure.js';
import type { PlatformDeps } from '../platform/deps.js';
import { snapshotDirectoryKey, snapshotPageKey } from './keys.js';
import { compareStandings } from './order.js';
import { type Directory, directoryItem, packEntries, type PageEntry, type PageRef, type RankBoard, splitEntries, toDirectory, toPage } from './rank-pages.js';

/**
 * A board's snapshot (docs/performance.md "Ranks at a studio's budget"): every player of the board, in rank pages
 * (rank-pages.ts) written from a read of the season's score items (season-scores.ts) by the snapshot job
 * (rank-snapshots.ts, every minute). What ranks the players below the live head (rank-head.ts): exact as of the
 * read, whatever the stream did meanwhile, so nothing a batch missed outlives the next snapshot.
 *
 * - **A page written once, never changed.** A snapshot cuts the standings where the last one's pages began (a page
 *   keeps the range between its first standing and the next page's), splits a range past MAX_PAGE and merges one
 *   under MIN_PAGE into the one before. A page whose standings are the last snapshot's keeps its item; any other
 *   is a new item (a new id). Its version is a digest of its standings, so a page is its content. A quiet board
 *   costs a directory a minute; a busy one the pages its players moved in, at most the board's size a minute,
 *   however many reports made the moves.
 * - **Then the directory**, on condition its version is still the one read (two runs at once: the later one's
 *   pages are deleted, nothing else changes). A reader that read the directory before it reads pages it names;
 *   the pages it no longer names are deleted SNAPSHOT_GRACE_MS later (retiredPages), long after any reader's
 *   second request.
 */
export const MAX_PAGE = 1000;
export const MIN_PAGE = 100;
/** How long the pages a new directory no longer names are kept for readers of the one before. */
export const SNAPSHOT_GRACE_MS = 5_000;
/**
 * A snapshot is written when it costs at most this many write units per player changed since the last one
 * (its pages written and, later, deleted), or once the last one is SNAPSHOT_MAX_AGE_MS old: a busy board gets one
 * every run (a minute), a large quiet one less often, so that its snapshots cost about a unit per change, never
 * a page rewritten for each of a few players.
 */
export const SNAPSHOT_UNITS_PER_CHANGE = 1;
export const SNAPSHOT_MAX_AGE_MS = 15 * 60_000;

/** A snapshot page's version: a digest of its standings (48 bits, an exact number). */
const digestOf = (entries: readonly PageEntry[]) =>
  Number.parseInt(
    createHash('sha256')
      .update(JSON.stringify(entries.map((entry) => [entry.score, entry.at, entry.id, entry.name])))
      .digest('hex')
      .slice(0, 12),
    16,
  );

export async function readSnapshot(deps: Pick<PlatformDeps, 'db' | 'table'>, ref: RankBoard): Promise<Directory> {
  const out = await deps.db.send(new GetCommand({ TableName: deps.table, Key: snapshotDirectoryKey(ref.board, ref.game, ref.season), ConsistentRead: true }));
  return toDirectory(out.Item);
}

/** The standings cut where the last snapshot's pages begin, each part with the id of the page it came from (if whole). */
function cutLikeBefore(before: Directory, entries: readonly PageEntry[]): { id?: number; entries: PageEntry[] }[] {
  if (before.pages.length === 0) {
    // An empty board (a season with scores on the other board only) has no page.
    return splitEntries(entries, Math.floor((MAX_PAGE + MIN_PAGE) / 2))
      .filter((part) => part.length > 0)
      .map((part) => ({ entries: part }));
  }
  const ranges: { id?: number; entries: PageEntry[] }[] = before.pages.map((page) => ({ id: page.id, entries: [] }));
  let at = 0;
  for (const entry of entries) {
    // Sorted standings fall in the pages' ranges in order: the range moves on while the next page begins above.
    while (at + 1 < before.pages.length && compareStandings(before.pages[at + 1]!.first, entry) <= 0) at++;
    ranges[at]!.entries.push(entry);
  }
  const parts: { id?: number; entries: PageEntry[] }[] = [];
  for (const range of ranges) {
    const previous = parts.at(-1);
    if (range.entries.length < MIN_PAGE && previous) {
      // Merged into the one before, and split again if that is past MAX_PAGE (into parts past MIN_PAGE each).
      parts.pop();
      parts.push(...splitEntries([...previous.entries, ...range.entries], MAX_PAGE).map((part) => ({ entries: part })));
      continue;
    }
    const split = splitEntries(range.entries, MAX_PAGE);
    parts.push(...(split.length === 1 ? [range] : split.map((part) => ({ entries: part }))));
  }
  // A small first range is merged into the one after it.
  if (parts.length > 1 && parts[0]!.entries.length < MIN_PAGE) {
    const [first, second] = parts.splice(0, 2) as [(typeof parts)[0], (typeof parts)[0]];
    parts.unshift(...splitEntries([...first.entries, ...second.entries], MAX_PAGE).map((part) => ({ entries: part })));
  }
  return parts.filter((part) => part.entries.length > 0);
}

/** What a snapshot wrote: pages written and kept, and the keys of the pages it retired (delete them after the grace). */
export interface SnapshotWritten {
  written: number;
  kept: number;
  retired: ItemKey[];
  /** Write units of the pages written and their deletion to come, and of the directory (1 per KB each). */
  units: number;
  /** Left for a later run: it would have cost more than its changes' budget (SNAPSHOT_UNITS_PER_CHANGE). */
  deferred: boolean;
}

const unitsOf = (bytes: number) => Math.max(1, Math.ceil(bytes / 1024));

/**
 * Writes a board's snapshot from its standings in board order, read at `asOf` (ISO). Answers what it wrote; a
 * concurrent snapshot of the same board that wrote first makes this one write nothing that stays. With
 * `changedSince` (how many of the board's players changed after an instant), a snapshot that would cost more
 * than SNAPSHOT_UNITS_PER_CHANGE a change is deferred while the last one is younger than SNAPSHOT_MAX_AGE_MS;
 * one that changes no page only moves the directory's `as_of`.
 */
export async function writeSnapshot(
  deps: Pick<PlatformDeps, 'db' | 'table'>,
  ref: RankBoard,
  entries: readonly PageEntry[],
  asOf: string,
  changedSince?: (instant: string) => number,
): Promise<SnapshotWritten> {
  const before = await readSnapshot(deps, ref);
  const pageKey = (id: number) => snapshotPageKey(ref.board, ref.game, ref.season, id);
  const was = new Map(before.pages.map((page) => [page.id, page]));
  let next = before.next;
  const pages: PageRef[] = [];
  const items: Record<string, unknown>[] = [];
  for (const part of cutLikeBefore(before, entries)) {
    const version = digestOf(part.entries);
    const same = part.id === undefined ? undefined : was.get(part.id);
    if (same && same.version === version && same.count === part.entries.length) {
      pages.push(same);
      continue;
    }
    const id = next++;
    pages.push({ id, count: part.entries.length, version, first: part.entries[0]! });
    items.push({ ...pageKey(id), version, data: packEntries(part.entries) });
  }
  const directory = directoryItem(snapshotDirectoryKey(ref.board, ref.game, ref.season), { version: before.version + 1, next, pages, updatedAt: asOf });
  // Each page written is deleted by a later snapshot: its units counted twice.
  const units = items.reduce((sum, item) => sum + 2 * unitsOf((item.data as Uint8Array).length), 0) + unitsOf(directory.data.length);
  const age = Date.parse(asOf) - Date.parse(before.updatedAt || asOf);
  if (changedSince && before.version > 0 && items.length > 0 && age < SNAPSHOT_MAX_AGE_MS) {
    if (units > changedSince(before.updatedAt) * SNAPSHOT_UNITS_PER_CHANGE)
      return { written: 0, kept: before.pages.length, retired: [], units: 0, deferred: true };
  }
  await writeItems(deps, items);
  const named = new Set(pages.map((page) => page.id));
  try {
    await deps.db.send(
      new PutCommand({
        TableName: deps.table,
        Item: directory,
        ConditionExpression: before.version === 0 ? 'attribute_not_exists(pk)' : 'version = :version',
        ...(before.version === 0 ? {} : { ExpressionAttributeValues: { ':version': before.version } }),
      }),
    );
  } catch (error) {
    if (!isConditionalFailure(error)) throw error;
    // Another run wrote the board first: this one's pages are named by no directory.
    await writeItems(
      deps,
      [],
      items.map((item) => ({ pk: item.pk as string, sk: item.sk as string })),
    );
    return { written: 0, kept: 0, retired: [], units: 0, deferred: false };
  }
  return {
    written: items.length,
    kept: pages.length - items.length,
    retired: before.pages.filter((page) => !named.has(page.id)).map((page) => pageKey(page.id)),
    units,
    deferred: false,
  };
}

/**
 * Takes one player off a board's snapshot at once (a deletion): every page is read (a deletion is rare, and the
 * player's standing may have moved since the snapshot), the page holding them written again without them as a
 * new page, the directory moved to it and the old page deleted. Answers whether they were on it.
 */
export async function leaveSnapshot(deps: Pick<PlatformDeps, 'db' | 'table'>, ref: RankBoard, id: string): Promise<boolean> {
  const before = await readSnapshot(deps, ref);
  const items = await readItems(
    deps,
    before.pages.map((page) => snapshotPageKey(ref.board, ref.game, ref.season, page.id)),
  );
  const entries = items.flatMap((item) => (item ? toPage(item).entries : []));
  if (!entries.some((entry) => entry.id === id)) return false;
  const { retired } = await writeSnapshot(
    deps,
    ref,
    entries.filter((entry) => entry.id !== id),
    before.updatedAt,
  );
  await writeItems(deps, [], retired);
  return true;
}
