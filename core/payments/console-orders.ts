import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod/mini';
import { decodeCursor, encodeCursor } from '../platform/cursors.js';
import type { PlatformDeps } from '../platform/deps.js';
import { toBigInt } from '../shared/amounts.js';
import type { PaymentsDeps } from './deps.js';
import { objectOf } from '../shared/records.js';
import { OrderStatus, type StudioOrder, type StudioOrdersPage, type StudioOrdersQuery } from './models.js';
import { ORDER_SHARDS, projectOrdersPartition, StoredOrder } from './order-keys.js';
import { projectsOf } from './projects.js';

/**
 * A studio's recharge orders across its projects, newest first (merchant_orders). They come from the "orders of a
 * project" index (gsi7, order-keys.ts): ORDER_SHARDS partitions per project, each newest first. A page merges the
 * partitions of the projects read (all of the caller's, or the one named) by their sort key, `<created at>#<id>`,
 * which is unique, so the next page is everything below the last one shown, whatever partition it is in: the
 * cursor holds that sort key alone, bound to the studio and the filters (core/platform/cursors.ts).
 */
const INDEX = 'gsi7';

/** Rounds of Queries one page may take; a page of rare orders (a `status` filter) may then hold fewer than asked. */
const MAX_ROUNDS = 4;

/** A position in the merged order: what gsi7sk holds, `<ISO time>#<12 or more digits>`. */
const POSITION = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z#\d{12,}$/;

const statusValue = { paid: OrderStatus.paid, pending: OrderStatus.pending } as const;

/** An order as the index holds it: the stored order, its place in the index, and its "paid orders" key (`<paid at>#<id>`) once paid. */
const IndexedOrder = z.lazy(() => z.extend(objectOf(StoredOrder), { gsi7sk: z.string(), gsi2sk: z.optional(z.string()) }));
type IndexedOrder = z.infer<typeof IndexedOrder>;

/** One partition's state in a merged read: what it answered so far, and where it stopped (undefined: read to its end). */
interface Shard {
  partition: string;
  reached: string | undefined;
  done: boolean;
}

/**
 * merchant_orders: a page of the studio's orders. With `project`, that project's (the authorization layer has
 * checked it is the caller's); without, those of every project the caller has (one Query for their names).
 */
export async function studioOrders(deps: PaymentsDeps, accountId: string, query: StudioOrdersQuery): Promise<StudioOrdersPage> {
  const scope = `orders#${query.status}#${query.project ?? '*'}`;
  const before =
    query.cursor === undefined
      ? undefined
      : decodeCursor(deps, query.cursor, { owner: accountId, scope, attributes: ['before'], within: (key) => POSITION.test(key.before!) }).before;
  const projects = query.project !== undefined ? [query.project] : (await projectsOf(deps, accountId)).map((project) => project.project_name);
  const partitions = projects.flatMap((project) => Array.from({ length: ORDER_SHARDS }, (_, shard) => projectOrdersPartition(project, shard)));
  const { orders, next } = await mergedPage(deps, partitions, { before, limit: query.limit, status: query.status });
  return { items: orders.map(toStudioOrder), next: next === undefined ? null : encodeCursor(deps, accountId, scope, { before: next }) };
}

/**
 * The newest `limit` orders below `before` across `partitions`, and where the next page starts (undefined: none).
 * Each partition has been read down to where it stopped (`reached`); an order above every unfinished
 * partition's stop is known to be in its place. The first round reads every partition a share of the page; each
 * further round reads on, in parallel, only the partitions that stopped above the page's last candidate, so the
 * page is exact when they are done. After MAX_ROUNDS the page is what is known so far, and `next` its bound.
 */
async function mergedPage(
  deps: Pick<PlatformDeps, 'db' | 'table'>,
  partitions: string[],
  { before, limit, status }: { before: string | undefined; limit: number; status: StudioOrdersQuery['status'] },
): Promise<{ orders: IndexedOrder[]; next: string | undefined }> {
  const shards: Shard[] = partitions.map((partition) => ({ partition, reached: before, done: false }));
  const read: IndexedOrder[] = [];
  const readOn = async (shard: Shard, count: number) => {
    const out = await deps.db.send(
      new QueryCommand({
        TableName: deps.table,
        IndexName: INDEX,
        KeyConditionExpression: shard.reached === undefined ? 'gsi7pk = :pk' : 'gsi7pk = :pk AND gsi7sk < :before',
        ...(status === 'all' ? {} : { FilterExpression: '#status = :status', ExpressionAttributeNames: { '#status': 'status' } }),
        ExpressionAttributeValues: {
          ':pk': shard.partition,
          ...(shard.reached === undefined ? {} : { ':before': shard.reached }),
          ...(status === 'all' ? {} : { ':status': statusValue[status] }),
        },
        ScanIndexForward: false,
        Limit: count,
      }),
    );
    read.push(...(out.Items ?? []).map((item) => IndexedOrder.parse(item)));
    if (out.LastEvaluatedKey) shard.reached = String(out.LastEvaluatedKey.gsi7sk);
    else shard.done = true;
  };
  // A share of the page from each partition first: twice the page spread over them, so an even spread is one round.
  const share = Math.min(limit + 1, Math.ceil((2 * (limit + 1)) / Math.max(1, partitions.length)) + 1);
  await Promise.all(shards.map((shard) => readOn(shard, share)));
  for (let round = 1; ; round++) {
    read.sort((a, b) => (a.gsi7sk < b.gsi7sk ? 1 : a.gsi7sk > b.gsi7sk ? -1 : 0));
    const open = shards.filter((shard) => !shard.done);
    if (open.length === 0) return { orders: read.slice(0, limit), next: read.length > limit ? read[limit - 1]!.gsi7sk : undefined };
    // The page's last candidate, once there are more than a page: a partition stopped at or below it holds nothing above it.
    const last = read.length > limit ? read[limit]!.gsi7sk : undefined;
    const behind = open.filter((shard) => last === undefined || shard.reached! > last);
    if (behind.length === 0) return { orders: read.slice(0, limit), next: read[limit - 1]!.gsi7sk };
    if (round === MAX_ROUNDS) {
      const bound = open
        .map((shard) => shard.reached!)
        .sort()
        .at(-1)!;
      const known = read.filter((order) => order.gsi7sk >= bound);
      return known.length > limit ? { orders: known.slice(0, limit), next: known[limit - 1]!.gsi7sk } : { orders: known, next: bound };
    }
    await Promise.all(behind.map((shard) => readOn(shard, limit + 1)));
  }
}

/** An order as a studio's console shows it (merchant_orders; player_view's orders, read by their player). */
export function toStudioOrder(order: StoredOrder & { gsi2sk?: string | undefined }): StudioOrder {
  return {
    id: order.id,
    bill_no: order.bill_no,
    project_name: order.project_name,
    level: order.level,
    amount_base: toBigInt(order.amount_base).toString(),
    coin_type: order.coin_type,
    precison: order.precison,
    tickets: order.tickets,
    status: order.status,
    tx_type: order.tx_type,
    created_at: order.created_at,
    // The "paid orders" key is set with the status when the order is paid (order-keys.ts orderPaidUpdate): `<paid at>#<id>`.
    paid_at: order.gsi2sk === undefined ? null : order.gsi2sk.slice(0, order.gsi2sk.lastIndexOf('#')),
    tx_digest: order.tx_digest ?? null,
    user_id: order.user_id,
  };
}
