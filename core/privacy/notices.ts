import type { PlatformDeps } from '../platform/deps.js';
import { transactOrFailures } from '../platform/transactions.js';
import { NOTICE_DAYS, noticeKey } from './keys.js';

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
