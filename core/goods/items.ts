import type { Item, ItemKey } from '../platform/batch.js';
import { itemKind } from '../platform/item-kinds.js';
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
  player: {
    reach: { via: ledgerEntry, sortPrefix: `${LEDGER_PREFIX}${GOODS_REF}`, keysOf: (entry) => [goodsOrderKey(refOf(entry, GOODS_REF))] },
    deletion: { does: 'pseudonymized' },
    export: { section: 'vendor_orders' },
  },
});

/** A goods order's lookup items, which carry a copy of it: its trace key's and, for customGoods, the partner's outer id's. */
export const goodsOrderCopy = itemKind({
  name: 'vendor order (lookup copy)',
  player: { reach: { via: goodsOrder, keysOf: copyKeys }, deletion: { does: 'pseudonymized' } },
});

function copyKeys(order: Item): ItemKey[] {
  const keys: ItemKey[] = [];
  if (typeof order.trace_key === 'string') keys.push(traceKey(order.trace_key));
  if (typeof order.outerOrderId === 'string' && typeof order.accountId === 'string') keys.push(outerKey(order.accountId, order.outerOrderId));
  return keys;
}

export const partnerReward = itemKind({
  name: 'reward',
  player: {
    reach: { via: ledgerEntry, sortPrefix: `${LEDGER_PREFIX}${REWARD_REF}`, keysOf: (entry) => [rewardKey(refOf(entry, REWARD_REF))] },
    deletion: { does: 'pseudonymized' },
    export: { section: 'vendor_rewards' },
  },
});
