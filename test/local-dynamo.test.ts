import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CreateTableCommand, DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import { adminClient, ensureTable, startDynamoLocal, type LocalDynamo } from '../tools/local/dynamo.js';
import { createTableInput, tableDefinition } from '../core/platform/table.js';

// Its own DynamoDB Local: building indexes on the run's shared one waits behind every other test file's work.
let dynamo: LocalDynamo;
beforeAll(async () => {
  dynamo = await startDynamoLocal();
}, 120_000);
afterAll(() => dynamo?.stop());

describe('ensureTable', () => {
  it('adds the indexes and the stream a table made by an older definition lacks, keeping the table', async () => {
    const name = `old-${randomUUID()}`;
    const full = createTableInput(name, { stream: false });
    const old = { ...full, GlobalSecondaryIndexes: full.GlobalSecondaryIndexes.slice(0, 2) };
    old.AttributeDefinitions = full.AttributeDefinitions.filter((a) => ['pk', 'sk', 'gsi1pk', 'gsi1sk', 'gsi2pk', 'gsi2sk'].includes(a.AttributeName));
    await adminClient(dynamo.endpoint).send(new CreateTableCommand(old));
    expect(await ensureTable(dynamo.endpoint, name)).toBe(false);
    const { Table } = await adminClient(dynamo.endpoint).send(new DescribeTableCommand({ TableName: name }));
    expect(Table?.GlobalSecondaryIndexes?.map((i) => i.IndexName).sort()).toEqual(Object.keys(tableDefinition.indexes).sort());
    expect(Table?.AttributeDefinitions?.find((a) => a.AttributeName === 'gsi4sk')?.AttributeType).toBe('N');
    expect(Table?.StreamSpecification).toEqual({ StreamEnabled: true, StreamViewType: tableDefinition.streamView });
  }, 120_000);
});
