import { inject } from 'vitest';
import { createLocalDeps, type LocalDeps } from './local-deps.js';
import type { OAuthProvider } from '../../core/identity/id-tokens.js';

export type TestDeps = LocalDeps;

/** Deps on a fresh table of the run's DynamoDB Local (started by the global setup). */
export function createTestDeps(options: { stage?: string; production?: boolean; oauthProviders?: OAuthProvider[] } = {}): Promise<TestDeps> {
  return createLocalDeps(inject('dynamoEndpoint'), options);
}
