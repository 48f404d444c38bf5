import { BatchWriteCommand, ScanCommand, type BatchWriteCommandInput, type BatchWriteCommandOutput } from '@aws-sdk/lib-dynamodb';
import type { Deps } from '../../core/deps.js';

/** Every item of the deps' table (a test-only Scan, strongly consistent), in key order: what "wrote nothing" compares. */
export async function scanAll(deps: Pick<Deps, 'db' | 'table'>): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const out = await deps.db.send(new ScanCommand({ TableName: deps.table, ConsistentRead: true, ExclusiveStartKey: start }));
    items.push(...(out.Items ?? []));
    start = out.LastEvaluatedKey;
  } while (start);
  const id = (item: Record<string, unknown>) => `${String(item.pk)}\u0000${String(item.sk)}`;
  return items.sort((a, b) => (id(a) < id(b) ? -1 : id(a) > id(b) ? 1 : 0));
}

/**
 * The items but the login failure counters (core/merchants/accounts.ts): a refused sign-in counts the failure on
 * purpose, the one write a refused request makes (docs/security.md "Login throttling").
 */
export const withoutLoginCounters = (items: Record<string, unknown>[]) => items.filter((item) => item.type !== 'login-throttle');

/**
 * Makes the deps' table hold exactly `items` (a scanAll of it taken earlier) again: every item deleted, the snapshot
 * put back. Tests that run one operation many times from the same state (a fault at each of its commands) rewind
 * with it, so each run starts from the very same items.
 */
export async function restoreAll(deps: Pick<Deps, 'db' | 'table'>, items: Record<string, unknown>[]) {
  const current = await scanAll(deps);
  await writeAll(
    deps,
    current.map((item) => ({ DeleteRequest: { Key: { pk: item.pk, sk: item.sk } } })),
  );
  await writeAll(
    deps,
    items.map((item) => ({ PutRequest: { Item: item } })),
  );
}

type WriteRequest = NonNullable<BatchWriteCommandInput['RequestItems']>[string][number];

async function writeAll(deps: Pick<Deps, 'db' | 'table'>, requests: WriteRequest[]) {
  for (let start = 0; start < requests.length; start += 25) {
    let pending: BatchWriteCommandInput['RequestItems'] | undefined = { [deps.table]: requests.slice(start, start + 25) };
    while (pending && Object.keys(pending).length > 0) {
      const out: BatchWriteCommandOutput = await deps.db.send(new BatchWriteCommand({ RequestItems: pending }));
      pending = out.UnprocessedItems;
    }
  }
}
