import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureTable } from '../../functions/local/dynamo.js';
import { createIdTokenVerifier, type OAuthProvider } from '../../core/identity/id-tokens.js';
import { createDocumentClient } from '../../core/platform/db.js';
import type { Deps } from '../../core/platform/deps.js';
import { diskFileStore } from '../../core/platform/files.js';
import { LOCAL_STAGE } from '../../core/platform/stages.js';
import { createTokenService, generateSigningJwk, type SigningJwk } from '../../core/platform/tokens.js';
import { createClaimSigner, generateClaimKey } from '../../core/rewards/claim-key.js';

export interface LocalDeps extends Deps {
  endpoint: string;
  signingKey: SigningJwk;
  filesDir: string;
  /** Moves the clock the deps see (token expiry, lockouts); `undefined` goes back to real time. */
  setNow(date: Date | undefined): void;
}

/**
 * Deps on a fresh table of a running DynamoDB Local, with a fresh signing key and a temporary file folder:
 * what every test file (test/support/deps.ts) and the bench (bench/fixtures.ts) run against.
 */
export async function createLocalDeps(
  endpoint: string,
  options: { stage?: string; production?: boolean; tablePrefix?: string; oauthProviders?: OAuthProvider[] } = {},
): Promise<LocalDeps> {
  const table = `${options.tablePrefix ?? 'test'}-${randomUUID()}`;
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
    idTokens: createIdTokenVerifier(options.oauthProviders ?? [], { now }),
    claims: await createClaimSigner(generateClaimKey()),
    now,
    endpoint,
    signingKey,
    filesDir,
    setNow: (date) => (current = date),
  };
}
