import type { Deps } from '../platform/deps.js';
import { conflict } from '../platform/errors.js';
import { transactOrFailedConditions, type TransactItem } from '../platform/transactions.js';

/**
 * DynamoDB cancels a transaction that touches an item another transaction is writing at that moment
 * (reason `TransactionConflict`, no condition failed). Nothing was written, so the request can run again.
 */
export function isTransactionConflict(error: unknown): boolean {
  const reasons = (error as { CancellationReasons?: { Code?: string }[] }).CancellationReasons;
  return reasons?.some((reason) => reason.Code === 'TransactionConflict') ?? false;
}

/** A short, growing, jittered pause, so that racing requests do not collide again in step. */
export const retryPause = (attempt: number) => new Promise((resolve) => setTimeout(resolve, 10 * attempt + Math.random() * 20 * attempt));

/** transactOrFailedConditions, run again while it collides with other transactions (for items that stay valid). */
export async function transactRetryingConflicts(deps: Pick<Deps, 'db'>, items: TransactItem[], what: string): Promise<number[]> {
  for (let attempt = 1; attempt <= 5; attempt++) {
    try {
      return await transactOrFailedConditions(deps, items);
    } catch (error) {
      if (!isTransactionConflict(error)) throw error;
    }
    await retryPause(attempt);
  }
  throw conflict(`${what}: changed concurrently; retry`);
}
