import { userKey } from '../identity/accounts.js';
import { readItems, type Item, type ItemKey } from '../platform/batch.js';
import type { PlatformDeps } from '../platform/deps.js';
import { PLAYER_ITEMS_INDEX, playerItemsPartition } from '../platform/players.js';
import { queryItems } from '../platform/query.js';
import { deletionNonceKey } from './keys.js';

/**
 * Everything the table holds about one player, found by keys and indexes, never by a scan (docs/data-model.md
 * names each item; docs/security.md "Deleting a player's account" says what happens to each):
 * - the player's partition `USER#<uid>`: account, saved params, social listing, ticket balances, ledger, heroes;
 * - pay orders (gsi1 `USER_ORDERS#<uid>`) and reward history entries (gsi1 `REWARDS#<uid>`);
 * - the items no key leads to (gsi6 `PLAYER_ITEMS#<uid>`): scores, results, idempotency records, hero grants;
 * - what the wallet address leads to: its wallet and nonce items, its payment events (gsi2 `PAYER#<address>`)
 *   and the stranded records of those payments;
 * - what the ledger leads to: vendor goods orders (`goods#<id>`) with their trace and outer-id copies, vendor
 *   rewards (`reward#<billNo>`);
 * - the social accounts the listing names (`SOCIAL#<provider>#<id>`).
 */
export interface Footprint {
  user: Item[];
  orders: Item[];
  history: Item[];
  /** The items the index leads to (it projects only keys: they are read by key), `gsi6sk` their kind. */
  indexed: Item[];
  payments: Item[];
  stranded: Item[];
  vendorOrders: Item[];
  vendorRewards: Item[];
  social: Item[];
  wallet: Item[];
}

/** The player's own partition (identity's account key's). */
export const userPartition = (uid: string) => userKey(uid).pk;
const skOf = (item: Item) => String(item.sk);

/** The player's items; `address` is the wallet address the account had (kept by a deletion while it runs). */
export async function readFootprint(deps: Pick<PlatformDeps, 'db' | 'table'>, uid: string, address: string | undefined): Promise<Footprint> {
  const onIndex = (index: string, pk: string) =>
    queryItems(deps, { IndexName: index, KeyConditionExpression: `${index}pk = :pk`, ExpressionAttributeValues: { ':pk': pk } });
  const [user, orders, history, indexedKeys, payments, wallet] = await Promise.all([
    queryItems(deps, { KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': userPartition(uid) }, ConsistentRead: true }),
    onIndex('gsi1', `USER_ORDERS#${uid}`),
    onIndex('gsi1', `REWARDS#${uid}`),
    onIndex(PLAYER_ITEMS_INDEX, playerItemsPartition(uid)),
    address ? onIndex('gsi2', `PAYER#${address}`) : [],
    address ? present(deps, [walletKeys(address)].flat()) : [],
  ]);
  const refs = user.filter((item) => skOf(item).startsWith('LEDGER#')).map((item) => skOf(item).slice('LEDGER#'.length));
  const goods = refs.filter((ref) => ref.startsWith('goods#')).map((ref) => ({ pk: `VORDER#${ref.slice('goods#'.length)}`, sk: 'VORDER' }));
  const rewards = refs.filter((ref) => ref.startsWith('reward#')).map((ref) => ({ pk: `BILL#${ref.slice('reward#'.length)}`, sk: 'REWARD' }));
  const socialKeys = user.filter((item) => skOf(item).startsWith('SOCIAL#')).map((item) => ({ pk: skOf(item), sk: 'SOCIAL' }));
  const strandedKeys = payments.map((payment) => ({ pk: `STRANDED#${String(payment.sk).slice('PAY#'.length)}`, sk: 'STRANDED' }));
  const [indexed, orderItems, vendorRewards, social, stranded] = await Promise.all([
    present(
      deps,
      indexedKeys.map((item) => ({ pk: String(item.pk), sk: String(item.sk) })),
    ),
    present(deps, goods),
    present(deps, rewards),
    present(deps, socialKeys),
    present(deps, strandedKeys),
  ]);
  const copies = await present(deps, orderItems.flatMap(copyKeys));
  return { user, orders, history, indexed, payments, stranded, vendorOrders: [...orderItems, ...copies], vendorRewards, social, wallet };
}

/** The address's own items: its binding, its sign-in nonce and its deletion message. */
const walletKeys = (address: string): ItemKey[] => [
  { pk: `WALLET#${address}`, sk: 'WALLET' },
  { pk: `NONCE#${address}`, sk: 'NONCE' },
  deletionNonceKey(address),
];

/** A goods order's lookup items: its trace key's and, for customGoods, the partner's outer id's. */
function copyKeys(order: Item): ItemKey[] {
  const keys: ItemKey[] = [];
  if (typeof order.trace_key === 'string') keys.push({ pk: `TRACE#${order.trace_key}`, sk: 'TRACE' });
  if (typeof order.outerOrderId === 'string' && typeof order.accountId === 'string')
    keys.push({ pk: `OUTER#${order.accountId}#${order.outerOrderId}`, sk: 'OUTER' });
  return keys;
}

async function present(deps: Pick<PlatformDeps, 'db' | 'table'>, keys: ItemKey[]): Promise<Item[]> {
  if (keys.length === 0) return [];
  return (await readItems(deps, keys)).filter((item): item is Item => item !== undefined);
}

/** How many items the footprint holds (a finished deletion leaves none). */
export const footprintSize = (footprint: Footprint) => Object.values(footprint).reduce((sum, items) => sum + items.length, 0);
