import { inject } from 'vitest';
import { createLocalDeps, type LocalDeps } from './local-deps.js';

export type TestDeps = LocalDeps;

/** Deps on a fresh table of the run's DynamoDB Local (started by the global setup). */
export function createTestDeps(options: { stage?: string; production?: boolean } = {}): Promise<TestDeps> {
  return createLocalDeps(inject('dynamoEndpoint'), options);
}
