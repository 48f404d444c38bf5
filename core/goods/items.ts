import type { Item } from '../platform/batch.js';
import { GOODS_PREFIX, GOODS_SORT } from '../access/keys.js';
import { exactly, type ItemKind, itemKind, startsWith } from '../platform/item-kinds.js';
import { LEDGER_PREFIX } from '../tickets/balances.js';
import { ledgerEntry } from '../tickets/items.js';
import { BILL_PREFIX } from '../payments/order-keys.js';
import {
  GOODS_REF,
  goodsOrderKey,
  OUTER_PREFIX,
  OUTER_SORT,
  outerKey,
  REWARD_REF,
  REWARD_SORT,
  rewardKey,
  TRACE_PREFIX,
  TRACE_SORT,
  traceKey,
  VENDOR_ORDER_PREFIX,
  VENDOR_ORDER_SORT,
} from './keys.js';
import { StoredGoods } from './goods.js';
import { OuterClaim, StoredOrder, TraceLookup } from './orders.js';
import { StoredReward } from './rewards.js';

/**
 * The goods domain's items that hold a player's data (core/platform/item-kinds.ts), each found through the player's
 * ledger entry that paid or credited it, and kept pseudonymized for the studio's accounting.
 */
const refOf = (entry: Item, ref: string) => String(entry.sk).slice(`${LEDGER_PREFIX}${ref}`.length);

export const goodsOrder = itemKind({
  name: 'vendor order',
  type: 'vendor_order',
  keys: { pk: startsWith(VENDOR_ORDER_PREFIX), sk: exactly(VENDOR_ORDER_SORT) },
  model: StoredOrder,
  player: {
    reach: { via: ledgerEntry, sortPrefix: `${LEDGER_PREFIX}${GOODS_REF}`, keysOf: (entry) => [goodsOrderKey(refOf(entry, GOODS_REF))] },
    deletion: { does: 'pseudonymized' },
    export: { section: 'vendor_orders' },
  },
});

/** A goods order's lookup items, which carry a copy of it: its trace key's and, for customGoods, the partner's outer id's. */
export const goodsOrderTraceCopy = itemKind({
  name: 'vendor order (lookup copy by trace key)',
  type: 'trace',
  keys: { pk: startsWith(TRACE_PREFIX), sk: exactly(TRACE_SORT) },
  model: TraceLookup,
  player: {
    reach: { via: goodsOrder, keysOf: (order) => (typeof order.trace_key === 'string' ? [traceKey(order.trace_key)] : []) },
    deletion: { does: 'pseudonymized' },
  },
});

export const goodsOrderOuterCopy = itemKind({
  name: 'vendor order (lookup copy by outer id)',
  type: 'outer_order',
  keys: { pk: startsWith(OUTER_PREFIX), sk: exactly(OUTER_SORT) },
  model: OuterClaim,
  player: {
    reach: {
      via: goodsOrder,
      keysOf: (order) => (typeof order.outerOrderId === 'string' && typeof order.accountId === 'string' ? [outerKey(order.accountId, order.outerOrderId)] : []),
    },
    deletion: { does: 'pseudonymized' },
  },
});

export const partnerReward = itemKind({
  name: 'reward',
  type: 'reward',
  keys: { pk: startsWith(BILL_PREFIX), sk: exactly(REWARD_SORT) },
  model: StoredReward,
  player: {
    reach: { via: ledgerEntry, sortPrefix: `${LEDGER_PREFIX}${REWARD_REF}`, keysOf: (entry) => [rewardKey(refOf(entry, REWARD_REF))] },
    deletion: { does: 'pseudonymized' },
    export: { section: 'vendor_rewards' },
  },
});

/** Every kind the goods domain declares; a goods item is a studio's catalogue entry. */
export const ITEM_KINDS: readonly ItemKind<never>[] = [
  goodsOrder,
  goodsOrderTraceCopy,
  goodsOrderOuterCopy,
  partnerReward,
  itemKind({
    name: 'goods',
    type: 'goods',
    keys: { pk: startsWith(GOODS_PREFIX), sk: exactly(GOODS_SORT) },
    indexes: ['gsi1'],
    model: StoredGoods,
    player: { holdsNoPlayerData: true },
  }),
];
