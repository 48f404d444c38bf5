import { platformError, type DomainError } from './errors.js';

/**
 * DynamoDB failures that say "not now" rather than "no": throttling (the table's or the account's capacity,
 * a transaction cancelled for it), a transaction cancelled by a concurrent one, the service's own errors and
 * requests that timed out. The AWS SDK retries
 * them first (its standard retry mode, with back-off); one that still fails reaches the HTTP layer, which
 * answers 503 with Retry-After (never a 500): nothing was decided, and a transaction that failed wrote nothing.
 */
const THROTTLING = new Set(['ProvisionedThroughputExceededException', 'ThrottlingException', 'RequestLimitExceeded', 'TooManyRequestsException']);
const UNAVAILABLE = new Set([
  'InternalServerError',
  'ServiceUnavailable',
  'ServiceUnavailableException',
  'TimeoutError',
  'RequestTimeout',
  'RequestTimeoutException',
]);

export const TABLE_RETRY_AFTER_SECONDS = 1;

/** A lone write or read the table refused for capacity (not a transaction's cancellation): nothing was done. */
export const isThrottled = (error: unknown): boolean => THROTTLING.has(String((error as { name?: unknown } | undefined)?.name));

/** What the reference lists for the 503 of every operation that reads or writes the table. */
export const TABLE_UNAVAILABLE =
  'the table throttled the request, did not answer, or was writing the same items for another request, after the SDK retried; Retry-After says when to try again (nothing was written)';

/** The 503 a transient DynamoDB failure is answered with; undefined for any other error. */
export function tableUnavailable(error: unknown): DomainError | undefined {
  const { name, $fault, CancellationReasons } = (error ?? {}) as { name?: string; $fault?: string; CancellationReasons?: { Code?: string }[] };
  if (typeof name !== 'string') return undefined;
  const reasons = name === 'TransactionCanceledException' ? (CancellationReasons ?? []).map((r) => r.Code) : [];
  const throttledTransaction = reasons.some((code) => code === 'ThrottlingError' || code === 'ProvisionedThroughputExceeded');
  if (THROTTLING.has(name) || throttledTransaction) {
    return platformError('table.busy', 'the table is busy (throttled); try again shortly', { retryAfterSeconds: TABLE_RETRY_AFTER_SECONDS });
  }
  // A transaction another one was writing at that moment, where the code does not run it again itself
  // (core/platform/transactions.ts does, then answers a documented 409): nothing was written, so try again.
  // A lone write refused because a transaction in flight held its item (TransactionConflictException) is the
  // same: nothing was written.
  if (reasons.includes('TransactionConflict') || name === 'TransactionInProgressException' || name === 'TransactionConflictException') {
    return platformError('table.busy', 'the table was writing the same items for another request; try again shortly', {
      retryAfterSeconds: TABLE_RETRY_AFTER_SECONDS,
    });
  }
  if (UNAVAILABLE.has(name) || ($fault === 'server' && name !== 'Error')) {
    return platformError('table.busy', 'the table did not answer; try again shortly', { retryAfterSeconds: TABLE_RETRY_AFTER_SECONDS });
  }
  return undefined;
}
