import { open, storeAuth } from '../../core/http/auth.js';
import type { OperationSpec } from '../../core/http/operation.js';
import {
  AdoptBody,
  Adopted,
  Currencies,
  Fed,
  FeedBody,
  FeedLog,
  FeedLogQuery,
  GrantBody,
  GrantResult,
  ItemBalances,
  PetList,
  PetRank,
  PremiumBalance,
  RankQuery,
} from '../../core/partner-store/models.js';
import { ADOPTION_PRICE, FEED_COOLDOWN_SECONDS, LEVEL_XP } from '../../core/partner-store/pets.js';
import { regionPath, type StoreRegion } from '../../core/partner-store/regions.js';
import { batchRead } from './errors.js';

/**
 * The partner store's own records, per region (functions/routes/partner-store.ts puts them in the group beside
 * the authorization server): currencies, items, the partner's grants and the pet mini-game.
 */
export function storeGameOps(region: StoreRegion) {
  const at = regionPath(region);
  const suffix = region === 'default' ? '' : `-${region}`;
  const which = region === 'default' ? 'the default region' : `the ${region} region`;
  return {
    currencies_list: {
      name: `currencies_list${suffix}`,
      method: 'GET',
      path: `${at}/currencies`,
      auth: open,
      tableFree: true,
      summary: `The store's currencies (${which})`,
      description: '`coin` (soft) and `gem` (premium). Balances are integers.',
      status: 200,
      envelope: 'bare',
      response: Currencies,
      errors: {},
    },
    premium_balance: {
      name: `premium-currencies-balance${suffix}`,
      method: 'GET',
      path: `${at}/currencies/premium/balance`,
      auth: storeAuth({ region, session: true, scope: 'currencies' }),
      summary: `The user's premium currency balance (${which})`,
      status: 200,
      envelope: 'bare',
      response: PremiumBalance,
      errors: {},
    },
    item_balances: {
      name: `balances_item_balance${suffix}`,
      method: 'GET',
      path: `${at}/balances/items`,
      auth: storeAuth({ region, session: true, scope: 'items' }),
      summary: `The user's item balances, every item of the catalogue (${which})`,
      status: 200,
      envelope: 'bare',
      response: ItemBalances,
      errors: {},
    },
    grant: {
      name: `store grant${suffix}`,
      method: 'POST',
      path: `${at}/grants`,
      auth: storeAuth({ region, client: true, scope: 'grants' }),
      summary: `A partner backend credits a store user with currencies and items (${which})`,
      description:
        'With the partner backend\'s own token (client_credentials, scope `grants`). Amounts are positive integers; once per (client, `reference`): the same request again answers the first answer and credits nothing; the reference with another body is 422.',
      body: GrantBody,
      status: 200,
      envelope: 'bare',
      response: GrantResult,
      errors: {
        400: 'a field is missing or malformed, or nothing to grant',
        404: 'no store user with that uid in this region',
        409: 'concurrent changes of the same balances kept cancelling the grant, or a grant with this reference is still running; retry (nothing was written)',
        422: 'the reference was used for another grant of this client',
        ...batchRead,
      },
    },
    adopt_pet: {
      name: `adopt_pet${suffix}`,
      method: 'POST',
      path: `${at}/pets/adopt`,
      auth: storeAuth({ region, session: true, scope: 'pets' }),
      summary: `Adopt a pet: the first is free, each later one costs ${ADOPTION_PRICE} gems (${which})`,
      description: `One transaction: the user's adoption count (on condition it is as read), the payment (on condition the gem balance covers it) and the pet, so each pet is paid exactly once however many adoptions race. \`paid\` is what it cost.`,
      body: AdoptBody,
      headers: { 'Idempotency-Key': "the user's key for this adoption (1-128 of [A-Za-z0-9_.:-]): a retry adopts once and answers the first answer" },
      status: 201,
      envelope: 'bare',
      response: Adopted,
      errors: {
        400: 'name or species missing or malformed',
        409: `the gem balance is short of ${ADOPTION_PRICE}, or another adoption of the user happened meanwhile (retry)`,
        422: 'the Idempotency-Key was used for another request',
        ...batchRead,
      },
    },
    pet_query: {
      name: `pet_query${suffix}`,
      method: 'GET',
      path: `${at}/pets`,
      auth: storeAuth({ region, session: true, scope: 'pets' }),
      summary: `The user's pets (${which})`,
      status: 200,
      envelope: 'bare',
      response: PetList,
      errors: {},
    },
    feed_pet: {
      name: `feed_pet${suffix}`,
      method: 'POST',
      path: `${at}/pets/feed`,
      auth: storeAuth({ region, session: true, scope: 'pets' }),
      summary: `Feed a pet: food items are eaten, experience added, the level follows (${which})`,
      description: `Each food gives its experience (kibble 10, fish 25, cake 60) per unit; levels need ${LEVEL_XP.join(', ')} experience in all (up to level ${LEVEL_XP.length}). A pet eats at most once every ${FEED_COOLDOWN_SECONDS} s. One transaction: the pet (on condition it is as read), the food taken (never below zero), its ledger entry, the feeding's log entry.`,
      body: FeedBody,
      headers: { 'Idempotency-Key': "the user's key for this feeding: a retry feeds once and answers the first answer (even within the cooldown)" },
      status: 200,
      envelope: 'bare',
      response: Fed,
      errors: {
        400: 'petId, item or amount missing or malformed, or the item is not food',
        404: 'no such pet of the user',
        409: 'the pet was fed less than the cooldown ago (or meanwhile), or the user holds less of the food',
        422: 'the Idempotency-Key was used for another request',
        ...batchRead,
      },
    },
    feed_log: {
      name: `feed_log${suffix}`,
      method: 'GET',
      path: `${at}/pets/feed-log`,
      auth: storeAuth({ region, session: true, scope: 'pets' }),
      summary: `The user's feedings, newest first (${which})`,
      description: '`page` is zero-based, `pageSize` 1-100 (default 20); `hasMore` says whether a later page has entries. One Query.',
      query: FeedLogQuery,
      status: 200,
      envelope: 'bare',
      response: FeedLog,
      errors: { 400: 'page or pageSize malformed' },
    },
    rank: {
      name: `rank${suffix}`,
      method: 'GET',
      path: `${at}/pets/rank`,
      auth: open,
      summary: `The region's pets by level, then experience (${which})`,
      description: 'The top `limit` (1-100, default 20) pets of the region, with their names and species only. One Query of the board index.',
      query: RankQuery,
      status: 200,
      envelope: 'bare',
      response: PetRank,
      errors: { 400: 'limit malformed' },
    },
  } satisfies Record<string, OperationSpec>;
}
