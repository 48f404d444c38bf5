import { rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { startDynamoLocal } from '../../tools/local/dynamo.js';

declare module 'vitest' {
  export interface ProvidedContext {
    dynamoEndpoint: string;
  }
}

/**
 * Where the suite's DynamoDB Local of the run with main process `pid` listens, for the walk tests that read
 * every table the suite left (test/server-logs.test.ts); the walk project has a DynamoDB Local of its own.
 */
export const suiteDynamoFile = (pid: number) => join(tmpdir(), `suite-dynamo-${pid}`);

/** Starts one in-memory DynamoDB Local for the project's run and stops it afterwards. */
export default async function setup(project: TestProject) {
  const dynamo = await startDynamoLocal();
  project.provide('dynamoEndpoint', dynamo.endpoint);
  const file = project.name === 'suite' ? suiteDynamoFile(process.pid) : undefined;
  if (file) writeFileSync(file, dynamo.endpoint);
  return async () => {
    if (file) rmSync(file, { force: true });
    await dynamo.stop();
  };
}
