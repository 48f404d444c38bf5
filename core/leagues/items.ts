import { userPartition } from '../identity/keys.js';
import { itemKind } from '../platform/item-kinds.js';
import { TIER_PREFIX } from './keys.js';

/**
 * The league's item that holds a player's data (core/platform/item-kinds.ts): the player's tier in a game's league,
 * in their own partition; it goes with the player, and the export shows it in its profile (core/privacy/export.ts). A player's place in a cohort is on their score item (the
 * rankings' declaration), and goes with it.
 */
export const leagueTier = itemKind({
  name: 'league tier',
  player: { reach: { own: userPartition, sortPrefix: TIER_PREFIX }, deletion: { does: 'deleted' } },
});
