import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { readItems } from '../platform/batch.js';
import type { PlatformDeps } from '../platform/deps.js';
import { retrying, rethrowLast } from '../platform/retry.js';
import { failedConditionsOf, isTransactionConflict, type TransactItem } from '../platform/transactions.js';
import { headDirectoryKey, headPageKey, headTopKey } from './keys.js';
import { MAX_BOARD } from './models.js';
import { compareStandings, type Standing } from './order.js';
import {
  type Directory,
  directoryItem,
  EMPTY_DIRECTORY,
  type PageEntry,
  type PageRef,
  packEntries,
  pageOf,
  placeAmong,
  type RankBoard,
  splitEntries,
  toDirectory,
  toPage,
} from './rank-pages.js';

/**
 * A board's live head (docs/performance.md "Ranks at a studio's budget"): the board's top standings, at least
 * HEAD_SIZE of them once the board is that large, kept in rank pages (rank-pages.ts) from the table's stream a
 * batch at a time (rank-stream.ts), so a player near the top sees a rank a second or two old, exact.
 *
 * - **Only the head is written per change.** A change whose standing before and after are both at or below
 *   the head's `cutoff` writes nothing: the rest of the board is ranked from the snapshot (rank-snapshot.ts),
 *   which costs by the board's size a minute, not by its changes.
 * - **Where a player was.** A change carries the player's standing before it (the stream's old image) and
 *   after it: the entry is taken from the page of the one and put in the page of the other. The stream gives a
 *   player's records in order, and each is applied whole or not at all, so the head holds the standing before.
 *   A change applied twice takes the player from both pages before putting them in once: nothing doubles.
 * - **Trimmed by whole pages.** Past HEAD_SIZE + a page, the last pages are dropped while HEAD_SIZE stay, and
 *   the cutoff becomes the first standing of the earliest page dropped: everything above it is in the head.
 *   Scores only grow, so nothing below the cutoff comes back but by a change, which puts it in.
 * - **The top MAX_BOARD** are kept whole in one item (`TOP`), rewritten with a batch that changes them: what
 *   gameRank reads, one item a board.
 * - **One batch, one transaction.** A batch's changes of one board are written in one TransactWriteItems (the
 *   pages it changes, the top, the directory), on condition the directory's version is still the one read: two
 *   consumers of one board (the stream's shards are read in parallel) never lose each other's changes, the
 *   loser reads again. A batch that needs more than a transaction's 100 items is written in halves.
 */
export const HEAD_SIZE = 10_000;
/** Head pages hold at most MAX_PAGE standings, at least MIN_PAGE (a lone page fewer): small, so a change rewrites little. */
export const MAX_PAGE = 200;
export const MIN_PAGE = 40;
/** A transaction's size limit is 4 MB; a write above this is made in halves. */
const MAX_WRITE_BYTES = 3_500_000;
/**
 * A consumer that lost the race for a board's directory reads again and retries, WRITE_ATTEMPTS times, after a
 * random pause growing to about a transaction's length (not a request's: two consumers racing in step must fall
 * out of step). Past that the batch fails and is delivered again (the stream's retry), nothing half-written.
 */
const WRITE_ATTEMPTS = 20;
const losingPause = (attempt: number) => new Promise((resolve) => setTimeout(resolve, Math.random() * 25 * Math.min(attempt, 8)));

/** A player's change on a board: their standing before it and after it (absent: not on the board). */
export interface StandingChange {
  id: string;
  before?: Standing;
  after?: PageEntry;
}

type HeadDeps = Pick<PlatformDeps, 'db' | 'table' | 'now' | 'rankHeadSize'>;

export async function readHead(deps: Pick<PlatformDeps, 'db' | 'table'>, ref: RankBoard): Promise<Directory> {
  const out = await deps.db.send(new GetCommand({ TableName: deps.table, Key: headDirectoryKey(ref.board, ref.game, ref.season), ConsistentRead: true }));
  return toDirectory(out.Item);
}

/** Is `standing` in the head as `directory` bounds it? */
export const inHead = (directory: Directory, standing: Standing) => !directory.cutoff || compareStandings(standing, directory.cutoff) < 0;

/**
 * Applies one board's changes (of any number of players, in the order they happened): a player's changes collapse
 * into one (the first's standing before, the last's after), then the head is written in one transaction.
 */
export async function applyHeadChanges(deps: HeadDeps, ref: RankBoard, changes: readonly StandingChange[]): Promise<void> {
  const collapsed = new Map<string, StandingChange>();
  for (const change of changes) {
    const seen = collapsed.get(change.id);
    collapsed.set(change.id, seen ? { ...change, before: seen.before } : change);
  }
  await applyInOneWrite(deps, ref, [...collapsed.values()]);
}

/**
 * A page the directory read lists is gone or at another version when read: another consumer's transaction
 * landed between the two reads (it merged, trimmed or rewrote that page). The race is lost as when the
 * directory's condition fails: read again.
 */
class HeadMoved extends Error {}

async function applyInOneWrite(deps: HeadDeps, ref: RankBoard, changes: StandingChange[]): Promise<void> {
  const tooLarge = await retrying(
    async () => {
      const writes = await plan(deps, ref, await readHead(deps, ref), changes);
      if (writes.length === 0) return false;
      const bytes = writes.reduce((sum, write) => sum + ((write.Put?.Item?.data as Uint8Array | undefined)?.length ?? 0), 0);
      if ((writes.length > 100 || bytes > MAX_WRITE_BYTES) && changes.length > 1) return true;
      await deps.db.send(new TransactWriteCommand({ TransactItems: writes }));
      return false;
    },
    {
      attempts: WRITE_ATTEMPTS,
      pause: losingPause,
      // A page moved under the read (HeadMoved), the directory's version moved (its condition failed), or another
      // consumer's transaction was in flight: read again. Past the last try, that error fails the batch.
      retryOn: (error) => error instanceof HeadMoved || failedConditionsOf(error).length > 0 || isTransactionConflict(error),
      giveUp: rethrowLast,
    },
  );
  if (tooLarge) {
    const half = Math.ceil(changes.length / 2);
    await applyInOneWrite(deps, ref, changes.slice(0, half));
    await applyInOneWrite(deps, ref, changes.slice(half));
  }
}

/** A page while a batch is applied: its entries once read, and whether they changed. */
interface WorkPage {
  id: number;
  ref?: PageRef;
  entries?: PageEntry[];
  changed: boolean;
}

/** The writes that apply `changes` to the head as `directory` has it (none when no change reaches the head). */
async function plan(deps: HeadDeps, ref: RankBoard, directory: Directory, changes: StandingChange[]): Promise<TransactItem[]> {
  const moving = changes.filter((change) => (change.before && inHead(directory, change.before)) || (change.after && inHead(directory, change.after)));
  // The cutoff is a player's standing: once that player has left the board (a deleted account), the head must stop
  // naming them, though no page of it changes.
  const cutoffLeaves = changes.some((change) => change.after === undefined && change.id === directory.cutoff?.id);
  if (moving.length === 0 && !cutoffLeaves) return [];
  const work: WorkPage[] = directory.pages.map((page) => ({ id: page.id, ref: page, changed: false }));
  let next = directory.next;
  if (work.length === 0) work.push({ id: next++, entries: [], changed: true });
  // Pages are placed by the directory's first standings, fixed for the whole batch: each page keeps the range
  // between its first standing and the next page's, whatever the batch moves.
  const placeOf = (standing: Standing) => (directory.pages.length === 0 ? 0 : pageOf(directory.pages, standing));
  const touched = new Set<number>();
  for (const { before, after } of moving) {
    if (before && inHead(directory, before)) touched.add(placeOf(before));
    if (after && inHead(directory, after)) touched.add(placeOf(after));
  }
  const lastFilled = cutoffLeaves ? work.map((page) => (page.ref?.count ?? 0) > 0).lastIndexOf(true) : -1;
  if (lastFilled >= 0) touched.add(lastFilled);
  await load(deps, ref, work, [...touched]);
  const read = new Map([...touched].map((index) => [index, JSON.stringify(work[index]!.entries)]));
  for (const { id, before, after } of moving) {
    if (before && inHead(directory, before)) drop(work[placeOf(before)]!, id, before);
    if (after && inHead(directory, after)) {
      const page = work[placeOf(after)]!;
      drop(page, id);
      page.entries!.splice(placeAmong(page.entries!, after), 0, after);
      page.changed = true;
    }
  }
  // Changes the head already has (a batch delivered again, a removal the deletion's sweep made first) write nothing.
  for (const [index, entries] of read) if (work[index]!.ref && JSON.stringify(work[index]!.entries) === entries) work[index]!.changed = false;
  const takenOut = cutoffLeaves ? await takeLastOut(deps, ref, work, lastFilled) : undefined;
  if (!work.some((page) => page.changed)) return [];
  const removed = await mergeSmall(deps, ref, work);
  const pages: WorkPage[] = [];
  for (const page of work) {
    if (!page.changed) {
      pages.push(page);
      continue;
    }
    for (const [index, part] of splitEntries(page.entries!, MAX_PAGE).entries())
      pages.push(index === 0 ? { ...page, entries: part } : { id: next++, entries: part, changed: true });
  }
  const cutoff = trim(pages, deps.rankHeadSize ?? HEAD_SIZE, removed) ?? takenOut ?? directory.cutoff;
  const version = directory.version + 1;
  const writes: TransactItem[] = [];
  const listed = pages.filter((page) => (page.entries ?? []).length > 0 || !page.changed);
  for (const page of listed) {
    if (!page.changed) continue;
    writes.push({
      Put: { TableName: deps.table, Item: { ...headPageKey(ref.board, ref.game, ref.season, page.id), version, data: packEntries(page.entries!) } },
    });
  }
  for (const id of removed) writes.push({ Delete: { TableName: deps.table, Key: headPageKey(ref.board, ref.game, ref.season, id) } });
  // The top is written again when a page that holds some of it changed (or went).
  const lead = leadingPages(listed, MAX_BOARD);
  const topChanged = listed.slice(0, lead + 1).some((page) => page.changed) || removed.some((id) => !listed.slice(lead + 1).some((page) => page.id === id));
  if (topChanged) {
    await load(
      deps,
      ref,
      listed,
      Array.from({ length: leadingPages(listed, MAX_BOARD) + 1 }, (_, i) => i),
    );
    writes.push(topWrite(deps, ref, listed));
  }
  const refs = listed.map((page): PageRef => (page.changed ? { id: page.id, count: page.entries!.length, version, first: page.entries![0]! } : page.ref!));
  writes.push({
    Put: {
      TableName: deps.table,
      Item: directoryItem(headDirectoryKey(ref.board, ref.game, ref.season), { version, next, pages: refs, updatedAt: deps.now().toISOString(), cutoff }),
      ConditionExpression: directory.version === 0 ? 'attribute_not_exists(pk)' : 'version = :version',
      ...(directory.version === 0 ? {} : { ExpressionAttributeValues: { ':version': directory.version } }),
    },
  });
  return writes;
}

/** The index of the last of the leading pages that hold the first `count` standings (by the counts the pages have). */
function leadingPages(work: WorkPage[], count: number): number {
  let seen = 0;
  for (const [index, page] of work.entries()) {
    seen += page.entries?.length ?? page.ref?.count ?? 0;
    if (seen >= count) return index;
  }
  return work.length - 1;
}

/** The head's top item: its first MAX_BOARD standings, from its leading pages (all read: leadingPages). */
function topWrite(deps: Pick<PlatformDeps, 'table' | 'now'>, ref: RankBoard, pages: WorkPage[]): TransactItem {
  const top: PageEntry[] = [];
  for (const page of pages) {
    if (top.length >= MAX_BOARD) break;
    top.push(...page.entries!);
  }
  return {
    Put: {
      TableName: deps.table,
      Item: { ...headTopKey(ref.board, ref.game, ref.season), updatedAt: deps.now().toISOString(), data: packEntries(top.slice(0, MAX_BOARD)) },
    },
  };
}

/**
 * Takes the head's last standing out of it, as the new cutoff in place of a player who left the board: everything
 * above it stays in the head, and it is ranked from the snapshot as any standing below the head. `from` is the
 * last page that held any before the batch; a page the batch emptied is passed over for the one before it (read
 * if need be). None only when the batch emptied the whole head: the old cutoff then stays until the snapshot job
 * (healHead) finds its player gone.
 */
async function takeLastOut(deps: Pick<PlatformDeps, 'db' | 'table'>, ref: RankBoard, work: WorkPage[], from: number): Promise<Standing | undefined> {
  for (let index = from; index >= 0; index--) {
    await load(deps, ref, work, [index]);
    const page = work[index]!;
    const last = page.entries!.pop();
    if (!last) continue;
    page.changed = true;
    return { score: last.score, at: last.at, id: last.id };
  }
  return undefined;
}

/**
 * Drops the last pages while `size` standings stay without them (their items are added to `removed`); answers
 * the new cutoff, the first standing of the earliest page dropped, or undefined when none is.
 */
function trim(pages: WorkPage[], size: number, removed: number[]): Standing | undefined {
  let total = pages.reduce((sum, page) => sum + (page.entries?.length ?? page.ref!.count), 0);
  let cutoff: Standing | undefined;
  while (pages.length > 1) {
    const last = pages.at(-1)!;
    const count = last.entries?.length ?? last.ref!.count;
    if (total - count < size) break;
    if (count > 0) cutoff = last.entries?.[0] ?? last.ref!.first;
    if (last.ref) removed.push(last.id);
    total -= count;
    pages.pop();
  }
  return cutoff && { score: cutoff.score, at: cutoff.at, id: cutoff.id };
}

/** Takes the player's entry out of a page: the one at `standing` if given and there, else any of theirs. */
function drop(page: WorkPage, id: string, standing?: Standing) {
  const exact = standing ? page.entries!.findIndex((entry) => entry.id === id && entry.score === standing.score && entry.at === standing.at) : -1;
  const at = exact >= 0 ? exact : page.entries!.findIndex((entry) => entry.id === id);
  if (at < 0) return;
  page.entries!.splice(at, 1);
  page.changed = true;
}

/** Reads the entries of the pages at `indexes` of `work` that are not read yet (one batch read). */
async function load(deps: Pick<PlatformDeps, 'db' | 'table'>, ref: RankBoard, work: WorkPage[], indexes: number[]) {
  const wanted = [...new Set(indexes)].filter((index) => index < work.length && work[index]!.entries === undefined);
  if (wanted.length === 0) return;
  const items = await readItems(
    deps,
    wanted.map((index) => headPageKey(ref.board, ref.game, ref.season, work[index]!.id)),
  );
  wanted.forEach((index, i) => {
    const item = items[i];
    const page = item && toPage(item);
    const listed = work[index]!.ref;
    if (!page || (listed && page.version !== listed.version)) {
      throw new HeadMoved(`rank head: page ${work[index]!.id} of ${ref.game} changed since its directory was read`);
    }
    work[index]!.entries = page.entries;
  });
}

/**
 * Merges each changed page under MIN_PAGE into its neighbour (the one before; the first page into the one after),
 * reading the neighbour if needed, and drops empty pages; answers the ids of the pages that are gone.
 */
async function mergeSmall(deps: Pick<PlatformDeps, 'db' | 'table'>, ref: RankBoard, work: WorkPage[]): Promise<number[]> {
  const removed: number[] = [];
  for (let index = 0; index < work.length; ) {
    const page = work[index]!;
    const small = page.changed && page.entries!.length < MIN_PAGE;
    if (!small || (work.length === 1 && page.entries!.length > 0)) {
      index++;
      continue;
    }
    if (work.length > 1) {
      const into = index > 0 ? index - 1 : index + 1;
      await load(deps, ref, work, [into]);
      const neighbour = work[into]!;
      neighbour.entries = into < index ? [...neighbour.entries!, ...page.entries!] : [...page.entries!, ...neighbour.entries!];
      neighbour.changed = true;
    }
    if (page.ref) removed.push(page.id);
    work.splice(index, 1);
    // The neighbour before may now be over MAX_PAGE (split later) or, merged into, no longer small: look again.
    if (index > 0) index--;
  }
  return removed;
}

/**
 * The items of a head built at once from standings already in board order (the bench's loader of a large board;
 * a head built so reads exactly as one built change by change): pages, top and directory.
 */
export function buildHead(deps: Pick<PlatformDeps, 'table' | 'now' | 'rankHeadSize'>, ref: RankBoard, entries: readonly PageEntry[]) {
  const size = deps.rankHeadSize ?? HEAD_SIZE;
  const perPage = Math.floor((MAX_PAGE + MIN_PAGE) / 2);
  const kept = entries.slice(0, Math.ceil(size / perPage) * perPage);
  const parts: PageEntry[][] = [];
  for (let start = 0; start < kept.length; start += perPage) parts.push(kept.slice(start, start + perPage));
  const pages: PageRef[] = parts.map((part, id) => ({ id, count: part.length, version: 1, first: part[0]! }));
  const cutoff = entries[kept.length];
  const updatedAt = deps.now().toISOString();
  return [
    ...parts.map((part, id) => ({ ...headPageKey(ref.board, ref.game, ref.season, id), version: 1, data: packEntries(part) })),
    { ...headTopKey(ref.board, ref.game, ref.season), updatedAt, data: packEntries(entries.slice(0, MAX_BOARD)) },
    directoryItem(headDirectoryKey(ref.board, ref.game, ref.season), {
      ...EMPTY_DIRECTORY,
      version: 1,
      next: parts.length,
      pages,
      updatedAt,
      ...(cutoff ? { cutoff: { score: cutoff.score, at: cutoff.at, id: cutoff.id } } : {}),
    }),
  ];
}

/** How much older than the score items' read a head entry must be for its player's absence from the read to count. */
const READ_MARGIN_MS = 5_000;

/**
 * What the snapshot job puts right in a board's head, from the board's players as read from the score items at
 * `asOf` (`present`): a player the head holds twice (a change the stream skipped, then a later one applied)
 * keeps only their higher entry; an entry of a player absent from the read and older than it (a removal the
 * stream skipped) goes. Both hold whatever the stream applies meanwhile: scores only grow, so the higher entry
 * is the newer, and a player whose entry was written before the read but who was not in it has been deleted.
 * A cutoff naming such a player moves up to the head's last standing. An entry lower than the player's score now
 * is left as it is: the player's next change moves it. Every head page is read (a head is small). Answers the
 * standings taken out, a cutoff moved counting one.
 */
export async function healHead(deps: HeadDeps, ref: RankBoard, present: ReadonlySet<string>, asOf: string): Promise<number> {
  const head = await readHead(deps, ref);
  if (head.pages.length === 0) return 0;
  const items = await readItems(
    deps,
    head.pages.map((page) => headPageKey(ref.board, ref.game, ref.season, page.id)),
  );
  const readBefore = new Date(Date.parse(asOf) - READ_MARGIN_MS).toISOString();
  /** A standing older than the read whose player the read did not find: that player has left the board. */
  const left = (standing: Standing) => !present.has(standing.id) && standing.at < readBefore;
  const seen = new Set<string>();
  const stale: PageEntry[] = [];
  // In board order, a player's first entry is their highest.
  for (const entry of items.flatMap((item) => (item ? toPage(item).entries : []))) {
    if (seen.has(entry.id) || left(entry)) stale.push(entry);
    seen.add(entry.id);
  }
  for (const entry of stale) await applyHeadChanges(deps, ref, [{ id: entry.id, before: entry }]);
  // A cutoff naming a player who has left the board (a removal the stream skipped) moves to the head's last standing.
  const cutoff = head.cutoff;
  const cutoffGone = cutoff !== undefined && left(cutoff);
  if (cutoffGone) await applyHeadChanges(deps, ref, [{ id: cutoff.id, before: cutoff }]);
  return stale.length + (cutoffGone ? 1 : 0);
}
