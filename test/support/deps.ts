import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';
import { ensureTable } from '../../functions/local/dynamo.js';
import { createDocumentClient } from '../../core/platform/db.js';
import type { Deps } from '../../core/platform/deps.js';
import { diskFileStore } from '../../core/platform/files.js';
import { LOCAL_STAGE } from '../../core/platform/stages.js';
import { createTokenService, generateSigningJwk, type SigningJwk } from '../../core/platform/tokens.js';

export interface TestDeps extends Deps {
  signingKey: SigningJwk;
  filesDir: string;
  /** Moves the test clock (token expiry, lockouts). */
  setNow(date: Date): void;
}

/** Deps on a fresh table of the run's DynamoDB Local, a fresh signing key and a temporary file folder. */
export async function createTestDeps(options: { stage?: string; production?: boolean } = {}): Promise<TestDeps> {
  const endpoint = inject('dynamoEndpoint');
  const table = `test-${randomUUID()}`;
  await ensureTable(endpoint, table);
  let current: Date | undefined;
  const now = () => current ?? new Date();
  const stage = options.stage ?? LOCAL_STAGE;
  const signingKey = await generateSigningJwk();
  const filesDir = mkdtempSync(join(tmpdir(), 'files-'));
  return {
    stage,
    production: options.production ?? false,
    db: createDocumentClient({ endpoint }),
    table,
    files: diskFileStore(filesDir),
    tokens: await createTokenService({ signingKey, issuer: `game-platform/${stage}`, now }),
    now,
    signingKey,
    filesDir,
    setNow: (date) => (current = date),
  };
}
