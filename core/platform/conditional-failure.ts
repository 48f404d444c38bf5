import { unmarshall } from '@aws-sdk/util-dynamodb';

/** A write refused by its condition; `item` is what the write found, when it asked (ReturnValuesOnConditionCheckFailure 'ALL_OLD') and there was one. */
export interface ConditionalFailure {
  item: Record<string, unknown> | undefined;
}

/**
 * The failure of a single write's condition (ConditionalCheckFailedException), undefined for any other error.
 * The document client does not translate errors, so the item comes back in DynamoDB's wire form: it is read
 * here, once, into plain values. Transactions report their refused conditions per item instead
 * (core/platform/transactions.ts).
 */
export function conditionalFailure(error: unknown): ConditionalFailure | undefined {
  const { name, Item } = (error ?? {}) as { name?: unknown; Item?: Parameters<typeof unmarshall>[0] };
  if (name !== 'ConditionalCheckFailedException') return undefined;
  return { item: Item ? unmarshall(Item) : undefined };
}

export const isConditionalFailure = (error: unknown): boolean => conditionalFailure(error) !== undefined;
