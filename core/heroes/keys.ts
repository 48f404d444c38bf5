import { createHash } from 'node:crypto';
import { userPartition } from '../identity/keys.js';

/**
 * The hero game's items in the single table (docs/data-model.md). Access patterns:
 * - "the stage's hero configuration": pk `HEROCONFIG`, sk `HEROCONFIG`;
 * - "a hero of a player" and "a player's heroes": pk `USER#<uid>`, sk `HERO#<heroId>` (begins_with `HERO#`), in
 *   the player's partition beside the ticket balances an upgrade pays from, so that an upgrade's transaction
 *   touches only the player's items;
 * - "the binding of an NFT" (which player holds it, and its level while no one does): pk `HERONFT#<objectId>`,
 *   sk `BINDING`;
 * - "an NFT's on-chain fields, cached": pk `HERONFT#<objectId>`, sk `CACHE` (TTL);
 * - "a server's grant, once per reference": pk `HEROGRANT#<accountId>#<reference>`, sk `HEROGRANT`.
 */
export const heroConfigKey = { pk: 'HEROCONFIG', sk: 'HEROCONFIG' } as const;
/** The sort key prefix of a player's heroes, in their partition. */
export const HERO_PREFIX = 'HERO#';
export const heroKey = (uid: string, heroId: string) => ({ pk: userPartition(uid), sk: `${HERO_PREFIX}${heroId}` });
/** The partition prefix of an NFT's items, and the sort keys of its binding and of its cache. */
export const NFT_PREFIX = 'HERONFT#';
export const NFT_BINDING_SORT = 'BINDING';
export const NFT_CACHE_SORT = 'CACHE';
export const nftBindingKey = (objectId: string) => ({ pk: `${NFT_PREFIX}${objectId}`, sk: NFT_BINDING_SORT });
export const nftCacheKey = (objectId: string) => ({ pk: `${NFT_PREFIX}${objectId}`, sk: NFT_CACHE_SORT });
/** The partition prefix and the sort key of a server's grant. */
export const GRANT_PREFIX = 'HEROGRANT#';
export const GRANT_SORT = 'HEROGRANT';
export const grantKey = (accountId: string, reference: string) => ({ pk: `${GRANT_PREFIX}${accountId}#${reference}`, sk: GRANT_SORT });

/** The namespace of heroes' NFT ids (a random UUID fixed for the platform). */
const NFT_NAMESPACE = Buffer.from('6f1c2a9e4b7d4c53a0e8d2f35b91c7a4', 'hex');

/**
 * The hero id of an NFT: the name-based UUID (version 5, RFC 9562 §5.5) of its object id. The same NFT is the
 * same hero whoever binds it, so its level follows it through unbinding and binding again, and a bind or an
 * unbind reads the hero by key in the same request as the binding.
 */
export function heroIdOfNft(objectId: string): string {
  const bytes = createHash('sha1').update(NFT_NAMESPACE).update(objectId).digest().subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x50;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
