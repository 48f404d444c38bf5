import { unmarshall } from '@aws-sdk/util-dynamodb';

/**
 * A single write refused by its condition (ConditionalCheckFailedException). Transactions report theirs per
 * item (core/platform/transactions.ts).
 */
export const isConditionalFailure = (error: unknown): boolean => (error as { name?: unknown } | undefined)?.name === 'ConditionalCheckFailedException';

/**
 * Whether a single conditional write went through: false when its condition refused it, which the caller expects
 * (a race lost, a record there already) and answers itself; any other failure is thrown.
 */
export async function conditionHeld(write: Promise<unknown>): Promise<boolean> {
  try {
    await write;
    return true;
  } catch (error) {
    if (isConditionalFailure(error)) return false;
    throw error;
  }
}

/**
 * The failure of a single write's condition, undefined for any other error; `item` is what the write found,
 * when it asked (ReturnValuesOnConditionCheckFailure 'ALL_OLD') and there was one. The document client does
 * not translate errors, so the item comes in DynamoDB's wire form: it is read here into plain values.
 */
export function conditionalFailure(error: unknown): { item: Record<string, unknown> | undefined } | undefined {
  if (!isConditionalFailure(error)) return undefined;
  const { Item } = error as { Item?: Parameters<typeof unmarshall>[0] };
  return { item: Item && unmarshall(Item) };
}
