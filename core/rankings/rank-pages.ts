import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod/mini';
import { readItems } from '../platform/batch.js';
import type { PlatformDeps } from '../platform/deps.js';
import { failedConditionsOf, isTransactionConflict, type TransactItem } from '../platform/transactions.js';
import { type Board, rankDirectoryKey, rankLocatorKey, rankPageKey } from './keys.js';
import { compareStandings, type Standing } from './order.js';
import type { Season } from './seasons.js';

/**
 * Rank pages (docs/performance.md "A player's rank and neighbours"): every player of one board (kills or wins of
 * a game's season, all shards together) in board order, kept so that a player's exact rank is two reads away
 * whatever the board's size. The standings are cut into *pages* of at most MAX_PAGE, each one item; a
 * *directory* item lists every page in order with its count, its first standing and the version it was last
 * written at. A player's rank is the counts of the pages before theirs plus their place in their page.
 *
 * Nothing here runs in a report: the score items' changes reach `applyStandingChanges` from the table's stream
 * (rank-stream.ts), in batches. A batch's changes of one board are applied CHANGES_PER_WRITE players a
 * TransactWriteItems (its 100 items bound it) that rewrites the pages they touch, their locators and the
 * directory, on condition the directory's version is still the one read: two consumers of one board (the
 * stream's shards are read in parallel) never lose each other's changes, the loser reads again. A player's
 * reports within a batch collapse into one change, so a hot player costs one change per batch, not per report.
 *
 * Each player on the pages has a *locator* item (keys.ts) holding the standing the pages have for them, written
 * in the same transaction as the pages. A change removes the player's entry where the locator says it is, puts
 * the new standing in its page and moves the locator; so the pages never hold a player twice, whatever records
 * were missed or dropped before (the next change of the player puts them right). A change older than what the
 * locator holds is skipped (a player's score and the time it was reached only grow), so a batch delivered
 * twice, or consumers applying records out of order, change nothing.
 *
 * Pages stay between MIN_PAGE and MAX_PAGE standings (a lone page may hold fewer): a page past MAX_PAGE (or
 * MAX_PAGE_BYTES) is split in halves, one under MIN_PAGE is merged into its neighbour. MIN_PAGE is above the
 * most neighbours a read asks for (MAX_AROUND), so a player's neighbours are always within their page and the
 * pages on either side. Pages are stored compressed (deflate of their JSON): a page costs a quarter of its
 * JSON in write units.
 */
export const MAX_PAGE = 1000;
export const MIN_PAGE = 100;
/** A page's JSON past this is split whatever its count (long names), so a page item stays under 400 KB. */
const MAX_PAGE_BYTES = 256 * 1024;
/** Changes of one board applied per transaction: a locator and at most 2 pages each, splits and merges: under 100 items. */
const CHANGES_PER_WRITE = 16;
/** A transaction's size limit is 4 MB; a write above this is made in halves. */
const MAX_WRITE_BYTES = 3_500_000;
/**
 * A consumer that lost the race for a board's directory reads again and retries, WRITE_ATTEMPTS times, after a
 * random pause growing to about a transaction's length (not a request's: two consumers racing in step must fall
 * out of step). Past that the batch fails and is delivered again (the stream's retry), nothing half-written.
 */
const WRITE_ATTEMPTS = 20;
const losingPause = (attempt: number) => new Promise((resolve) => setTimeout(resolve, Math.random() * 25 * Math.min(attempt, 8)));

/** One board of one season of a game: what one directory and its pages hold. */
export interface RankBoard {
  board: Board;
  game: string;
  season: Season;
}

/** A standing on a page, with the name the board shows. */
export interface PageEntry extends Standing {
  name: string;
}

/** A player's change on a board: their standing after it (absent: off the board). */
export interface StandingChange {
  id: string;
  after?: PageEntry;
}

/** A page as the directory lists it. */
export interface PageRef {
  id: number;
  count: number;
  first: Standing;
  /** The directory version the page was last written at: a page read at another version is not this one. */
  version: number;
}

export interface Directory {
  version: number;
  /** The next page id. */
  next: number;
  pages: PageRef[];
  players: number;
  /** When the last batch was applied (ISO); '' for a board with no directory yet. */
  updatedAt: string;
}

const Packed = z.instanceof(Uint8Array);
/** "a board's rank directory" (keys.ts) as stored; `data` is the deflated JSON of its pages. */
const DirectoryItem = z.object({ version: z.number(), players: z.number(), updatedAt: z.string(), data: Packed });
const DirectoryData = z.object({
  next: z.int(),
  /** [id, count, version, first score, first at, first id] per page. */
  pages: z.array(z.tuple([z.int(), z.int(), z.int(), z.number(), z.string(), z.string()])),
});
/** "a page of a board's ranks" (keys.ts) as stored; `data` is the deflated JSON of [score, at, id, name] rows. */
const PageItem = z.object({ version: z.number(), data: Packed });
const PageData = z.array(z.tuple([z.number(), z.string(), z.string(), z.string()]));
/** "where a player stands on a board's rank pages" (keys.ts) as stored. */
const Locator = z.object({ score: z.number(), at: z.string() });

const pack = (value: unknown) => deflateRawSync(JSON.stringify(value));
const unpack = (data: Uint8Array): unknown => JSON.parse(inflateRawSync(data).toString('utf8'));

export const EMPTY_DIRECTORY: Directory = { version: 0, next: 0, pages: [], players: 0, updatedAt: '' };

/** A stored directory item read into a Directory; none is the empty board. */
export function toDirectory(item: Record<string, unknown> | undefined): Directory {
  if (!item) return EMPTY_DIRECTORY;
  const { version, players, updatedAt, data } = DirectoryItem.parse(item);
  const { next, pages } = DirectoryData.parse(unpack(data));
  return {
    version,
    next,
    players,
    updatedAt,
    pages: pages.map(([id, count, pageVersion, score, at, first]) => ({ id, count, version: pageVersion, first: { score, at, id: first } })),
  };
}

/** A stored page item read into its entries, with the version it was written at. */
export function toPage(item: Record<string, unknown>): { version: number; entries: PageEntry[] } {
  const { version, data } = PageItem.parse(item);
  return { version, entries: PageData.parse(unpack(data)).map(([score, at, id, name]) => ({ score, at, id, name })) };
}

/** The index of the page a standing belongs to: the last whose first standing is not below it (0 if none is). */
export function pageOf(pages: readonly PageRef[], standing: Standing): number {
  let [low, high, found] = [0, pages.length - 1, 0];
  while (low <= high) {
    const middle = (low + high) >> 1;
    if (compareStandings(pages[middle]!.first, standing) <= 0) {
      found = middle;
      low = middle + 1;
    } else high = middle - 1;
  }
  return found;
}

/** Where `standing` goes among `entries` (sorted): the count of entries above it. */
export function placeAmong(entries: readonly Standing[], standing: Standing): number {
  let [low, high] = [0, entries.length];
  while (low < high) {
    const middle = (low + high) >> 1;
    if (compareStandings(entries[middle]!, standing) < 0) low = middle + 1;
    else high = middle;
  }
  return low;
}

export async function readDirectory(deps: Pick<PlatformDeps, 'db' | 'table'>, ref: RankBoard): Promise<Directory> {
  const key = rankDirectoryKey(ref.board, ref.game, ref.season);
  const out = await deps.db.send(new GetCommand({ TableName: deps.table, Key: key, ConsistentRead: true }));
  return toDirectory(out.Item);
}

/**
 * Applies one board's changes (of any number of players, in the order they happened): the changes of one player
 * collapse into their last, then are written CHANGES_PER_WRITE players a transaction.
 */
export async function applyStandingChanges(
  deps: Pick<PlatformDeps, 'db' | 'table' | 'now'>,
  ref: RankBoard,
  changes: readonly StandingChange[],
): Promise<void> {
  const collapsed = [...new Map(changes.map((change) => [change.id, change])).values()];
  for (let start = 0; start < collapsed.length; start += CHANGES_PER_WRITE) {
    await applyInOneWrite(deps, ref, collapsed.slice(start, start + CHANGES_PER_WRITE));
  }
}

/** One transaction of changes, retried while another consumer moves the directory first; halved when too big. */
async function applyInOneWrite(deps: Pick<PlatformDeps, 'db' | 'table' | 'now'>, ref: RankBoard, changes: StandingChange[]): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    const directory = await readDirectory(deps, ref);
    const writes = await plan(deps, ref, directory, changes);
    if (writes.length === 0) return;
    const bytes = writes.reduce((sum, write) => sum + ((write.Put?.Item?.data as Uint8Array | undefined)?.length ?? 0), 0);
    if ((writes.length > 100 || bytes > MAX_WRITE_BYTES) && changes.length > 1) {
      const half = Math.ceil(changes.length / 2);
      await applyInOneWrite(deps, ref, changes.slice(0, half));
      await applyInOneWrite(deps, ref, changes.slice(half));
      return;
    }
    try {
      await deps.db.send(new TransactWriteCommand({ TransactItems: writes }));
      return;
    } catch (error) {
      // The directory's version moved (its condition failed) or another consumer's transaction was in flight.
      const moved = failedConditionsOf(error).length > 0;
      if ((!moved && !isTransactionConflict(error)) || attempt === WRITE_ATTEMPTS) throw error;
    }
    await losingPause(attempt);
  }
}

/** A page while a batch is applied: its entries once read, and whether they changed. */
interface WorkPage {
  id: number;
  ref?: PageRef;
  entries?: PageEntry[];
  changed: boolean;
}

/** A change to apply, with where the pages have the player now (their locator). */
interface Located {
  change: StandingChange;
  was?: Standing;
}

/** Is `after` older than the standing the pages hold? Scores and the time they were reached only grow. */
const older = (after: Standing, was: Standing) => after.score < was.score || after.at < was.at;

/** The changes that move something, each with the player's standing on the pages now (one batch read). */
async function locate(deps: Pick<PlatformDeps, 'db' | 'table'>, ref: RankBoard, changes: StandingChange[]): Promise<Located[]> {
  const items = await readItems(
    deps,
    changes.map((change) => rankLocatorKey(ref.board, ref.game, ref.season, change.id)),
  );
  return changes.flatMap((change, i): Located[] => {
    const item = items[i];
    const was = item ? { ...Locator.parse(item), id: change.id } : undefined;
    if (!was && !change.after) return [];
    if (was && change.after && older(change.after, was)) return [];
    return [{ change, was }];
  });
}

/** The writes that apply `changes` to the board as `directory` has it: pages put or deleted, locators, the directory. */
async function plan(
  deps: Pick<PlatformDeps, 'db' | 'table' | 'now'>,
  ref: RankBoard,
  directory: Directory,
  changes: StandingChange[],
): Promise<TransactItem[]> {
  const located = await locate(deps, ref, changes);
  if (located.length === 0) return [];
  const work: WorkPage[] = directory.pages.map((page) => ({ id: page.id, ref: page, changed: false }));
  let next = directory.next;
  if (work.length === 0) work.push({ id: next++, entries: [], changed: true });
  // Pages are placed by the directory's first standings, fixed for the whole batch: each page keeps the range
  // between its first standing and the next page's, whatever the batch moves.
  const placeOf = (standing: Standing) => (directory.pages.length === 0 ? 0 : pageOf(directory.pages, standing));
  const touched = new Set<number>();
  for (const { change, was } of located) {
    if (was) touched.add(placeOf(was));
    if (change.after) touched.add(placeOf(change.after));
  }
  await load(deps, ref, work, [...touched]);
  for (const { change, was } of located) {
    if (was) drop(work[placeOf(was)]!, change.id);
    if (change.after) {
      const page = work[placeOf(change.after)]!;
      drop(page, change.id);
      page.entries!.splice(placeAmong(page.entries!, change.after), 0, change.after);
      page.changed = true;
    }
  }
  const removed = await mergeSmall(deps, ref, work);
  const pages: WorkPage[] = [];
  for (const page of work) {
    if (!page.changed) {
      pages.push(page);
      continue;
    }
    for (const [index, part] of split(page.entries!).entries())
      pages.push(index === 0 ? { ...page, entries: part } : { id: next++, entries: part, changed: true });
  }
  return [...locatorWrites(deps, ref, located), ...writesOf(deps, ref, directory, pages, removed, next)];
}

/** Each located change's locator: the new standing, or gone with the player off the board. */
function locatorWrites(deps: Pick<PlatformDeps, 'table'>, ref: RankBoard, located: Located[]): TransactItem[] {
  return located.map(({ change }) => {
    const Key = rankLocatorKey(ref.board, ref.game, ref.season, change.id);
    return change.after
      ? { Put: { TableName: deps.table, Item: { ...Key, score: change.after.score, at: change.after.at } } }
      : { Delete: { TableName: deps.table, Key } };
  });
}

function drop(page: WorkPage, id: string) {
  const at = page.entries!.findIndex((entry) => entry.id === id);
  if (at < 0) return;
  page.entries!.splice(at, 1);
  page.changed = true;
}

/** Reads the entries of the pages at `indexes` of `work` that are not read yet (one batch read). */
async function load(deps: Pick<PlatformDeps, 'db' | 'table'>, ref: RankBoard, work: WorkPage[], indexes: number[]) {
  const wanted = indexes.filter((index) => work[index]!.entries === undefined);
  if (wanted.length === 0) return;
  const items = await readItems(
    deps,
    wanted.map((index) => rankPageKey(ref.board, ref.game, ref.season, work[index]!.id)),
  );
  wanted.forEach((index, i) => {
    const item = items[i];
    if (!item) throw new Error(`rank pages: page ${work[index]!.id} of ${ref.game} is listed but missing`);
    work[index]!.entries = toPage(item).entries;
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

/** A page's entries cut into pages of at most MAX_PAGE (and MAX_PAGE_BYTES), in equal parts. */
function split(entries: PageEntry[]): PageEntry[][] {
  const bytes = JSON.stringify(entries.map(row)).length;
  const parts = Math.max(Math.ceil(entries.length / MAX_PAGE), Math.ceil(bytes / MAX_PAGE_BYTES), 1);
  const size = Math.ceil(entries.length / parts);
  return Array.from({ length: parts }, (_, part) => entries.slice(part * size, (part + 1) * size)).filter((part) => part.length > 0 || parts === 1);
}

const row = (entry: PageEntry) => [entry.score, entry.at, entry.id, entry.name];

function writesOf(
  deps: Pick<PlatformDeps, 'table' | 'now'>,
  ref: RankBoard,
  directory: Directory,
  pages: WorkPage[],
  removed: number[],
  next: number,
): TransactItem[] {
  const version = directory.version + 1;
  const writes: TransactItem[] = [];
  const listed = pages.filter((page) => (page.entries ?? []).length > 0 || !page.changed);
  for (const page of listed) {
    if (!page.changed) continue;
    writes.push({
      Put: { TableName: deps.table, Item: { ...rankPageKey(ref.board, ref.game, ref.season, page.id), version, data: pack(page.entries!.map(row)) } },
    });
  }
  for (const id of removed) writes.push({ Delete: { TableName: deps.table, Key: rankPageKey(ref.board, ref.game, ref.season, id) } });
  const refs = listed.map((page) =>
    page.changed ? [page.id, page.entries!.length, version, page.entries![0]!] : [page.id, page.ref!.count, page.ref!.version, page.ref!.first],
  ) as [number, number, number, Standing][];
  const data = { next, pages: refs.map(([id, count, pageVersion, first]) => [id, count, pageVersion, first.score, first.at, first.id]) };
  writes.push({
    Put: {
      TableName: deps.table,
      Item: {
        ...rankDirectoryKey(ref.board, ref.game, ref.season),
        version,
        players: refs.reduce((sum, [, count]) => sum + count, 0),
        updatedAt: deps.now().toISOString(),
        data: pack(data),
      },
      ConditionExpression: directory.version === 0 ? 'attribute_not_exists(pk)' : 'version = :version',
      ...(directory.version === 0 ? {} : { ExpressionAttributeValues: { ':version': directory.version } }),
    },
  });
  return writes;
}

/**
 * The directory, pages and locators of a board built at once from standings already in board order (the bench's
 * loader of a large board; a board built so reads exactly as one built change by change): the items to put.
 */
export function buildRankPages(deps: Pick<PlatformDeps, 'table' | 'now'>, ref: RankBoard, entries: readonly PageEntry[]) {
  const size = Math.floor((MAX_PAGE + MIN_PAGE) / 2);
  const pages: WorkPage[] = [];
  for (let start = 0; start < entries.length; start += size) pages.push({ id: pages.length, entries: entries.slice(start, start + size), changed: true });
  return {
    pages: writesOf(deps, ref, EMPTY_DIRECTORY, pages, [], pages.length).map((write) => write.Put!.Item!),
    locators: locatorWrites(
      deps,
      ref,
      entries.map((entry) => ({ change: { id: entry.id, after: entry } })),
    ).map((write) => write.Put!.Item!),
  };
}
