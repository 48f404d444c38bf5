import { AppError, conflict } from '../platform/errors.js';
import { transactOrFailedConditions, type TransactItem } from '../platform/transactions.js';
import type { Deps } from '../platform/deps.js';

// Moved to the platform with the retry itself; still exported here for the modules that import them from here.
export { isTransactionConflict, retryPause } from '../platform/transactions.js';

/**
 * transactOrFailedConditions, whose 409 (it gives up after running a transaction cancelled by collisions
 * with other transactions again a few times) is answered with `message`, naming what the request raced on.
 * It throws no other 409.
 */
export async function transactOr409(deps: Pick<Deps, 'db'>, items: TransactItem[], message: string): Promise<number[]> {
  try {
    return await transactOrFailedConditions(deps, items);
  } catch (error) {
    if (error instanceof AppError && error.status === 409) throw conflict(message);
    throw error;
  }
}

/** transactOrFailedConditions, run again while it collides with other transactions (for items that stay valid). */
export const transactRetryingConflicts = (deps: Pick<Deps, 'db'>, items: TransactItem[], what: string) =>
  transactOr409(deps, items, `${what}: changed concurrently; retry`);
