import { readItems } from '../platform/batch.js';
import type { PlatformDeps } from '../platform/deps.js';
import { platformError } from '../platform/errors.js';
import { headDirectoryKey, headPageKey, scoreKey, snapshotDirectoryKey, snapshotPageKey } from './keys.js';
import type { PlayerRank, RankAroundQuery, RankedEntry } from './models.js';
import { compareStandings, type Standing } from './order.js';
import { type Directory, type PageEntry, pageOf, placeAmong, type RankBoard, toDirectory, toPage } from './rank-pages.js';
import { toScoreItem } from './items.js';
import { seasonNamed } from './season-named.js';
import { standingOf } from './season-scores.js';
import { monthOf, seasonKey, weekOf } from './seasons.js';
import { seasonShards } from './shards.js';

/**
 * rank_around: a player's exact rank on one board, their total and the `around` players above and below, in two
 * BatchGetItems whatever the board's size (a third when a batch lands between them):
 * 1. the player's score item (in their shard; consistent, so a report just answered counts), the board's head
 *    directory and its snapshot directory;
 * 2. the page the player's standing falls in and the pages on either side (neighbours never reach further,
 *    rank-pages.ts), from the head when the head ranks the player, else from the snapshot.
 * The head ranks a player whose standing is above its last page (so the `around` below them are in it too), or
 * every player while it holds the whole board; it is a stream batch behind the reports (`standings: "live"`). The
 * others are ranked from the snapshot, exact as of its read, at most about a minute old (`standings: "snapshot"`).
 * `as_of` says when the standings were brought up to date. The player is always placed by their CURRENT standing
 * among the others, so they see their own latest total.
 *
 * Head pages are rewritten in place: a page read at another version than its directory's means a batch landed
 * between the reads, and the directory and those pages are read again together (the third request); if a batch
 * lands between those too, 503 `table.busy`. Snapshot pages never change: a page the directory names is read as
 * named (its directory is replaced before superseded pages are deleted, seconds later).
 */
export async function rankAround(deps: PlatformDeps, query: RankAroundQuery): Promise<PlayerRank> {
  const season =
    query.season_range === undefined
      ? (query.season_type === 1 ? weekOf : monthOf)(deps.now())
      : seasonNamed(query.season_type, query.season_range, 'query.season_range');
  const ref: RankBoard = { board: query.board, game: query.game_code, season };
  const shards = await seasonShards(deps, query.game_code, season);
  const [scoreItem, headItem, snapshotItem] = await readItems(deps, [
    scoreKey(query.game_code, season, query.game_player_id, shards),
    headDirectoryKey(ref.board, ref.game, ref.season),
    snapshotDirectoryKey(ref.board, ref.game, ref.season),
  ]);
  const head = toDirectory(headItem);
  const snapshot = toDirectory(snapshotItem);
  const standing = scoreItem ? standingOf(query.board, toScoreItem(scoreItem)) : undefined;
  const answer = {
    game_code: query.game_code,
    board: query.board,
    season_type: season.type,
    season_range: season.range,
    game_player_id: query.game_player_id,
  };
  // A head that holds the whole board answers for all; else the snapshot has the board's count (a head not
  // written yet, its records not applied, holds none of it).
  const whole = (head.cutoff === undefined && head.pages.length > 0) || snapshot.pages.length === 0 ? head : snapshot;
  if (!standing || standing.score <= 0) {
    return { ...answer, ranked: false, rank: null, total: '0', above: [], below: [], players: whole.players, ...asOf(whole === head, whole) };
  }
  // Without a snapshot, a head that was never trimmed still ranks everyone (an empty board: the player alone).
  const live = ranksLive(head, standing) || (snapshot.pages.length === 0 && head.cutoff === undefined);
  if (!live && snapshot.pages.length === 0) {
    throw platformError('table.busy', `ranks of ${query.game_code} ${seasonKey(season)}: the board's first snapshot is being taken; try again shortly`, {
      retryAfterSeconds: 60,
    });
  }
  const directory = live ? head : snapshot;
  const pageKey = (id: number) => (live ? headPageKey : snapshotPageKey)(ref.board, ref.game, ref.season, id);
  const wanted = pagesAround(directory, standing);
  const ids = wanted.map((index) => directory.pages[index]!.id);
  const pages = new Map<number, { version: number; entries: PageEntry[] }>();
  const keep = (read: number[], items: (Record<string, unknown> | undefined)[]) => {
    for (const [i, id] of read.entries()) if (items[i]) pages.set(id, toPage(items[i]!));
  };
  keep(ids, await readItems(deps, ids.map(pageKey)));
  const current = (at: Directory) => (index: number) => pages.get(at.pages[index]!.id)?.version === at.pages[index]!.version;
  // The board's count: the pages' own when they hold the whole board, else (a trimmed head) the snapshot's.
  const placed = (at: Directory, indexes: number[]) => ({
    ...placeAmongPages(at, indexes, pages, standing, query.around),
    players: at.cutoff === undefined || snapshot.pages.length === 0 ? at.players : snapshot.players,
  });
  if (wanted.every(current(directory))) return { ...answer, ...placed(directory, wanted), ...asOf(live, directory) };
  // A batch landed between the reads: the directory again, with the same pages beside it (a batch mostly changes
  // pages, seldom which pages are around the player).
  const [again, ...items] = await readItems(deps, [(live ? headDirectoryKey : snapshotDirectoryKey)(ref.board, ref.game, ref.season), ...ids.map(pageKey)]);
  pages.clear();
  keep(ids, items);
  const moved = toDirectory(again);
  const around = pagesAround(moved, standing);
  if (!around.every(current(moved))) {
    throw platformError('table.busy', `rank pages of ${query.game_code} ${seasonKey(season)} kept changing while read; try again shortly`, {
      retryAfterSeconds: 1,
    });
  }
  return { ...answer, ...placed(moved, around), ...asOf(live, moved) };
}

/** Does the head rank `standing`: the whole board is in it, or the standing is above its last page? */
function ranksLive(head: Directory, standing: Standing): boolean {
  if (head.pages.length === 0) return false;
  if (head.cutoff === undefined) return true;
  return head.pages.length > 1 && compareStandings(standing, head.pages.at(-1)!.first) < 0;
}

const asOf = (live: boolean, directory: Directory) => ({
  as_of: directory.updatedAt || null,
  standings: live ? ('live' as const) : ('snapshot' as const),
});

/** The indexes of the pages a standing's neighbours can be on: its page and the ones on either side. */
function pagesAround(directory: Directory, standing: Standing): number[] {
  if (directory.pages.length === 0) return [];
  const at = pageOf(directory.pages, standing);
  return [at - 1, at, at + 1].filter((index) => index >= 0 && index < directory.pages.length);
}

function placeAmongPages(
  directory: Directory,
  wanted: number[],
  pages: Map<number, { entries: PageEntry[] }>,
  standing: Standing,
  around: number,
): Pick<PlayerRank, 'ranked' | 'rank' | 'total' | 'above' | 'below' | 'players'> {
  const first = wanted[0] ?? 0;
  const before = directory.pages.slice(0, first).reduce((sum, page) => sum + page.count, 0);
  // The player's own entry as the pages have it is an older standing of theirs (scores only grow, so it is
  // never above the current one): the player is placed by their current standing instead.
  const others = wanted.flatMap((index) => pages.get(directory.pages[index]!.id)!.entries).filter((entry) => entry.id !== standing.id);
  const place = placeAmong(others, standing);
  const entry = (row: PageEntry, rank: number): RankedEntry => ({ rank, total: String(row.score), game_player_id: row.id, game_player_name: row.name });
  const above = others.slice(Math.max(0, place - around), place).map((row, i, list) => entry(row, before + place - list.length + i + 1));
  const below = others.slice(place, place + around).map((row, i) => entry(row, before + place + i + 2));
  return {
    ranked: true,
    rank: before + place + 1,
    total: String(standing.score),
    above,
    below,
    players: directory.players,
  };
}
