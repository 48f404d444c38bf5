import { readItems } from '../platform/batch.js';
import type { PlatformDeps } from '../platform/deps.js';
import { platformError } from '../platform/errors.js';
import { standingOf } from './boards.js';
import { rankDirectoryKey, rankPageKey, scoreKey } from './keys.js';
import type { PlayerRank, RankAroundQuery, RankedEntry } from './models.js';
import type { Standing } from './order.js';
import { type Directory, type PageEntry, type RankBoard, pageOf, placeAmong, toDirectory, toPage } from './rank-pages.js';
import { toScoreItem } from './reports.js';
import { seasonNamed } from './season-named.js';
import { monthOf, seasonKey, weekOf } from './seasons.js';
import { seasonShards } from './shards.js';

/** Rounds of reads a rank read makes when batches keep landing between its reads, before it answers 503. */
const READ_ROUNDS = 3;

/**
 * rank_around: a player's exact rank on one board, their total and the `around` players above and below, from
 * the board's rank pages (rank-pages.ts), in two BatchGetItems whatever the board's size:
 * 1. the player's score item (in their shard; consistent, so a report just answered counts) and the directory;
 * 2. the page the player's standing falls in and the pages on either side (neighbours never reach further,
 *    rank-pages.ts MIN_PAGE).
 * Each page read must be at the version the directory lists for it; when a batch landed between the two reads,
 * the directory and those pages are read again together (a third request; one more if the batch split or
 * merged the pages around the player), at most READ_ROUNDS times.
 *
 * The rank is the player's CURRENT standing placed among the other players as the pages have them (as of
 * `as_of`, the last batch applied: the stream's delay behind the reports). So a player always sees their own
 * latest total and a rank consistent with it; the others may be a batch behind. A player with no score on the
 * board is not ranked.
 */
export async function rankAround(deps: PlatformDeps, query: RankAroundQuery): Promise<PlayerRank> {
  const season =
    query.season_range === undefined
      ? (query.season_type === 1 ? weekOf : monthOf)(deps.now())
      : seasonNamed(query.season_type, query.season_range, 'query.season_range');
  const ref: RankBoard = { board: query.board, game: query.game_code, season };
  const shards = await seasonShards(deps, query.game_code, season);
  const [scoreItem, directoryItem] = await readItems(deps, [
    scoreKey(query.game_code, season, query.game_player_id, shards),
    rankDirectoryKey(ref.board, ref.game, ref.season),
  ]);
  let directory = toDirectory(directoryItem);
  const standing = scoreItem ? standingOf(query.board, toScoreItem(scoreItem)) : undefined;
  const answer = {
    game_code: query.game_code,
    board: query.board,
    season_type: season.type,
    season_range: season.range,
    game_player_id: query.game_player_id,
  };
  if (!standing || standing.score <= 0) {
    return { ...answer, ranked: false, rank: null, total: '0', above: [], below: [], players: directory.players, as_of: directory.updatedAt || null };
  }
  const pages = new Map<number, { version: number; entries: PageEntry[] }>();
  const pageKey = (id: number) => rankPageKey(ref.board, ref.game, ref.season, id);
  const keep = (ids: number[], items: (Record<string, unknown> | undefined)[]) => {
    for (const [i, id] of ids.entries()) {
      const item = items[i];
      if (item) pages.set(id, toPage(item));
      else pages.delete(id);
    }
  };
  const current = (index: number) => pages.get(directory.pages[index]!.id)?.version === directory.pages[index]!.version;
  let wanted = pagesAround(directory, standing);
  let ids = wanted.map((index) => directory.pages[index]!.id);
  keep(ids, await readItems(deps, ids.map(pageKey)));
  for (let round = 1; !wanted.every(current); round++) {
    if (round === READ_ROUNDS) {
      throw platformError('table.busy', `rank pages of ${query.game_code} ${seasonKey(season)} kept changing while read; try again shortly`, {
        retryAfterSeconds: 1,
      });
    }
    // A batch landed between the reads: the directory again, with the same pages beside it (a batch mostly
    // changes pages, seldom which pages are around the player); pages new around the player are read after.
    const [again, ...items] = await readItems(deps, [rankDirectoryKey(ref.board, ref.game, ref.season), ...ids.map(pageKey)]);
    keep(ids, items);
    directory = toDirectory(again);
    wanted = pagesAround(directory, standing);
    ids = wanted.map((index) => directory.pages[index]!.id);
    const unread = ids.filter((id) => !pages.has(id));
    if (unread.length > 0) keep(unread, await readItems(deps, unread.map(pageKey)));
  }
  return { ...answer, ...placeAmongPages(directory, wanted, pages, standing, query.around), as_of: directory.updatedAt || null };
}

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
