import * as z from 'zod/mini';
import type { Item } from '../platform/batch.js';
import { anyKey, exactly, type ItemKind, itemKind, startsWith } from '../platform/item-kinds.js';
import { PLAYER_ITEMS_INDEX, playerItemsPartition } from '../platform/players.js';
import {
  HEAD_DIRECTORY_SORT_KEY,
  HEAD_TOP_SORT_KEY,
  OPEN_SEASONS,
  RANK_PAGE_SORT_KEY,
  RANKS_PREFIX,
  RESULT_PREFIX,
  RESULT_SORT_KEY,
  SCORE_PLAYER_PREFIX,
  SCORE_PREFIX,
  SNAPSHOT_DIRECTORY_SORT_KEY,
} from './keys.js';
import { StoredResult } from './models.js';
import { StoredOpenSeason } from './open-seasons.js';
import { StoredDirectory, StoredPage, StoredTop } from './rank-pages.js';

/**
 * The boards' items that hold a player's data (core/platform/item-kinds.ts), both keyed by something else (a game's
 * season, a result id) and found through "a player's items that no key leads to". A score goes with the player (the
 * boards' heads and snapshots follow a moment later: core/privacy/rank-pages.ts); a result, which counts once and
 * names the player in its answer, stays pseudonymized.
 */
/**
 * "a player's score in a season" (keys.ts scoreKey): a score item as stored. `kills`/`wins` are absent (0) until
 * the first report that adds some; a name never given reads ''. `gsi4sk`/`gsi5sk` hold the scores an item had
 * when reports still wrote them there (keys.ts): they count in its totals.
 */
export const StoredScore = z.object({
  game_code: z.string(),
  season_type: z.number(),
  season_range: z.string(),
  game_player_id: z.string(),
  game_player_name: z._default(z.string(), ''),
  wallet_address: z.optional(z.string()),
  kills: z._default(z.number(), 0),
  wins: z._default(z.number(), 0),
  gsi4sk: z._default(z.number(), 0),
  gsi5sk: z._default(z.number(), 0),
  killsAt: z.optional(z.string()),
  winsAt: z.optional(z.string()),
});

/** A score item as stored, read back with its totals (the rank keeping and settlement read these). */
export interface ScoreItem extends Omit<z.infer<typeof StoredScore>, 'gsi4sk' | 'gsi5sk' | 'killsAt' | 'winsAt'> {
  kills: number;
  wins: number;
  killsAt?: string;
  winsAt?: string;
}

export function toScoreItem(item: Record<string, unknown>): ScoreItem {
  const { gsi4sk, gsi5sk, kills, wins, killsAt, winsAt, ...player } = StoredScore.parse(item);
  return {
    ...player,
    kills: kills + gsi4sk,
    wins: wins + gsi5sk,
    ...(killsAt === undefined ? {} : { killsAt }),
    ...(winsAt === undefined ? {} : { winsAt }),
  };
}

const playerItems = (kind: 'SCORE' | 'RESULT') =>
  ({ index: PLAYER_ITEMS_INDEX, partition: ({ uid }: { uid: string }) => playerItemsPartition(uid), sortEquals: kind, keysOnly: true }) as const;

/**
 * A score item, in a season's partition or one of its shards (keys.ts scoreKey). Its index entries: the player's
 * items (gsi6), a league's cohort once placed in one (gsi3, core/leagues/placement.ts), and the boards' indexes
 * of the layout before the ranks were kept from the stream (gsi4/gsi5: their sort keys stay, holding scores).
 */
export const score = itemKind({
  name: 'score',
  keys: { pk: startsWith(SCORE_PREFIX), sk: startsWith(SCORE_PLAYER_PREFIX) },
  indexes: ['gsi3', 'gsi4', 'gsi5', PLAYER_ITEMS_INDEX],
  model: StoredScore,
  player: { reach: playerItems('SCORE'), deletion: { does: 'deleted' }, export: { section: 'scores', record: exportedScore } },
});

/** A result record (keys.ts resultKey): in the player's items (gsi6) when its answer names one (addWin's). */
export const result = itemKind({
  name: 'result',
  keys: { pk: startsWith(RESULT_PREFIX), sk: exactly(RESULT_SORT_KEY) },
  indexes: [PLAYER_ITEMS_INDEX],
  model: StoredResult,
  player: { reach: playerItems('RESULT'), deletion: { does: 'pseudonymized' } },
});

/** A score as the player's export shows it: the season, the name on the board, the totals and the wallet given. */
function exportedScore(item: Item) {
  const stored = toScoreItem(item);
  return {
    game_code: stored.game_code,
    season_type: stored.season_type,
    season_range: stored.season_range,
    name: stored.game_player_name,
    kills: stored.kills,
    wins: stored.wins,
    wallet_address: stored.wallet_address ?? null,
  };
}

/** A board's head and snapshot (rank-pages.ts) hold players' ids, and pages and the top their names on the board too. */
const takenOffByLeaveBoards = {
  ownFlow:
    "leaveBoards (core/rankings/leave-boards.ts), run by a deletion's sweep through core/privacy/rank-pages.ts leaveRankPages for the seasons of the player's score items, takes the player off each of those boards' head (pages, top, directory) and snapshot; an item lists many players and is keyed by its board, which neither the player's id nor their address leads to.",
} as const;

/**
 * Every kind the boards declare (none of their items has a `type`); a season to settle names a game and a season.
 * A head's pages and a snapshot's are one kind: both are a board's partition with a page id after it (`#P<id>`,
 * `#S<id>`), which no key prefix tells apart.
 */
export const ITEM_KINDS: readonly ItemKind<never>[] = [
  score,
  result,
  itemKind({
    name: 'season to settle',
    // The sort key begins with the season's end, an ISO instant.
    keys: { pk: exactly(OPEN_SEASONS), sk: anyKey },
    model: StoredOpenSeason,
    player: { holdsNoPlayerData: true },
  }),
  itemKind({
    name: 'board head directory',
    keys: { pk: startsWith(RANKS_PREFIX), sk: exactly(HEAD_DIRECTORY_SORT_KEY) },
    model: StoredDirectory,
    player: takenOffByLeaveBoards,
  }),
  itemKind({ name: 'board top', keys: { pk: startsWith(RANKS_PREFIX), sk: exactly(HEAD_TOP_SORT_KEY) }, model: StoredTop, player: takenOffByLeaveBoards }),
  itemKind({
    name: 'board snapshot directory',
    keys: { pk: startsWith(RANKS_PREFIX), sk: exactly(SNAPSHOT_DIRECTORY_SORT_KEY) },
    model: StoredDirectory,
    player: takenOffByLeaveBoards,
  }),
  itemKind({ name: 'rank page', keys: { pk: startsWith(RANKS_PREFIX), sk: exactly(RANK_PAGE_SORT_KEY) }, model: StoredPage, player: takenOffByLeaveBoards }),
];
