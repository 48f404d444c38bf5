import { randomUUID } from 'node:crypto';
import { describe, expect, it, inject } from 'vitest';
import { CreateTableCommand, DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import { adminClient, ensureTable } from '../functions/local/dynamo.js';
import { createTableInput, tableDefinition } from '../core/platform/table.js';

describe('ensureTable', () => {
  it('adds the indexes a table made by an older definition lacks, keeping the table', async () => {
    const endpoint = inject('dynamoEndpoint');
    const name = `old-${randomUUID()}`;
    const full = createTableInput(name);
    const old = { ...full, GlobalSecondaryIndexes: full.GlobalSecondaryIndexes.slice(0, 2) };
    old.AttributeDefinitions = full.AttributeDefinitions.filter((a) => ['pk', 'sk', 'gsi1pk', 'gsi1sk', 'gsi2pk', 'gsi2sk'].includes(a.AttributeName));
    await adminClient(endpoint).send(new CreateTableCommand(old));
    expect(await ensureTable(endpoint, name)).toBe(false);
    const { Table } = await adminClient(endpoint).send(new DescribeTableCommand({ TableName: name }));
    expect(Table?.GlobalSecondaryIndexes?.map((i) => i.IndexName).sort()).toEqual(Object.keys(tableDefinition.indexes).sort());
    expect(Table?.AttributeDefinitions?.find((a) => a.AttributeName === 'gsi4sk')?.AttributeType).toBe('N');
    // DynamoDB Local builds indexes one after another, slowly when the machine is busy.
  }, 180_000);
});
