import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod/mini';
import { decodeCursor, encodeCursor } from '../platform/cursors.js';
import type { PlatformDeps } from '../platform/deps.js';
import { nullByDefault, objectOf } from '../shared/records.js';
import { merchantsOfStatusPartition } from './keys.js';
import { Merchant, type MerchantReviewPage, type MerchantReviewQuery } from './models.js';

/**
 * A merchant item as the review list reads it from "merchants of a status" (gsi2, merchants.ts): the record and
 * its last status change, each part of which items may lack (never changed, or changed before these were kept).
 */
const ListedMerchant = z.lazy(() =>
  z.extend(z.omit(objectOf(Merchant), { status_reason: true, status_changed_at: true }), {
    status_reason: nullByDefault(z.string()),
    status_changed_at: nullByDefault(z.string()),
    status_changed_by: nullByDefault(z.string()),
    gsi2sk: z.string(),
  }),
);

/** gsi2sk of a merchant in its status's list: `<create_time>#<12 or more digits>`. */
const PLACE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z#\d{12,}$/;

/**
 * admin_merchants: the merchants of one status, newest (by creation) first, `limit` a page; one Query of the
 * status's partition from where the last page stopped. The cursor is that merchant's place in the list, bound to
 * the admin and the status.
 */
export async function merchantsForReview(
  deps: Pick<PlatformDeps, 'db' | 'table' | 'cursorKey'>,
  adminId: string,
  query: MerchantReviewQuery,
): Promise<MerchantReviewPage> {
  const scope = `merchants#${query.status}`;
  const before =
    query.cursor === undefined
      ? undefined
      : decodeCursor(deps, query.cursor, { owner: adminId, scope, attributes: ['before'], within: (key) => PLACE.test(key.before!) }).before;
  const out = await deps.db.send(
    new QueryCommand({
      TableName: deps.table,
      IndexName: 'gsi2',
      KeyConditionExpression: before === undefined ? 'gsi2pk = :pk' : 'gsi2pk = :pk AND gsi2sk < :before',
      ExpressionAttributeValues: { ':pk': merchantsOfStatusPartition(query.status), ...(before === undefined ? {} : { ':before': before }) },
      ScanIndexForward: false,
      Limit: query.limit + 1,
    }),
  );
  const listed = (out.Items ?? []).map((item) => ListedMerchant.parse(item));
  const page = listed.slice(0, query.limit);
  const last = listed.length > query.limit ? page.at(-1) : undefined;
  return {
    items: page.map(({ gsi2sk: _place, ...merchant }) => merchant),
    next: last ? encodeCursor(deps, adminId, scope, { before: last.gsi2sk }) : null,
  };
}
