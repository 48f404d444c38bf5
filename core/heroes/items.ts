import { DomainError } from '../platform/errors.js';
import type { Item } from '../platform/batch.js';
import { exactly, type ItemKind, itemKind, startsWith } from '../platform/item-kinds.js';
import { PLAYER_ITEMS_INDEX, playerItemsPartition } from '../platform/players.js';
import { StoredBinding, unbindNft } from './bindings.js';
import type { HeroesDeps } from './deps.js';
import { StoredHero, StoredHeroConfig } from './heroes.js';
import { USER_PREFIX, userPartition } from '../identity/keys.js';
import { GRANT_PREFIX, GRANT_SORT, HERO_PREFIX, heroConfigKey, NFT_BINDING_SORT, NFT_CACHE_SORT, NFT_PREFIX } from './keys.js';
import { CachedNft } from './nft.js';
import { StoredGrant } from './roster.js';

/**
 * The hero game's items that hold a player's data (core/platform/item-kinds.ts). A hero bound from an NFT is
 * released first (unbound: the binding keeps its level, as an unbind does), then goes with the player's partition;
 * a server's grant record, which names the player, goes.
 */
export const hero = itemKind({
  name: 'hero',
  type: 'hero',
  keys: { pk: startsWith(USER_PREFIX), sk: startsWith(HERO_PREFIX) },
  model: StoredHero,
  player: { reach: { own: userPartition }, deletion: { does: 'released', release: releaseHero } },
});

export const heroGrant = itemKind({
  name: 'hero grant',
  type: 'hero_grant',
  keys: { pk: startsWith(GRANT_PREFIX), sk: exactly(GRANT_SORT) },
  indexes: [PLAYER_ITEMS_INDEX],
  model: StoredGrant,
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
 * An NFT's binding, which names its player while bound (`uid`). Keyed by the NFT's object id, which only the player's
 * hero names, it is no reach's: the release of that hero rewrites it without the player.
 */
export const nftBinding = itemKind({
  name: 'hero NFT binding',
  type: 'hero_nft',
  keys: { pk: startsWith(NFT_PREFIX), sk: exactly(NFT_BINDING_SORT) },
  model: StoredBinding,
  player: {
    ownFlow:
      "releaseHero (core/heroes/items.ts), which a player's deletion runs on each of their heroes, unbinds the hero's NFT (unbindNft, core/heroes/bindings.ts): the binding is put again with the hero's level and no `uid`, and no reach finds it, its key being the NFT's object id",
  },
});

/**
 * An NFT's on-chain fields as nft_detail read them, its on-chain owner among them: a wallet address, perhaps a
 * player's. Keyed by the NFT's object id, which no reach from a player follows, it expires by its TTL.
 */
export const nftCache = itemKind({
  name: 'hero NFT cache',
  type: 'hero_nft_cache',
  keys: { pk: startsWith(NFT_PREFIX), sk: exactly(NFT_CACHE_SORT) },
  model: CachedNft,
  player: {
    ownFlow:
      "nftDetail (core/heroes/nft.ts) puts it with a TTL (`expiresAt`, the configuration's nftCacheSeconds: a day at most), after which the table deletes it, so the owner address it copied from the chain goes by itself; no reach finds it, its key being the NFT's object id",
  },
});

/** Every kind the hero game declares; its configuration is the stage's. */
export const ITEM_KINDS: readonly ItemKind<never>[] = [
  hero,
  heroGrant,
  nftBinding,
  nftCache,
  itemKind({
    name: 'hero configuration',
    type: 'hero_config',
    keys: { pk: exactly(heroConfigKey.pk), sk: exactly(heroConfigKey.sk) },
    model: StoredHeroConfig,
    player: { holdsNoPlayerData: true },
  }),
];
