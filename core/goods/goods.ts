import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { goodsKey } from '../access/keys.js';
import * as z from 'zod/mini';
import { requireMerchant } from '../merchants/merchants.js';
import { nextId } from '../platform/counters.js';
import type { PlatformDeps } from '../platform/deps.js';
import { remember } from '../platform/process-memory.js';
import { queryItems } from '../platform/query.js';
import { sortableInt } from '../platform/table.js';
import type { TokenClaims } from '../platform/tokens.js';
import { merchantGoodsPartition } from './keys.js';
import { Goods, type GoodsCreate } from './models.js';
import { objectOf } from '../shared/records.js';

/**
 * Vendor goods: a catalogue per project, managed by the project's owner merchant, paid in tickets.
 * - "goods by id": pk `GOODS#<id>`, sk `GOODS`;
 * - "a merchant's goods, newest first": gsi1pk `MERCHANT_GOODS#<accountId>`, gsi1sk zero-padded id.
 */
/** "goods by id" (goodsKey), as stored: the goods with their owner merchant's console account (server tokens' subject). */
export const StoredGoods = z.lazy(() => z.extend(objectOf(Goods), { accountId: z.string() }));
export type StoredGoods = z.infer<typeof StoredGoods>;

/** The most goods goods_list reads (and counts): a catalogue, bounded as a merchant's games are. */
export const GOODS_LIST_LIMIT = 1000;

/** The goods as answered: a stored goods item without its owner account (keys and `type` the model leaves out). */
export const toGoods = (item: Record<string, unknown>): Goods => {
  const { accountId: _a, ...goods } = StoredGoods.parse(item);
  return goods;
};

export async function createGoods(deps: PlatformDeps, caller: TokenClaims, input: z.infer<typeof GoodsCreate>): Promise<Goods> {
  // The authorization layer has checked the project is the caller's and the merchant not suspended (the route's
  // policy); the merchant is read for its id.
  const merchant = await requireMerchant(deps, caller.sub);
  const now = deps.now().toISOString();
  const goods: StoredGoods = { id: await nextId(deps, 'goods'), ...input, merchant_id: merchant.id, accountId: caller.sub, created_at: now, updated_at: now };
  await deps.db.send(
    new PutCommand({
      TableName: deps.table,
      Item: { ...goodsKey(goods.id), type: 'goods', ...goods, gsi1pk: merchantGoodsPartition(caller.sub), gsi1sk: sortableInt(goods.id) },
    }),
  );
  rememberPlace(deps, goods);
  return toGoods({ ...goods });
}

/** Where goods are sold: the project and level whose tickets pay for them. */
export interface GoodsPlace {
  projectName: string;
  level: number;
}

/**
 * Goods are written once (createGoods) and never updated, so their place never changes: it is remembered per
 * process (keys carry the table; core/platform/process-memory.ts) for orders, which read the buyer's balance
 * of that level with the goods in one request (core/goods/orders.ts). A goods update that moved goods to
 * another project or level would have to be a new goods item, or forget this memory.
 */
const places = new Map<string, GoodsPlace>();
const placeKey = (deps: Pick<PlatformDeps, 'table'>, goodsId: number) => `${deps.table}\u0000${goodsId}`;

export const goodsPlace = (deps: Pick<PlatformDeps, 'table'>, goodsId: number): GoodsPlace | undefined => places.get(placeKey(deps, goodsId));

export function rememberPlace(deps: Pick<PlatformDeps, 'table'>, goods: Pick<StoredGoods, 'id' | 'projectName' | 'level'>) {
  remember(places, placeKey(deps, goods.id), { projectName: goods.projectName, level: goods.level });
}

/**
 * goods_list: one page of the caller's goods, newest first, and how many there are (up to GOODS_LIST_LIMIT),
 * both from one read of the merchant's goods: DynamoDB has no offset nor a count with the items.
 */
export async function listGoods(deps: PlatformDeps, accountId: string, page: number, pageSize: number) {
  const items = await queryItems(
    deps,
    {
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': merchantGoodsPartition(accountId) },
      ScanIndexForward: false,
    },
    GOODS_LIST_LIMIT,
  );
  return { total: String(items.length), goods: items.slice(page * pageSize, (page + 1) * pageSize).map(toGoods) };
}
