import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod/mini';
import type { PlatformDeps } from '../platform/deps.js';
import { transactOrFailures } from '../platform/transactions.js';
import { decodeCursor, encodeCursor } from '../platform/cursors.js';
import { NOTICE_DAYS, noticeKey, noticesPartition } from './keys.js';
import { type DeletedPlayersPage, NOTICE_TIMES } from './models.js';

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

/** Deleted players a studio reads a page at a time. */
export const NOTICE_PAGE = 100;

/** A studio's notice as stored (noticeKey): the player's id and when they deleted their account. */
export const StoredNotice = z.object({ game_player_id: z.string(), deleted_at: z.string(), expiresAt: z.number() });

/**
 * player_deletions: the studio's deleted players, newest first, at most `limit` a page, ids only. With `since`,
 * only those deleted after it: deletion times are ISO texts of milliseconds leading the sort key, so "after
 * `since`" is "from a millisecond later" in the key's order (`since` is an instant a key can hold, NOTICE_TIMES;
 * after the last one there is nothing). A notice past its NOTICE_DAYS is not shown, even while DynamoDB's TTL
 * has not removed it yet (a page may then hold fewer). The cursor is the last notice's key, sealed and bound to
 * the studio (core/platform/cursors.ts).
 */
export async function deletedPlayers(
  deps: Pick<PlatformDeps, 'db' | 'table' | 'now' | 'cursorKey'>,
  accountId: string,
  query: { cursor?: string; since?: string },
  limit = NOTICE_PAGE,
): Promise<DeletedPlayersPage> {
  const partition = noticesPartition(accountId);
  const after = query.since === undefined ? undefined : Date.parse(query.since) + 1;
  // `since` is at most the last instant a key can hold (DeletionsQuery): no notice is after it, and the text of the
  // millisecond past it would sort before every key.
  const pastEveryKey = after !== undefined && after > NOTICE_TIMES.last;
  const from = after === undefined || pastEveryKey ? undefined : new Date(after).toISOString();
  const start =
    query.cursor === undefined
      ? undefined
      : decodeCursor(deps, query.cursor, {
          owner: accountId,
          scope: 'deletions',
          attributes: ['pk', 'sk'],
          within: (key) => !pastEveryKey && key.pk === partition && (from === undefined || key.sk! >= from),
        });
  if (pastEveryKey) return { items: [], next: null };
  const out = await deps.db.send(
    new QueryCommand({
      TableName: deps.table,
      KeyConditionExpression: from === undefined ? 'pk = :pk' : 'pk = :pk AND sk >= :from',
      ExpressionAttributeValues: { ':pk': partition, ...(from === undefined ? {} : { ':from': from }) },
      ScanIndexForward: false,
      ExclusiveStartKey: start,
      Limit: limit + 1,
    }),
  );
  const listed = out.Items ?? [];
  const page = listed.slice(0, limit);
  const last = listed.length > limit ? page.at(-1) : out.LastEvaluatedKey;
  const now = deps.now().getTime() / 1000;
  const items = page
    .map((item) => StoredNotice.parse(item))
    .filter((notice) => notice.expiresAt > now)
    .map(({ game_player_id, deleted_at }) => ({ game_player_id, deleted_at }));
  return { items, next: last ? encodeCursor(deps, accountId, 'deletions', { pk: String(last.pk), sk: String(last.sk) }) : null };
}
