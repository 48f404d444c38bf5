import { TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import type { Deps } from './deps.js';

export type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/**
 * Runs one TransactWriteItems. When DynamoDB cancels it because conditions failed, resolves to the indexes of
 * the items whose condition failed (never empty), so the caller can say which rule was broken; any other
 * failure is thrown. Resolves to `[]` when the transaction was written.
 */
export async function transactOrFailedConditions(deps: Pick<Deps, 'db'>, items: TransactItem[]): Promise<number[]> {
  try {
    await deps.db.send(new TransactWriteCommand({ TransactItems: items }));
    return [];
  } catch (error) {
    const reasons = (error as { CancellationReasons?: { Code?: string }[] }).CancellationReasons;
    const failed = (reasons ?? []).flatMap((reason, index) => (reason.Code === 'ConditionalCheckFailed' ? [index] : []));
    if (failed.length === 0) throw error;
    return failed;
  }
}
