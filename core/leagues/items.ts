import { USER_PREFIX, userPartition } from '../identity/keys.js';
import { anyKey, exactly, type ItemKind, itemKind, startsWith } from '../platform/item-kinds.js';
import { ARRIVALS_PREFIX, LEAGUE_PREFIX, OPEN_LEAGUE_SEASONS, RULES_PREFIX, SETTLED_PREFIX, TIER_PREFIX } from './keys.js';
import { StoredArrivals, StoredLeagueSeason } from './placement.js';
import { StoredRules } from './rules.js';
import { StoredCohortSettled } from './settlement.js';
import { StoredTier } from './tiers.js';

/**
 * The league's item that holds a player's data (core/platform/item-kinds.ts): the player's tier in a game's league,
 * in their own partition; it goes with the player, and the export shows it in its profile (core/privacy/export.ts). A player's place in a cohort is on their score item (the
 * rankings' declaration), and goes with it.
 */
export const leagueTier = itemKind({
  name: 'league tier',
  type: 'league_tier',
  keys: { pk: startsWith(USER_PREFIX), sk: startsWith(TIER_PREFIX) },
  model: StoredTier,
  player: { reach: { own: userPartition }, deletion: { does: 'deleted' } },
});

/** Every kind the league declares; its rules, seasons and counts name games and tiers, never a player. */
export const ITEM_KINDS: readonly ItemKind<never>[] = [
  leagueTier,
  itemKind({
    name: 'league rules',
    type: 'league_rules',
    keys: { pk: startsWith(LEAGUE_PREFIX), sk: startsWith(RULES_PREFIX) },
    model: StoredRules,
    player: { holdsNoPlayerData: true },
  }),
  itemKind({
    name: 'league season to settle',
    type: 'league_season',
    // The sort key begins with the season's end, an ISO instant.
    keys: { pk: exactly(OPEN_LEAGUE_SEASONS), sk: anyKey },
    model: StoredLeagueSeason,
    player: { holdsNoPlayerData: true },
  }),
  itemKind({
    name: 'league arrivals',
    type: 'league_arrivals',
    keys: { pk: startsWith(LEAGUE_PREFIX), sk: startsWith(ARRIVALS_PREFIX) },
    model: StoredArrivals,
    player: { holdsNoPlayerData: true },
  }),
  itemKind({
    name: 'league cohort settled',
    type: 'league_cohort_settled',
    keys: { pk: startsWith(LEAGUE_PREFIX), sk: startsWith(SETTLED_PREFIX) },
    model: StoredCohortSettled,
    player: { holdsNoPlayerData: true },
  }),
];
