import { userKey } from '../identity/keys.js';
import { sha256Url } from '../platform/digest.js';
/**
 * The items of a player's deletion (docs/security.md "Deleting a player's account"). Access patterns:
 * - "a deletion by its proof": pk `ERASURE#<SHA-256 of the proof>`, sk `ERASURE`. While it runs it holds what
 *   the run needs to find the player's items again after a crash (uid, wallet address, names, the studios to
 *   tell, the pseudonym); once done it keeps only the answer, for retries, until `expiresAt`;
 * - "deletions that have not finished": sparse gsi3pk `ERASING`, gsi3sk the time it started (the resume job);
 * - "an address's live deletion message": pk `ERASENONCE#<address>`, sk `NONCE` (TTL), apart from the
 *   sign-in nonce so that neither message can stand for the other;
 * - "a pseudonymized player's kept records": the partition `USER#<pseudonym>` (the ledger entries, moved out
 *   of `USER#<uid>`, with the forfeits' entries `LEDGER#forfeit#<project>#<level>#<id>`), where every ledger
 *   reconciliation already looks;
 * - "a studio's deleted players, newest first": pk `DELETIONS#<accountId>`, sk `<deleted at>#<uid>` (TTL
 *   NOTICE_DAYS): the one place a deleted player's id stays, for the studio to delete what it holds.
 */
export const ERASURE_PREFIX = 'ERASURE#';
export const ERASURE_SORT = 'ERASURE';
export const erasureKey = (proofId: string) => ({ pk: `${ERASURE_PREFIX}${proofId}`, sk: ERASURE_SORT });
export const RUNNING_ERASURES = 'ERASING';
export const DELETION_NONCE_PREFIX = 'ERASENONCE#';
export const DELETION_NONCE_SORT = 'NONCE';
export const deletionNonceKey = (address: string) => ({ pk: `${DELETION_NONCE_PREFIX}${address}`, sk: DELETION_NONCE_SORT });
export const NOTICES_PREFIX = 'DELETIONS#';
export const noticesPartition = (accountId: string) => `${NOTICES_PREFIX}${accountId}`;
/** "a value a deletion learned": beside its record, keyed by the digest of the value (a name could break a key's rules). */
export const LEARNED_PREFIX = 'LEARNED#';
export const learnedKey = (proofId: string, kind: string, value: string) => ({
  pk: erasureKey(proofId).pk,
  sk: `${LEARNED_PREFIX}${kind}#${sha256Url(value)}`,
});

export const noticeKey = (accountId: string, deletedAt: string, uid: string) => ({ pk: noticesPartition(accountId), sk: `${deletedAt}#${uid}` });

/** How long a studio's notice of a deleted player is kept: it reads them at least this often. */
export const NOTICE_DAYS = 30;
/** How long a finished deletion's answer is kept for the retries of its request. */
export const ANSWER_DAYS = 30;
/** How long a run holds a deletion before another request or the resume job may take it over. */
export const LEASE_SECONDS = 60;

/**
 * What the deletion challenge reads first (core/http/operation.ts FirstReads): the caller's account. The
 * authorization layer reads it in the batch of its fresh gone-mark read, so the account costs no request of its own.
 */
export const challengeReads = (uid: string) => [userKey(uid)];
