import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Deps } from './deps.js';

/**
 * Integer ids: one counter item per entity kind, incremented atomically with `ADD`, so two concurrent
 * callers never get the same id. Access pattern "next id of kind K": pk `COUNTER#K`, sk `COUNTER`.
 */
export async function nextId(deps: Pick<Deps, 'db' | 'table'>, kind: string): Promise<number> {
  const result = await deps.db.send(
    new UpdateCommand({
      TableName: deps.table,
      Key: { pk: `COUNTER#${kind}`, sk: 'COUNTER' },
      UpdateExpression: 'ADD #value :one',
      ExpressionAttributeNames: { '#value': 'value' },
      ExpressionAttributeValues: { ':one': 1 },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  return Number(result.Attributes?.value);
}
