import { DomainError } from '../platform/errors.js';
import type { Item } from '../platform/batch.js';
import { type ItemKind, itemKind } from '../platform/item-kinds.js';
import { PLAYER_ITEMS_INDEX, playerItemsPartition } from '../platform/players.js';
import { unbindNft } from './bindings.js';
import type { HeroesDeps } from './deps.js';
import { userPartition } from '../identity/keys.js';
import { HERO_PREFIX } from './keys.js';

/**
 * The hero game's items that hold a player's data (core/platform/item-kinds.ts). A hero bound from an NFT is
 * released first (unbound: the binding keeps its level, as an unbind does), then goes with the player's partition;
 * a server's grant record, which names the player, goes.
 */
export const hero = itemKind({
  name: 'hero',
  type: 'hero',
  player: { reach: { own: userPartition, sortPrefix: HERO_PREFIX }, deletion: { does: 'released', release: releaseHero } },
});

export const heroGrant = itemKind({
  name: 'hero grant',
  type: 'hero_grant',
  player: {
    reach: { index: PLAYER_ITEMS_INDEX, partition: ({ uid }) => playerItemsPartition(uid), sortEquals: 'HEROGRANT', keysOnly: true },
    deletion: { does: 'deleted' },
  },
});

/** Unbinds the hero's NFT, if it has one; true when it is released (now or by an earlier round). */
async function releaseHero(deps: HeroesDeps, uid: string, item: Item): Promise<boolean> {
  if (typeof item.nftObjectId !== 'string' || item.nftObjectId.length === 0) return true;
  try {
    await unbindNft(deps, uid, item.nftObjectId);
    return true;
  } catch (error) {
    // Released already (a crash after the unbind): the hero item goes with the partition. Any other refusal: next round.
    if (error instanceof DomainError && error.code === 'hero.not_bound') return true;
    if (error instanceof DomainError) return false;
    throw error;
  }
}

/**
 * Every kind the hero game declares; its configuration is the stage's. An NFT's binding (`hero_nft`, which names its
 * player while bound; a hero's release clears it) and its cache (`hero_nft_cache`, the object's on-chain owner) have
 * no declaration: no reach finds them from a player.
 */
export const ITEM_KINDS: readonly ItemKind<never>[] = [
  hero,
  heroGrant,
  itemKind({ name: 'hero configuration', type: 'hero_config', player: { holdsNoPlayerData: true } }),
];
