import { userPartition } from '../identity/keys.js';
import { type ItemKind, itemKind } from '../platform/item-kinds.js';
import { TIER_PREFIX } from './keys.js';

/**
 * The league's item that holds a player's data (core/platform/item-kinds.ts): the player's tier in a game's league,
 * in their own partition; it goes with the player, and the export shows it in its profile (core/privacy/export.ts). A player's place in a cohort is on their score item (the
 * rankings' declaration), and goes with it.
 */
export const leagueTier = itemKind({
  name: 'league tier',
  type: 'league_tier',
  player: { reach: { own: userPartition, sortPrefix: TIER_PREFIX }, deletion: { does: 'deleted' } },
});

/** Every kind the league declares; its rules, seasons and counts name games and tiers, never a player. */
export const ITEM_KINDS: readonly ItemKind<never>[] = [
  leagueTier,
  itemKind({ name: 'league rules', type: 'league_rules', player: { holdsNoPlayerData: true } }),
  itemKind({ name: 'league season to settle', type: 'league_season', player: { holdsNoPlayerData: true } }),
  itemKind({ name: 'league arrivals', type: 'league_arrivals', player: { holdsNoPlayerData: true } }),
  itemKind({ name: 'league cohort settled', type: 'league_cohort_settled', player: { holdsNoPlayerData: true } }),
];
