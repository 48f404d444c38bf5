import * as z from 'zod/mini';
import type { Item } from '../platform/batch.js';
import type { Season } from '../rankings/seasons.js';
import type { StoredRules } from './rules.js';

/**
 * "a player's tier in a game's league" (keys.ts tierKey) as stored: the tier (1 the lowest) the player starts the
 * season beginning at `from` in, as the settlement of the season before it wrote it. A player with none starts in
 * the league's start tier.
 */
export const StoredTier = z.object({ game_code: z.string(), tier: z.int(), from: z.string() });
export type StoredTier = z.infer<typeof StoredTier>;

const WEEK = 7 * 86_400_000;

/** How many seasons of the kind begin from `from` (inclusive) to `to` (exclusive). */
function seasonsBetween(type: 1 | 2, from: Date, to: Date): number {
  if (to <= from) return 0;
  if (type === 1) return Math.round((to.getTime() - from.getTime()) / WEEK);
  return (to.getUTCFullYear() - from.getUTCFullYear()) * 12 + (to.getUTCMonth() - from.getUTCMonth());
}

/**
 * The player's tier in `season`. Settlement writes the tier of each player who played the season, for the next
 * one; a player who plays none of the seasons after it is idle in each, and drops `idle_drop` tiers per idle season
 * (never below the lowest). That drop is counted here, when the player is next seen, not written for every idle
 * player at every season's end: a league's idle players cost nothing.
 */
export function tierIn(rules: StoredRules, season: Season, stored: Item | undefined): number {
  const top = rules.tiers.length;
  if (!stored) return Math.min(rules.start_tier, top);
  const state = StoredTier.parse(stored);
  const idle = seasonsBetween(rules.season_type, new Date(state.from), season.start);
  return Math.max(1, Math.min(top, state.tier - idle * rules.idle_drop));
}
