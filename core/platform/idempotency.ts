import { GetCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod/mini';
import { sha256Url } from './digest.js';
import type { PlatformDeps } from './deps.js';
import { DomainError, platformError } from './errors.js';
import type { TokenClaims } from './tokens.js';
import { transactOrFailures, type FailedCondition, type TransactItem } from './transactions.js';
import { idempotencyKeyOf } from './idempotency-key.js';
import { playerItemsKeys } from './players.js';
import { answerKept, eitherForm, keptAnswer } from './kept-answers.js';

/**
 * The `Idempotency-Key` request header (IETF httpapi draft "The Idempotency-Key HTTP Header Field") for
 * operations that move value. docs/api.md publishes the rules below, as the draft asks of a server.
 *
 * Scope. A key is scoped to (caller, operation, key): one record per scope,
 *   pk `IDEMPOTENCY#<caller>#<operation>#<key>`, sk `IDEMPOTENCY`,
 * holding the request's fingerprint (a SHA-256 of its canonical JSON) and the answer (its JSON text, so that a
 * retry answers it byte for byte: core/platform/kept-answers.ts). `caller` is
 * `merchant:<account id>` for merchant and server tokens (the merchant), `user:<uid>` for platform and game
 * tokens (the player), `<kind>:<sub>` for other kinds. So:
 * - the same scope with the same request answers the stored answer, and does nothing more;
 * - the same scope with another request is 422 and writes nothing;
 * - the same key from another caller, or for another operation, is another scope: it runs as its own request
 *   and never sees the first one's answer.
 *
 * In the work's transaction. The record is put, on condition it is absent, inside the one TransactWriteItems
 * that does the work (`recordItem`), so it exists exactly when the work was done, and a retry is answered from
 * the cancelled transaction itself (the record comes back with `ReturnValuesOnConditionCheckFailure`): no
 * request is added on either path.
 *
 * "Still running". With the record in the work's transaction there is no in-progress state to store: a request
 * is running while its transaction is in flight, and DynamoDB cancels any other transaction on the same record
 * meanwhile (TransactionConflict). transactOrFailures runs a cancelled transaction again a few times with a
 * pause: once the first has committed, the retry finds its record and answers the first answer; while it has
 * not, the request ends in 409 (`stillRunning`). (DynamoDB Local serialises transactions, so there a second
 * request always sees the committed record.) A record written with status "running" before the work would add
 * a request to every call and leave a lock behind a crash; it is what an operation whose work is not one
 * transaction would need, and none is so far.
 *
 * What is stored. Only answers of work that was done: a refused request (short balance, 403, ...) writes
 * nothing, so its retry is judged again.
 *
 * Expiry. A record lives IDEMPOTENCY_TTL_DAYS after the first request (TTL attribute `expiresAt`); after that
 * the key is free again in its scope. An operation may keep a longer guard of its own (minus_tickets: its
 * ledger entry, per caller, user and key, forever).
 */
export const IDEMPOTENCY_TTL_DAYS = 30;

/** Who a key belongs to: the merchant for merchant and server tokens, the player for player tokens. */
export function callerOf(claims: Pick<TokenClaims, 'kind' | 'sub'>): string {
  if (claims.kind === 'server' || claims.kind === 'merchant') return `merchant:${claims.sub}`;
  if (claims.kind === 'platform' || claims.kind === 'game') return `user:${claims.sub}`;
  return `${claims.kind}:${claims.sub}`;
}

/** A SHA-256 of the canonical JSON of `value` (object keys sorted), so field order never matters. */
export function fingerprintOf(value: unknown): string {
  return sha256Url(canonicalJson(value));
}

/**
 * Whether a stored fingerprint is `request`'s: fingerprintOf it, or `earlier()`, the form a domain stored before
 * fingerprintOf was the one notion of the same request. Records written then keep recognising their retries, so
 * either form is accepted (the earlier form is computed only when the new one does not match).
 */
export function sameRequest(stored: unknown, request: unknown, earlier: () => string): boolean {
  return stored === fingerprintOf(request) || stored === earlier();
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** One keyed request: its scope and fingerprint. */
export interface IdempotentRequest {
  caller: string;
  operation: string;
  key: string;
  fingerprint: string;
}

export function idempotentRequest(claims: Pick<TokenClaims, 'kind' | 'sub'>, operation: string, key: string, request: unknown): IdempotentRequest {
  return { caller: callerOf(claims), operation, key, fingerprint: fingerprintOf(request) };
}

type RecordName = Pick<IdempotentRequest, 'caller' | 'operation' | 'key'>;
/** The partition prefix and the sort key of every idempotency record. */
export const IDEMPOTENCY_PREFIX = 'IDEMPOTENCY#';
export const IDEMPOTENCY_SORT_KEY = 'IDEMPOTENCY';
const recordPartition = ({ caller, operation, key }: RecordName) => `${IDEMPOTENCY_PREFIX}${caller}#${operation}#${key}`;
export const idempotencyRecordKey = (request: RecordName) => ({ pk: recordPartition(request), sk: IDEMPOTENCY_SORT_KEY });
/**
 * A record as stored (recordItem): the request's fingerprint and its answer, as JSON text (`answer_json`) or, in
 * records written before, the answer itself (`answer`); `expiresAt`, the table's TTL, in epoch seconds.
 */
export const StoredIdempotencyRecord = z
  .object({ fingerprint: z.string(), answer_json: z.optional(z.string()), answer: z.optional(z.unknown()), expiresAt: z.number() })
  .check(eitherForm());

/** The record of `claims`' key for `operation`, as the request's reads name it before its fingerprint is known. */
export const keyRecordOf = (claims: Pick<TokenClaims, 'kind' | 'sub'>, operation: string, key: string) =>
  idempotencyRecordKey({ caller: callerOf(claims), operation, key });

/**
 * The record's Put, to run inside the work's transaction: absent before, it comes back when its condition fails.
 * `player`: the player the request is by or for (a player's token, a `userId` the request names). Its key is the
 * caller's and the operation's, so the record joins the player's items that no key leads to
 * (core/platform/players.ts): their answer and fingerprint are the player's data, and a deletion finds them there.
 */
export function recordItem(deps: Pick<PlatformDeps, 'table' | 'now'>, request: IdempotentRequest, answer: unknown, player?: string): TransactItem {
  const now = deps.now();
  return {
    Put: {
      TableName: deps.table,
      Item: {
        ...idempotencyRecordKey(request),
        type: 'idempotency',
        ...(player === undefined ? {} : playerItemsKeys(player, 'IDEMPOTENCY')),
        ...request,
        ...keptAnswer(answer),
        created_at: now.toISOString(),
        expiresAt: Math.floor(now.getTime() / 1000) + IDEMPOTENCY_TTL_DAYS * 24 * 3600,
      },
      ConditionExpression: 'attribute_not_exists(pk)',
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    },
  };
}

/** The keyed request of an optional `Idempotency-Key` header (400 when malformed); undefined without one. */
export function keyedRequest(
  claims: Pick<TokenClaims, 'kind' | 'sub'>,
  operation: string,
  header: string | undefined,
  request: unknown,
): IdempotentRequest | undefined {
  const key = idempotencyKeyOf(header);
  return key === undefined ? undefined : idempotentRequest(claims, operation, key, request);
}

/** What a keyed transaction came to: done now, answered from the first request, or refused by the work's conditions. */
export type KeyedOutcome<T> = { answer: T; replayed: boolean } | { refused: FailedCondition[] };

/**
 * Runs the work's TransactWriteItems once per scope: the key's record is put with `work` (as item 0, so the
 * work's items keep their order after it). Outcomes:
 * - written: `{answer, replayed: false}`;
 * - the record existed: the stored answer (`replayed: true`), or 422 for another request; nothing written;
 * - still colliding with a request in flight after the platform's retries: the record is read once, and answers
 *   if that request has committed meanwhile; else 409 (`stillRunning`);
 * - a condition of the work failed (and the record was new): `{refused}`, indexes relative to `work`; nothing
 *   was written and nothing is stored, so the caller says which rule was broken.
 * `player`: the player the request is by or for, when there is one (recordItem).
 */
export async function transactOnce<T>(
  deps: Pick<PlatformDeps, 'db' | 'table' | 'now'>,
  request: IdempotentRequest,
  answer: T,
  work: TransactItem[],
  player?: string,
): Promise<KeyedOutcome<T>> {
  const running = stillRunningMessage(request.key);
  let failures: FailedCondition[];
  try {
    failures = await transactOrFailures(deps, [recordItem(deps, request, answer, player), ...work], running);
  } catch (error) {
    if (!(error instanceof DomainError && error.message === running)) throw error;
    return { answer: await storedAnswer<T>(deps, request, { index: 0 }), replayed: true };
  }
  if (failures.length === 0) return { answer, replayed: false };
  const record = failures.find((failure) => failure.index === 0);
  if (record) return { answer: await storedAnswer<T>(deps, request, record), replayed: true };
  return { refused: failures.map((failure) => ({ ...failure, index: failure.index - 1 })) };
}

/**
 * The work's transaction for a keyed request whose record is one of the work's own items (`work[recordIndex]`,
 * put on condition it is absent and carrying the request's fingerprint and answer, at `recordKey`): a ledger entry
 * keyed by the caller and the key. No record of its own is put, which saves the transaction an item (2 write
 * units): the scope is then the record item's, (caller, operation, the partition it is in). Outcomes as
 * transactOnce's: done; the first answer (422 for another request); still colliding after the platform's
 * retries, the first answer if its transaction committed meanwhile, else 409; or the work's own refusals.
 */
export async function transactWithRecordIn<T>(
  deps: Pick<PlatformDeps, 'db' | 'table'>,
  request: IdempotentRequest,
  answer: T,
  work: TransactItem[],
  recordIndex: number,
  recordKey: { pk: string; sk: string },
): Promise<KeyedOutcome<T>> {
  const running = stillRunningMessage(request.key);
  let failures: FailedCondition[];
  try {
    failures = await transactOrFailures(deps, work, running);
  } catch (error) {
    if (!(error instanceof DomainError && error.message === running)) throw error;
    return { answer: await storedAnswer<T>(deps, request, { index: recordIndex }, recordKey), replayed: true };
  }
  if (failures.length === 0) return { answer, replayed: false };
  const record = failures.find((failure) => failure.index === recordIndex);
  if (record) return { answer: await storedAnswer<T>(deps, request, record, recordKey), replayed: true };
  return { refused: failures };
}

/**
 * The work's transaction for a request with or without a key: with one, as transactOnce runs it; without, as
 * transactOrFailures does (no record, so no replay). Either way: done, answered from the first request, or refused.
 * `player`: as transactOnce's.
 */
export async function transactKeyed<T>(
  deps: Pick<PlatformDeps, 'db' | 'table' | 'now'>,
  request: IdempotentRequest | undefined,
  answer: T,
  work: TransactItem[],
  conflictMessage: string,
  player?: string,
): Promise<KeyedOutcome<T>> {
  if (request) return transactOnce(deps, request, answer, work, player);
  const refused = await transactOrFailures(deps, work, conflictMessage);
  return refused.length === 0 ? { answer, replayed: false } : { refused };
}

/**
 * The answer for a request whose record's condition failed (`failure`, from transactOrFailures): the stored
 * answer when the request is the same, 422 when it is another. Should the record not have come back with the
 * failure, it is read at `recordKey` (the key's record unless the work's own item is: transactWithRecordIn); it
 * was written by a committed transaction, so a strongly consistent read sees it.
 */
export async function storedAnswer<T>(
  deps: Pick<PlatformDeps, 'db' | 'table'>,
  request: IdempotentRequest,
  failure: FailedCondition,
  recordKey: { pk: string; sk: string } = idempotencyRecordKey(request),
): Promise<T> {
  let record = failure.item;
  if (!record) {
    const out = await deps.db.send(new GetCommand({ TableName: deps.table, Key: recordKey, ConsistentRead: true }));
    record = out.Item;
  }
  if (!record) throw stillRunning(request.key);
  return answerOf<T>(record, request);
}

/**
 * The answer a stored record (or any item carrying `fingerprint` and a kept answer) gives this request; `reused`
 * makes the 422 of another request with the same key (an Idempotency-Key unless told: a grant's `reference`).
 */
export function answerOf<T>(
  stored: Record<string, unknown>,
  request: Pick<IdempotentRequest, 'key' | 'fingerprint'>,
  reused: (key: string) => DomainError = keyReused,
): T {
  if (stored.fingerprint !== request.fingerprint) throw reused(request.key);
  return answerKept(stored) as T;
}

/** The 422 of a once-per-reference grant whose reference came back with another body (`whose`: merchant, client). */
export const referenceReused = (whose: string) => (reference: string) =>
  platformError('idempotency.reference_reused', `body.reference: ${reference} was used for another grant of this ${whose}; use a new reference`);

export const keyReused = (key: string) =>
  platformError('idempotency.key_reused', `Idempotency-Key: ${key} was used for another request of this caller and operation; use a new key for a new request`);

/** The 409 of a request whose key's first request is still running (the message of transactOrFailures). */
export const stillRunning = (key: string) => platformError('idempotency.still_running', `Idempotency-Key: a request with ${key} is still running; retry`);
export const stillRunningMessage = (key: string) => stillRunning(key).message;
