import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod/mini';
import type { PlatformDeps } from '../platform/deps.js';
import { transactOrFailures } from '../platform/transactions.js';
import { NOTICE_DAYS, noticeKey, noticesPartition } from './keys.js';
import type { DeletionNotices, DeletionNoticesQuery } from './models.js';

/**
 * Tells each studio whose games or projects the player used that the player deleted their account, so it can
 * delete what it holds outside the platform: a notice with the player's id, kept NOTICE_DAYS (TTL), the one
 * item that still names the player (docs/security.md "Deleting a player's account"). Puts of fixed keys: a
 * rerun writes the same notices.
 */
export async function writeNotices(deps: Pick<PlatformDeps, 'db' | 'table'>, uid: string, deletedAt: string, studios: readonly string[]) {
  const expiresAt = Math.floor(Date.parse(deletedAt) / 1000) + NOTICE_DAYS * 86_400;
  for (let start = 0; start < studios.length; start += 100) {
    const items = studios.slice(start, start + 100).map((accountId) => ({
      Put: {
        TableName: deps.table,
        Item: { ...noticeKey(accountId, deletedAt, uid), type: 'deletion_notice', game_player_id: uid, deleted_at: deletedAt, expiresAt },
      },
    }));
    await transactOrFailures(deps, items);
  }
}

const StoredNotice = z.object({ sk: z.string(), game_player_id: z.string(), deleted_at: z.string() });

/**
 * player deletions: a page of the studio's notices, newest first (one Query of its partition), those after
 * `before` (the previous page's `next`) and no older than `since`. Notices older than NOTICE_DAYS are gone (TTL;
 * DynamoDB deletes them within days, so the page also leaves out what has expired but is still there).
 */
export async function deletionNotices(
  deps: Pick<PlatformDeps, 'db' | 'table' | 'now'>,
  accountId: string,
  query: z.infer<typeof DeletionNoticesQuery>,
): Promise<z.infer<typeof DeletionNotices>> {
  const pageSize = query.pageSize ?? 100;
  const oldest = new Date(deps.now().getTime() - NOTICE_DAYS * 86_400_000).toISOString();
  const since = query.since && query.since > oldest ? new Date(query.since).toISOString() : oldest;
  const out = await deps.db.send(
    new QueryCommand({
      TableName: deps.table,
      KeyConditionExpression: query.before ? 'pk = :pk AND sk < :before' : 'pk = :pk AND sk >= :since',
      ExpressionAttributeValues: { ':pk': noticesPartition(accountId), ...(query.before ? { ':before': query.before } : { ':since': since }) },
      ScanIndexForward: false,
      Limit: pageSize + 1,
    }),
  );
  const notices = (out.Items ?? []).map((item) => StoredNotice.parse(item)).filter((notice) => notice.sk >= since);
  const page = notices.slice(0, pageSize);
  return {
    data: page.map(({ game_player_id, deleted_at }) => ({ game_player_id, deleted_at })),
    next: notices.length > pageSize ? page[page.length - 1]!.sk : null,
  };
}
