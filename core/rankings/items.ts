import * as z from 'zod/mini';
import type { Item } from '../platform/batch.js';
import { type ItemKind, itemKind } from '../platform/item-kinds.js';
import { PLAYER_ITEMS_INDEX, playerItemsPartition } from '../platform/players.js';

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

export const score = itemKind({
  name: 'score',
  player: { reach: playerItems('SCORE'), deletion: { does: 'deleted' }, export: { section: 'scores', record: exportedScore } },
});

export const result = itemKind({ name: 'result', player: { reach: playerItems('RESULT'), deletion: { does: 'pseudonymized' } } });

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

/**
 * Every kind the boards declare (none of their items has a `type`); a season to settle names a game and a season. The
 * boards' heads and snapshots, which list players' ids and names, have no declaration: a deletion takes the player
 * off them (core/privacy/rank-pages.ts), no reach finds them.
 */
export const ITEM_KINDS: readonly ItemKind<never>[] = [score, result, itemKind({ name: 'season to settle', player: { holdsNoPlayerData: true } })];
