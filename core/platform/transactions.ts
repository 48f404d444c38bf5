import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { PlatformDeps } from './deps.js';
import { Conflict } from './errors.js';
import { retrying } from './retry.js';

export type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/**
 * DynamoDB cancels a transaction that touches an item another transaction is writing at that moment
 * (reason `TransactionConflict`, no condition failed). Nothing was written, so it can run again.
 */
export function isTransactionConflict(error: unknown): boolean {
  const reasons = (error as { CancellationReasons?: { Code?: string }[] }).CancellationReasons;
  return reasons?.some((reason) => reason.Code === 'TransactionConflict') ?? false;
}

/** The items of a cancelled transaction whose condition failed, with what was stored when asked (ALL_OLD). */
export function failedConditionsOf(error: unknown): FailedCondition[] {
  const reasons = (error as { CancellationReasons?: { Code?: string; Item?: Record<string, AttributeValue> }[] }).CancellationReasons;
  return (reasons ?? []).flatMap((reason, index) =>
    reason.Code === 'ConditionalCheckFailed' ? [{ index, ...(reason.Item ? { item: unmarshall(reason.Item) } : {}) }] : [],
  );
}

/**
 * A lone write (PutItem, UpdateItem, DeleteItem) refused because a transaction in flight holds its item
 * (TransactionConflictException): nothing was written, so it can be sent again.
 */
export const isWriteConflict = (error: unknown): boolean => (error as { name?: unknown } | undefined)?.name === 'TransactionConflictException';

/**
 * The 409 of a transaction that concurrent transactions kept cancelling: nothing was written. A caller that can
 * answer from what the winner stored (a retried request racing its first try) catches exactly this error.
 */
export class ConcurrentChange extends Conflict {
  constructor(message: string) {
    super('data.changed_concurrently', message);
  }
}

/** An item of the transaction whose condition failed, with the item as stored when the transaction item
 * asked for it (`ReturnValuesOnConditionCheckFailure: 'ALL_OLD'`). */
export interface FailedCondition {
  index: number;
  item?: Record<string, unknown>;
}

/**
 * Runs one TransactWriteItems. When DynamoDB cancels it because conditions failed, resolves to the items whose
 * condition failed (never empty), so the caller can say which rule was broken, or answer from what is stored;
 * resolves to `[]` when the transaction was written. A cancellation by a concurrent transaction on the same
 * items (many players spending from one project, many reports to one board) is retried a few times with a
 * jittered pause, then answered 409; any other failure is thrown at once.
 */
export async function transactOrFailures(
  deps: Pick<PlatformDeps, 'db'>,
  items: TransactItem[],
  /** The 409's message when collisions persist, naming what the request raced on. */
  conflictMessage = 'the data changed concurrently; retry',
): Promise<FailedCondition[]> {
  return retrying<FailedCondition[]>(
    async () => {
      try {
        await deps.db.send(new TransactWriteCommand({ TransactItems: items }));
        return [];
      } catch (error) {
        const failed = failedConditionsOf(error);
        if (failed.length > 0) return failed;
        throw error;
      }
    },
    {
      retryOn: isTransactionConflict,
      giveUp: () => {
        throw new ConcurrentChange(conflictMessage);
      },
    },
  );
}

/** What transactOrRaced answers when every try was cancelled by other transactions in flight: nothing was written. */
export const RACED: unique symbol = Symbol('raced');

/**
 * transactOrFailures for a request that, when its collisions persist, answers from what the winning request
 * wrote (read afresh) instead of a 409: RACED then.
 */
export function transactOrRaced(deps: Pick<PlatformDeps, 'db'>, items: TransactItem[]): Promise<FailedCondition[] | typeof RACED> {
  return transactOrFailures(deps, items).catch((error: unknown) => {
    if (error instanceof ConcurrentChange) return RACED;
    throw error;
  });
}

/** transactOrFailures, answering only the indexes of the items whose condition failed. */
export async function transactOrFailedConditions(deps: Pick<PlatformDeps, 'db'>, items: TransactItem[], conflictMessage?: string): Promise<number[]> {
  return (await transactOrFailures(deps, items, conflictMessage)).map((failure) => failure.index);
}
