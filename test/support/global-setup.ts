import { rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { startDynamoLocal } from '../../tools/local/dynamo.js';

declare module 'vitest' {
  export interface ProvidedContext {
    dynamoEndpoints: string[];
  }
}

/**
 * Where the suite's DynamoDB Locals of the run with main process `pid` listen, one address a line, for the walk
 * tests that read every table the suite left (test/server-logs.test.ts); the walk project has a DynamoDB Local of
 * its own.
 */
export const suiteDynamoFile = (pid: number) => join(tmpdir(), `suite-dynamo-${pid}`);

/**
 * Starts the project's in-memory DynamoDB Locals and stops them afterwards: the suite's files run two at a time
 * (vitest.config.ts), each worker on a DynamoDB Local of its own (test/support/deps.ts `dynamoEndpoint`), where one
 * shared by both kept part of the second core idle (the suite's 16 heaviest database files: 242 s against 257 and
 * 269 s on one); the load and walk groups run one file at a time, on one.
 */
export default async function setup(project: TestProject) {
  const count = project.name === 'suite' ? Math.max(1, project.config.maxWorkers) : 1;
  const dynamos = await Promise.all(Array.from({ length: count }, () => startDynamoLocal()));
  project.provide(
    'dynamoEndpoints',
    dynamos.map((d) => d.endpoint),
  );
  const file = project.name === 'suite' ? suiteDynamoFile(process.pid) : undefined;
  if (file) writeFileSync(file, dynamos.map((d) => d.endpoint).join('\n'));
  return async () => {
    if (file) rmSync(file, { force: true });
    await Promise.all(dynamos.map((d) => d.stop()));
  };
}
