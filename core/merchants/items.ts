import { anyKey, exactly, type ItemKind, itemKind, startsWith } from '../platform/item-kinds.js';
import { AccountItem, PairItem } from './accounts.js';
import { ACCOUNT_PREFIX, ACCOUNT_SORT, LOGIN_THROTTLE_PREFIX, MERCHANT_PREFIX, MERCHANT_SORT } from './keys.js';
import { StoredMerchant } from './merchants.js';

/**
 * Every kind the merchants domain declares (core/platform/item-kinds.ts): a console account (its email), a merchant
 * and the failed logins of an email and a source, a studio's people, never a player. A console account's `type` is
 * `account`, as a player's account's is: each domain declares its own.
 *
 * A merchant is in "merchant by integer id" (gsi1) and "merchants of a status" (gsi2, which merchants made before it
 * lack until `backfill-indexes` or their next status change): its model leaves the index keys out (review.ts's
 * ListedMerchant, which reads it from gsi2 only, needs the index's sort key). The login throttle is
 * one kind under three keys: an email's failures from a source (sk `SOURCE#…`) and its hour (sk `WINDOW#…`), and a
 * source's hour (pk `LOGINSOURCE#…`); each parses with the pair's model, all of whose attributes are optional.
 */
export const ITEM_KINDS: readonly ItemKind<never>[] = [
  itemKind({
    name: 'console account',
    type: 'account',
    keys: { pk: startsWith(ACCOUNT_PREFIX), sk: exactly(ACCOUNT_SORT) },
    model: AccountItem,
    player: { holdsNoPlayerData: true },
  }),
  itemKind({
    name: 'merchant',
    type: 'merchant',
    keys: { pk: startsWith(MERCHANT_PREFIX), sk: exactly(MERCHANT_SORT) },
    indexes: ['gsi1', 'gsi2'],
    model: StoredMerchant,
    player: { holdsNoPlayerData: true },
  }),
  itemKind({
    name: 'login throttle',
    type: 'login-throttle',
    keys: { pk: startsWith(LOGIN_THROTTLE_PREFIX), sk: anyKey },
    model: PairItem,
    player: { holdsNoPlayerData: true },
  }),
];
