import type { Item } from '../platform/batch.js';
import { type ItemKind, itemKind } from '../platform/item-kinds.js';
import { LEDGER_PREFIX } from '../tickets/balances.js';
import { ledgerEntry } from '../tickets/items.js';
import { GOODS_REF, goodsOrderKey, outerKey, REWARD_REF, rewardKey, traceKey } from './keys.js';

/**
 * The goods domain's items that hold a player's data (core/platform/item-kinds.ts), each found through the player's
 * ledger entry that paid or credited it, and kept pseudonymized for the studio's accounting.
 */
const refOf = (entry: Item, ref: string) => String(entry.sk).slice(`${LEDGER_PREFIX}${ref}`.length);

export const goodsOrder = itemKind({
  name: 'vendor order',
  type: 'vendor_order',
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
  player: {
    reach: { via: goodsOrder, keysOf: (order) => (typeof order.trace_key === 'string' ? [traceKey(order.trace_key)] : []) },
    deletion: { does: 'pseudonymized' },
  },
});

export const goodsOrderOuterCopy = itemKind({
  name: 'vendor order (lookup copy by outer id)',
  type: 'outer_order',
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
  itemKind({ name: 'goods', type: 'goods', player: { holdsNoPlayerData: true } }),
];
