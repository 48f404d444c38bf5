import { existsSync, readFileSync } from 'node:fs';
import { paginateListTables, paginateScan } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { adminClient } from '../../tools/local/dynamo.js';
import { suiteDynamoFile } from './global-setup.js';

/**
 * Every item of every table the suite's test files left in the run's DynamoDB Locals, table by table, for the walk
 * tests (vitest.config.ts runs them after the suite). Undefined when the suite did not run in this process's parent.
 */
export async function scanSuiteTables(visit: (table: string, item: Record<string, unknown>) => void): Promise<{ tables: number; items: number } | undefined> {
  const file = suiteDynamoFile(process.ppid);
  if (!existsSync(file)) return undefined;
  let tables = 0;
  let items = 0;
  for (const endpoint of readFileSync(file, 'utf8').split('\n')) {
    const client = adminClient(endpoint);
    try {
      for await (const page of paginateListTables({ client }, {})) {
        for (const table of page.TableNames ?? []) {
          tables++;
          for await (const scan of paginateScan({ client }, { TableName: table })) {
            for (const raw of scan.Items ?? []) {
              items++;
              visit(table, unmarshall(raw));
            }
          }
        }
      }
    } finally {
      client.destroy();
    }
  }
  return { tables, items };
}
