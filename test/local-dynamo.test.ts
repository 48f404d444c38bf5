import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
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

/** The JDK_JAVA_OPTIONS the Java process serving `endpoint` was started with (Linux: its /proc environment). */
function javaOptionsOf(endpoint: string): string | undefined {
  const port = new URL(endpoint).port;
  const [pid] = execFileSync('pgrep', ['-f', `DynamoDBLocal.jar .*-port ${port}\\b`], { encoding: 'utf8' })
    .trim()
    .split('\n');
  const environment = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
  return environment.find((entry) => entry.startsWith('JDK_JAVA_OPTIONS='))?.slice('JDK_JAVA_OPTIONS='.length);
}

describe('startDynamoLocal', () => {
  it("runs the JVM quick (C1 alone, the serial collector) unless asked for its peak defaults; the user's JDK_JAVA_OPTIONS comes last and stays as it was", async () => {
    const before = process.env.JDK_JAVA_OPTIONS;
    vi.stubEnv('JDK_JAVA_OPTIONS', '-Xmx512m');
    const [quick, peak] = await Promise.all([startDynamoLocal(), startDynamoLocal({ jvm: 'peak' })]);
    try {
      expect(javaOptionsOf(quick.endpoint)).toBe('-XX:TieredStopAtLevel=1 -XX:+UseSerialGC -Xmx512m');
      expect(javaOptionsOf(peak.endpoint)).toBe('-Xmx512m');
      expect(process.env.JDK_JAVA_OPTIONS).toBe('-Xmx512m');
    } finally {
      await Promise.all([quick.stop(), peak.stop()]);
    }
    vi.unstubAllEnvs();
    expect(javaOptionsOf(dynamo.endpoint)).toBe(['-XX:TieredStopAtLevel=1 -XX:+UseSerialGC', before].filter(Boolean).join(' '));
    expect(process.env.JDK_JAVA_OPTIONS).toBe(before);
  }, 120_000);
});
