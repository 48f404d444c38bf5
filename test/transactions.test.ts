import { describe, expect, it } from 'vitest';
import type { Deps } from '../core/deps.js';
import { transactOrFailedConditions } from '../core/platform/transactions.js';

/**
 * DynamoDB Local runs transactions one at a time, so it never cancels one for a TransactionConflict; this
 * client answers like DynamoDB does when it does.
 */
function clientCancelling(reasonsPerCall: string[][]) {
  let calls = 0;
  const db = {
    send: async () => {
      const codes = reasonsPerCall[calls++];
      if (!codes) return {};
      throw Object.assign(new Error('Transaction cancelled'), { name: 'TransactionCanceledException', CancellationReasons: codes.map((Code) => ({ Code })) });
    },
  };
  return { deps: { db } as unknown as Pick<Deps, 'db'>, calls: () => calls };
}

describe('transactOrFailedConditions', () => {
  it('runs a transaction cancelled by conflicts again until it is written', async () => {
    const { deps, calls } = clientCancelling([
      ['TransactionConflict', 'None'],
      ['None', 'TransactionConflict'],
    ]);
    expect(await transactOrFailedConditions(deps, [])).toEqual([]);
    expect(calls()).toBe(3);
  });

  it('answers the failed conditions, without retrying, when a condition failed', async () => {
    const { deps, calls } = clientCancelling([['None', 'ConditionalCheckFailed', 'None']]);
    expect(await transactOrFailedConditions(deps, [])).toEqual([1]);
    expect(calls()).toBe(1);
  });

  it('gives up after a few conflicts with a 409', async () => {
    const { deps, calls } = clientCancelling(Array.from({ length: 9 }, () => ['TransactionConflict']));
    await expect(transactOrFailedConditions(deps, [])).rejects.toMatchObject({ kind: 'Conflict' });
    expect(calls()).toBe(5);
  });
});
