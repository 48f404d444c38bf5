import { deflateRawSync, inflateRawSync } from 'node:zlib';
import * as z from 'zod/mini';
import type { Board } from './keys.js';
import { compareStandings, type Standing } from './order.js';
import type { Season } from './seasons.js';

/**
 * Rank pages (docs/performance.md "Ranks at a studio's budget"): standings of one board (kills or wins of a
 * game's season, all shards together) in board order, cut into *pages*, each one item, and a *directory* item
 * listing every page in order with its count, its first standing and the version it was written at. A player's
 * rank is the counts of the pages before theirs plus their place in their page, and their neighbours are within
 * their page and the pages on either side: every page but a lone one holds more standings than a read asks
 * neighbours for (MAX_AROUND). Two structures are made of them: the live head (rank-head.ts) and the snapshot
 * (rank-snapshot.ts). Pages and directories are stored deflated (about a quarter of their JSON).
 */

/** One board of one season of a game. */
export interface RankBoard {
  board: Board;
  game: string;
  season: Season;
}

/** A standing on a page, with the name the board shows. */
export interface PageEntry extends Standing {
  name: string;
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
  /** When the standings were last brought up to date (ISO); '' for a board with no directory yet. */
  updatedAt: string;
  /**
   * The head's bound (rank-head.ts): every standing of the board above it is in the head, none at or below it.
   * Absent: the pages hold the whole board.
   */
  cutoff?: Standing;
}

const Packed = z.instanceof(Uint8Array);
const StandingRow = z.tuple([z.number(), z.string(), z.string()]);
/** A directory as stored (keys.ts headDirectoryKey, snapshotDirectoryKey); `data` is the deflated JSON of its pages. */
export const StoredDirectory = z.object({ version: z.number(), players: z.number(), updatedAt: z.string(), data: Packed });
const DirectoryData = z.object({
  next: z.int(),
  /** [id, count, version, first score, first at, first id] per page. */
  pages: z.array(z.tuple([z.int(), z.int(), z.int(), z.number(), z.string(), z.string()])),
  cutoff: z.optional(StandingRow),
});
/** A page as stored (keys.ts headPageKey, snapshotPageKey); `data` is the deflated JSON of [score, at, id, name] rows. */
export const StoredPage = z.object({ version: z.number(), data: Packed });
/** "a board's live head" top (keys.ts headTopKey) as stored: the first MAX_BOARD standings, deflated as a page's. */
export const StoredTop = z.object({ data: Packed });
const PageData = z.array(z.tuple([z.number(), z.string(), z.string(), z.string()]));

export const pack = (value: unknown) => deflateRawSync(JSON.stringify(value));
const unpack = (data: Uint8Array): unknown => JSON.parse(inflateRawSync(data).toString('utf8'));

export const EMPTY_DIRECTORY: Directory = { version: 0, next: 0, pages: [], players: 0, updatedAt: '' };

/** A stored directory read into a Directory; none is the empty board. */
export function toDirectory(item: Record<string, unknown> | undefined): Directory {
  if (!item) return EMPTY_DIRECTORY;
  const { version, players, updatedAt, data } = StoredDirectory.parse(item);
  const { next, pages, cutoff } = DirectoryData.parse(unpack(data));
  return {
    version,
    next,
    players,
    updatedAt,
    pages: pages.map(([id, count, pageVersion, score, at, first]) => ({ id, count, version: pageVersion, first: { score, at, id: first } })),
    ...(cutoff ? { cutoff: { score: cutoff[0], at: cutoff[1], id: cutoff[2] } } : {}),
  };
}

/** A Directory as stored under `key`. */
export function directoryItem(key: { pk: string; sk: string }, directory: Omit<Directory, 'players'>) {
  const { version, next, pages, updatedAt, cutoff } = directory;
  return {
    ...key,
    version,
    players: pages.reduce((sum, page) => sum + page.count, 0),
    updatedAt,
    data: pack({
      next,
      pages: pages.map((page) => [page.id, page.count, page.version, page.first.score, page.first.at, page.first.id]),
      ...(cutoff ? { cutoff: [cutoff.score, cutoff.at, cutoff.id] } : {}),
    }),
  };
}

/** A stored page read into its entries, with the version it was written at. */
export function toPage(item: Record<string, unknown>): { version: number; entries: PageEntry[] } {
  const { version, data } = StoredPage.parse(item);
  return { version, entries: toEntries(data) };
}

/** Entries as stored in a page's (or the head's top's) `data`. */
export const toEntries = (data: Uint8Array): PageEntry[] => PageData.parse(unpack(data)).map(([score, at, id, name]) => ({ score, at, id, name }));
/** Entries packed as a page's `data`. */
export const packEntries = (entries: readonly PageEntry[]) => pack(entries.map((entry) => [entry.score, entry.at, entry.id, entry.name]));

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

/** A page's JSON past this is split whatever its count (long names), so a page item stays far under 400 KB. */
const MAX_PAGE_BYTES = 256 * 1024;

/** Entries cut into the fewest equal parts of at most `most` entries (and MAX_PAGE_BYTES of JSON) each. */
export function splitEntries(entries: readonly PageEntry[], most: number): PageEntry[][] {
  const bytes = entries.reduce((sum, entry) => sum + entry.id.length + entry.name.length + entry.at.length + 24, 0);
  const parts = Math.max(Math.ceil(entries.length / most), Math.ceil(bytes / MAX_PAGE_BYTES), 1);
  const size = Math.ceil(entries.length / parts);
  return Array.from({ length: parts }, (_, part) => entries.slice(part * size, (part + 1) * size)).filter((part) => part.length > 0 || parts === 1);
}
