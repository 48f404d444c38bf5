import { ScanCommand } from '@aws-sdk/lib-dynamodb';
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
