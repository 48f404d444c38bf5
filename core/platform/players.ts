import { randomUUID } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod/mini';
import type { PlatformDeps } from './deps.js';
import { sha256Url } from './digest.js';
import type { TransactItem } from './transactions.js';

/**
 * Two keys every domain that stores something about a player needs, so a player can be found and deleted
 * (docs/security.md "Deleting a player's account"); kept here, below the domains, because scores, results,
 * idempotency records, hero grants and the authorization layer all write or read them.
 *
 * - "a player's items that no key leads to": the sparse index gsi6 (keys only), gsi6pk `PLAYER_ITEMS#<uid>`,
 *   gsi6sk the item's kind. Items keyed by something else (a game's season, a result id, a caller's
 *   idempotency key, a server's grant reference) carry it when they hold the player's id, so a deletion finds
 *   them without a scan. Keys only: an item's later updates that do not change these two attributes write
 *   nothing to the index. The partner store's users (random uids of their own, never a player's) use it the
 *   same way for the OAuth items keyed by a hash or a family id (core/partner-store/deletion.ts).
 * - "the mark a deleted player leaves": pk `GONE#<SHA-256 of the uid>`, sk `GONE` (`deleted_at`, epoch
 *   seconds). It never holds the uid itself (uids are random UUIDs, so the digest cannot be walked back), and
 *   it stays: tokens of the player are refused by it, and a write naming the old id is refused or skipped.
 */
export const PLAYER_ITEMS_INDEX = 'gsi6';

export type PlayerItemKind = 'SCORE' | 'RESULT' | 'IDEMPOTENCY' | 'HEROGRANT' | 'STORECODE' | 'STOREFAMILY' | 'STOREREFRESH';

/** The attributes that put an item in "a player's items that no key leads to". */
export const playerItemsKeys = (uid: string, kind: PlayerItemKind) => ({ gsi6pk: playerItemsPartition(uid), gsi6sk: kind });

export const playerItemsPartition = (uid: string) => `PLAYER_ITEMS#${uid}`;

/** The partition prefix and the sort key of every gone mark (core/privacy/items.ts declares its kind). */
export const GONE_PREFIX = 'GONE#';
export const GONE_SORT_KEY = 'GONE';
export const goneKey = (uid: string) => ({ pk: `${GONE_PREFIX}${sha256Url(`player:${uid}`)}`, sk: GONE_SORT_KEY });
/** A gone mark as stored: when the player deleted their account, in epoch seconds. */
export const StoredGoneMark = z.object({ deleted_at: z.number() });

/**
 * A transaction item that holds only while `uid` has not deleted their account (the gone mark is absent): every
 * write that gives a player something carries it, so nothing reaches a player once their deletion has started.
 * The mark is the player's own item, so the check keeps the rule that a per-player transaction includes nothing
 * another player's includes.
 */
export const notGoneCheck = (table: string, uid: string): TransactItem => ({
  ConditionCheck: { TableName: table, Key: goneKey(uid), ConditionExpression: 'attribute_not_exists(pk)' },
});

/** Whether a transaction item is a notGoneCheck, so a refused transaction can tell a deleted player from a race. */
export const isNotGoneCheck = (item: TransactItem | undefined) => item?.ConditionCheck?.Key?.sk === GONE_SORT_KEY;

/**
 * What a deletion keeps a player's (or a store user's) accounting under: `former:<random uuid>`, one per
 * deletion. Nothing maps it back to the person, and it is never a live id: nothing is ever credited to it.
 */
const PSEUDONYM_PREFIX = 'former:';
export const newPseudonym = () => `${PSEUDONYM_PREFIX}${randomUUID()}`;
export const isPseudonym = (uid: string) => uid.startsWith(PSEUDONYM_PREFIX);

/** When the player deleted their account (epoch seconds), or undefined while they have not. */
export async function goneSince(deps: Pick<PlatformDeps, 'db' | 'table'>, uid: string, consistent = true): Promise<number | undefined> {
  const out = await deps.db.send(new GetCommand({ TableName: deps.table, Key: goneKey(uid), ConsistentRead: consistent }));
  return out.Item ? StoredGoneMark.parse(out.Item).deleted_at : undefined;
}
