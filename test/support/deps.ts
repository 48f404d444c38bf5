import { DeleteTableCommand } from '@aws-sdk/client-dynamodb';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import type { Deps } from '../../core/deps.js';
import { inject } from 'vitest';
import { adminClient } from '../../tools/local/dynamo.js';
import { createLocalDeps, type LocalDeps } from './local-deps.js';

export type TestDeps = LocalDeps;

/** This worker's DynamoDB Local, of those the global setup started (one per worker of the file's project). */
export function dynamoEndpoint(): string {
  const endpoints = inject('dynamoEndpoints');
  return endpoints[(Number(process.env.VITEST_POOL_ID ?? 1) - 1) % endpoints.length]!;
}

/** Deps on a fresh table of the worker's DynamoDB Local (started by the global setup). */
export function createTestDeps(options: Parameters<typeof createLocalDeps>[1] = {}): Promise<TestDeps> {
  return createLocalDeps(dynamoEndpoint(), options);
}

/** How many items the deps' table holds: "nothing written" checks compare it before and after. */
export async function itemCount(deps: Deps): Promise<number> {
  const out = await deps.db.send(new ScanCommand({ TableName: deps.table, Select: 'COUNT', ConsistentRead: true }));
  return out.Count ?? 0;
}

/** Every item of a `type` (a test-only Scan). */
export async function itemsOfType(deps: Deps, type: string): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const out = await deps.db.send(
      new ScanCommand({
        TableName: deps.table,
        FilterExpression: '#type = :type',
        ExpressionAttributeNames: { '#type': 'type' },
        ExpressionAttributeValues: { ':type': type },
        ConsistentRead: true,
        ExclusiveStartKey: start,
      }),
    );
    items.push(...(out.Items ?? []));
    start = out.LastEvaluatedKey;
  } while (start);
  return items;
}

/**
 * Drops tables a test file wrote items to that are no kind of the platform's (an emulator's, a limit's): gone once the
 * file has run, as test/stored-items.test.ts holds every item the suite leaves to a declared kind.
 */
export async function dropTables(tables: readonly string[]): Promise<void> {
  const client = adminClient(dynamoEndpoint());
  try {
    for (const TableName of tables) await client.send(new DeleteTableCommand({ TableName }));
  } finally {
    client.destroy();
  }
}
