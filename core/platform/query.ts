import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import type { PlatformDeps } from './deps.js';

/**
 * The items of a Query in order, following LastEvaluatedKey across 1 MB pages, up to `max` items (all when
 * unbounded). One request unless the items read exceed a page.
 */
export async function queryItems(
  deps: Pick<PlatformDeps, 'db' | 'table'>,
  input: Omit<QueryCommandInput, 'TableName' | 'ExclusiveStartKey' | 'Limit'>,
  max = Infinity,
): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let start: QueryCommandInput['ExclusiveStartKey'];
  do {
    const out = await deps.db.send(
      new QueryCommand({ ...input, TableName: deps.table, ExclusiveStartKey: start, ...(Number.isFinite(max) ? { Limit: max - items.length } : {}) }),
    );
    items.push(...(out.Items ?? []));
    start = out.LastEvaluatedKey;
  } while (start && items.length < max);
  return items;
}
