import { PutCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod/mini';
import { canonicalType } from '../chain/names.js';
import type { ChainObject } from '../chain/types.js';
import { readItems } from '../platform/batch.js';
import type { HeroesDeps } from './deps.js';
import { heroError } from './errors.js';
import { liveObject } from './chain-reads.js';
import { requireConfig } from './heroes.js';
import { heroConfigKey, heroIdOfNft, nftCacheKey } from './keys.js';
import { objectOf } from '../shared/records.js';
import { NftDetail } from './models.js';

/** The object as nft_detail answers it (its on-chain fields). */
const CachedObject = z.lazy(() => z.pick(objectOf(NftDetail), { objectId: true, type: true, version: true, owner: true, fields: true }));

/**
 * "an NFT's on-chain fields, cached" (nftCacheKey): the object, its canonical type and when it was read. The object
 * is checked, not rebuilt: a cached answer shows it as stored (attributes in the table's order), as before.
 */
export const CachedNft = z.object({
  object: z.custom<ChainObject>((object) => CachedObject.safeParse(object).success),
  object_type: z.string(),
  fetched_at: z.string(),
});

/**
 * nft_detail: a hero NFT's on-chain fields (owner, type, version, fields as the node renders them), with its
 * hero id. Read from the full node at most once per `nftCacheSeconds` of the configuration: a read keeps the
 * object in the table (`HERONFT#<id>`/`CACHE`, TTL) and reads within that time answer from it, saying how old
 * it is (`age_seconds`, `cached`). An object that is not live or not a hero is 404 and nothing is kept; a node
 * that does not answer is 503 and nothing is written. Ownership checks never use this cache (bind reads the
 * node).
 */
export async function nftDetail(deps: HeroesDeps, objectId: string) {
  const [configItem, cacheItem] = await readItems(deps, [heroConfigKey, nftCacheKey(objectId)]);
  const config = requireConfig(configItem);
  const cache = cacheItem && CachedNft.parse(cacheItem);
  const now = deps.now();
  const heroId = heroIdOfNft(objectId);
  if (cache) {
    const fetched = new Date(cache.fetched_at);
    const age = now.getTime() - fetched.getTime();
    if (age >= 0 && age < config.nftCacheSeconds * 1000 && cache.object_type === config.heroType) {
      return { ...cache.object, fetched_at: fetched.toISOString(), age_seconds: Math.floor(age / 1000), cached: true, heroId };
    }
  }
  const object = await liveObject(deps, objectId);
  if (!object) throw heroError('hero.object_not_found', `objectId: no live object ${objectId} on chain (never created, deleted, or wrapped in another object)`);
  const type = canonicalType(object.type);
  if (type !== config.heroType) throw heroError('hero.object_not_hero', `objectId: ${objectId} is not a hero NFT (it is a ${object.type})`);
  const fetchedAt = now.toISOString();
  await deps.db.send(
    new PutCommand({
      TableName: deps.table,
      Item: {
        ...nftCacheKey(objectId),
        type: 'hero_nft_cache',
        object,
        object_type: type,
        fetched_at: fetchedAt,
        expiresAt: Math.floor(now.getTime() / 1000) + config.nftCacheSeconds,
      },
    }),
  );
  return { ...object, fetched_at: fetchedAt, age_seconds: 0, cached: false, heroId };
}
