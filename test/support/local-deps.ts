import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureTable } from '../../tools/local/dynamo.js';
import { createIdTokenVerifier, type OAuthProvider } from '../../core/identity/id-tokens.js';
import { createDocumentClient } from '../../core/platform/db.js';
import type { Deps } from '../../core/deps.js';
import { diskFileStore } from '../../core/platform/files.js';
import { LOCAL_STAGE } from '../../core/platform/stages.js';
import { createTokenService, generateSigningJwk, type SigningJwk } from '../../core/platform/tokens.js';
import { cursorKeyOf, cursorSecretOf } from '../../core/platform/cursors.js';
import { createClaimSigner, generateClaimKey } from '../../core/rewards/claim-key.js';
import { ConflictEmulator } from './conflict-emulator.js';
import { PartitionLimits } from './partition-limits.js';
import { keepJournal, runJournalDir } from './transaction-journal.js';

export interface LocalDeps extends Deps {
  endpoint: string;
  /** The token key (the ring's current key). */
  signingKey: SigningJwk;
  /** The vendor PaymentRequest key: a key of its own, never the token key. */
  vendorKey: SigningJwk;
  filesDir: string;
  /** Moves the clock the deps see (token expiry, lockouts); `undefined` goes back to real time. */
  setNow(date: Date | undefined): void;
  /** The emulated transaction conflict rule the deps' client runs under; undefined when turned off. */
  conflicts?: ConflictEmulator;
  /** The emulated per-partition write limit the deps' client runs under; undefined when off (the default). */
  partitions?: PartitionLimits;
}

/**
 * The emulator every deps of this process shares unless told otherwise, as clients of one table share the
 * service; in a test run it journals the transactions (test/support/transaction-journal.ts).
 */
let processEmulator: ConflictEmulator | undefined;
function sharedEmulator(): ConflictEmulator {
  if (!processEmulator) {
    processEmulator = new ConflictEmulator();
    const journal = runJournalDir();
    if (journal) keepJournal(processEmulator, journal);
  }
  return processEmulator;
}

/**
 * Deps on a fresh table of a running DynamoDB Local, with a fresh signing key and a temporary file folder:
 * what every test file (test/support/deps.ts) and the bench (bench/fixtures.ts) run against. The client runs
 * under DynamoDB's transaction conflict rule (test/support/conflict-emulator.ts), which DynamoDB Local does
 * not apply, so that an item shared by concurrent transactions fails here as it would in production;
 * `conflicts: false` turns it off, an emulator of its own isolates a test's counts, and CONFLICT_EMULATION=off
 * in the environment turns the default off for a whole run (a test that passes an emulator keeps it).
 */
export async function createLocalDeps(
  endpoint: string,
  options: {
    stage?: string;
    production?: boolean;
    tablePrefix?: string;
    oauthProviders?: OAuthProvider[];
    conflicts?: ConflictEmulator | false;
    partitions?: PartitionLimits;
    /** The table's stream, for tests of its consumer (the rank pages); off otherwise (core/platform/table.ts). */
    stream?: boolean;
  } = {},
): Promise<LocalDeps> {
  const table = `${options.tablePrefix ?? 'test'}-${randomUUID()}`;
  await ensureTable(endpoint, table, { stream: options.stream ?? false });
  let current: Date | undefined;
  const now = () => current ?? new Date();
  const stage = options.stage ?? LOCAL_STAGE;
  const signingKey = await generateSigningJwk();
  const vendorKey = await generateSigningJwk('vendor');
  const filesDir = mkdtempSync(join(tmpdir(), 'files-'));
  const db = createDocumentClient({ endpoint });
  const byDefault = process.env.CONFLICT_EMULATION === 'off' ? undefined : sharedEmulator();
  const conflicts = options.conflicts === false ? undefined : (options.conflicts ?? byDefault);
  conflicts?.attach(db);
  // The partition limit is off unless asked for (a test of it, the bench), or PARTITION_WRITES_PER_SECOND turns it on for a run.
  const limit = Number(process.env.PARTITION_WRITES_PER_SECOND ?? 0);
  const partitions = options.partitions ?? (limit > 0 ? new PartitionLimits(limit) : undefined);
  partitions?.attach(db);
  return {
    stage,
    production: options.production ?? false,
    db,
    table,
    files: diskFileStore(filesDir),
    tokens: await createTokenService({ signingKey, vendorKey, issuer: `game-platform/${stage}`, now }),
    idTokens: createIdTokenVerifier(options.oauthProviders ?? [], { now }),
    claims: await createClaimSigner(generateClaimKey()),
    cursorKey: cursorKeyOf(cursorSecretOf({ current: signingKey })),
    now,
    endpoint,
    signingKey,
    vendorKey,
    filesDir,
    setNow: (date) => (current = date),
    conflicts,
    partitions,
  };
}
