import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { Resource } from 'sst/resource';
import { ensureAccount, type Role } from '../../core/merchants/accounts.js';
import { createDocumentClient } from '../../core/platform/db.js';
import { backfillIndexes } from '../../core/platform/index-backfill.js';
import { assertionKeyOf } from '../../core/partner-store/assertion-keys.js';
import { registerClient } from '../../core/partner-store/clients.js';
import { generateStoreKeys, STORE_REGIONS, type StoreRegion } from '../../core/partner-store/regions.js';
import type { Deps } from '../../core/deps.js';
import {
  compressedPublicKey,
  generateSigningJwk,
  parseTokenKeys,
  ringKeys,
  rotateTokenKeys,
  rotationSteps,
  serializeTokenKeys,
  type RotationStep,
  type TokenKeyRing,
} from '../../core/platform/tokens.js';
import { INDEX_BACKFILLS } from './index-backfills.js';
import { configuredDynamo } from '../local/dynamo.js';
import { runningServer } from '../local/server-file.js';

/**
 * Operator commands (`npm run admin -- <command>`). Key material goes to stdout only, for `npx sst secret set`
 * to read from stdin; what the operator reads (kids, public keys) goes to stderr.
 *
 *   create-account --email E --password P [--role admin] [--table T] [--endpoint URL]
 *       Creates a merchant console account in a stage's table. Run it inside `npx sst shell --stage NAME`
 *       so the stage's linked table is found, or name the table (and DynamoDB Local's endpoint) yourself.
 *   generate-signing-key
 *       Prints a new token key ring `{"current": <ES256 private JWK>}` for `npx sst secret set TokenSigningKey`.
 *   generate-vendor-key
 *       Prints a new ES256 private JWK for `npx sst secret set VendorSigningKey`; stderr shows the compressed
 *       public key the vendors' Move contracts hold.
 *   generate-store-keys
 *       Prints the partner store's region keys `{"default": <ES256 JWK>, "chengdu": <ES256 JWK>}` for
 *       `npx sst secret set StoreKeys`.
 *   register-store-client --region default|chengdu --type public|confidential --name N --redirect-uri URI…
 *                         --scope S… [--assertion-jwk JWK|@FILE] [--table T] [--endpoint URL]
 *       Registers a partner OAuth client in a region; prints its client_id (and, for a confidential client, its
 *       secret: shown once, the table keeps its hash) as JSON on stdout. `--assertion-jwk` registers a
 *       confidential client as a partner backend that signs its users in (store login): the public JWK, ES256
 *       or EdDSA (core/partner-store/assertion-keys.ts), given as its JSON or as @FILE holding it. A private key or
 *       another algorithm is refused before anything is written.
 *   backfill-indexes [--table T] [--endpoint URL] [--dry-run]
 *       Gives the items written before an index the keys this version's writes set on them (orders, merchants,
 *       store clients, and the player's items a deletion finds: tools/admin/index-backfills.ts), each on
 *       condition it still lacks them; safe to run again and beside live traffic. Prints the counts of each kind
 *       as JSON on stdout; `--dry-run` counts what it would update and writes nothing. Finds the table as
 *       create-account does.
 *   rotate-signing-key --step next|promote|retire|replace [--from FILE|-]
 *       Reads the stage's TokenSigningKey (a file, stdin with `-`, or by default the linked secret inside
 *       `npx sst shell --stage NAME`) and prints the ring of the next rotation step (README "Rotating the token key").
 */
const usage = `usage:
  npm run admin -- create-account --email E --password P [--role merchant|admin] [--table T] [--endpoint URL]
  npm run admin -- generate-signing-key
  npm run admin -- generate-vendor-key
  npm run admin -- rotate-signing-key --step ${rotationSteps.join('|')} [--from FILE|-]
  npm run admin -- generate-store-keys
  npm run admin -- register-store-client --region default|chengdu --type public|confidential --name N --redirect-uri URI [--redirect-uri URI…] --scope S [--scope S…] [--assertion-jwk JWK|@FILE] [--table T] [--endpoint URL]
  npm run admin -- backfill-indexes [--table T] [--endpoint URL] [--dry-run]`;

const note = (line: string) => process.stderr.write(`${line}\n`);

async function keyCommand(command: string, rest: string[]): Promise<boolean> {
  if (command === 'generate-signing-key') {
    const ring: TokenKeyRing = { current: await generateSigningJwk() };
    console.log(serializeTokenKeys(ring));
    note(`token key ring: current ${ring.current.kid}`);
    return true;
  }
  if (command === 'generate-vendor-key') {
    const key = await generateSigningJwk('vendor');
    console.log(JSON.stringify(key));
    const publicKey = Buffer.from(compressedPublicKey(key));
    note(`vendor key ${key.kid}: public key (compressed P-256) hex ${publicKey.toString('hex')} base64 ${publicKey.toString('base64')}`);
    return true;
  }
  if (command === 'generate-store-keys') {
    console.log(await generateStoreKeys());
    note('store keys: one ES256 key for each region (default, chengdu)');
    return true;
  }
  if (command === 'rotate-signing-key') {
    const { values } = parseArgs({ args: rest, options: { step: { type: 'string' }, from: { type: 'string' } } });
    const step = values.step as RotationStep;
    if (!rotationSteps.includes(step)) throw new Error(`--step must be one of ${rotationSteps.join(', ')}\n${usage}`);
    const ring = await rotateTokenKeys(parseTokenKeys(await currentTokenKeys(values.from)), step);
    console.log(serializeTokenKeys(ring));
    note(`token key ring after ${step}: ${describeRing(ring)}`);
    return true;
  }
  return false;
}

/** The TokenSigningKey value: from a file, stdin (`-`), or the linked secret (inside `npx sst shell`). */
async function currentTokenKeys(from: string | undefined): Promise<string> {
  if (from === '-') {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  }
  if (from) return readFile(from, 'utf8');
  try {
    return (Resource as unknown as { TokenSigningKey: { value: string } }).TokenSigningKey.value;
  } catch {
    throw new Error('no TokenSigningKey: run inside `npx sst shell --stage NAME -- npm run -s admin -- …`, or pass --from FILE (or - for stdin)');
  }
}

function describeRing(ring: TokenKeyRing): string {
  const [current, ...others] = ringKeys(ring);
  return (
    [`current ${current!.kid}`, ring.next ? `next ${ring.next.kid}` : '', ring.previous ? `previous ${ring.previous.kid}` : ''].filter(Boolean).join(', ') +
    (others.length === 0 ? ' (no other key: tokens of any other key are refused)' : '')
  );
}

async function main(argv: string[]) {
  const [command, ...rest] = argv;
  if (command && (await keyCommand(command, rest))) return;
  if (command === 'register-store-client') return registerStoreClient(rest);
  if (command === 'backfill-indexes') return backfillIndexesCommand(rest);
  if (command !== 'create-account') throw new Error(usage);
  const { values } = parseArgs({
    args: rest,
    options: {
      email: { type: 'string' },
      password: { type: 'string' },
      role: { type: 'string', default: 'merchant' },
      table: { type: 'string' },
      endpoint: { type: 'string' },
    },
  });
  if (!values.email || !values.password) throw new Error(`--email and --password are required\n${usage}`);
  if (values.role !== 'merchant' && values.role !== 'admin') throw new Error('--role must be merchant or admin');
  const { table, db } = tableOf(values);
  const deps = { db, table, now: () => new Date() } as Pick<Deps, 'db' | 'table' | 'now'> as Deps;
  const account = await ensureAccount(deps, { email: values.email, password: values.password, role: values.role as Role });
  console.log(`${account.created ? 'created' : 'exists already'}: ${account.email} (${account.role}) in table ${table}`);
}

async function registerStoreClient(args: string[]) {
  const { values } = parseArgs({
    args,
    options: {
      region: { type: 'string', default: 'default' },
      type: { type: 'string' },
      name: { type: 'string' },
      'redirect-uri': { type: 'string', multiple: true, default: [] },
      scope: { type: 'string', multiple: true, default: [] },
      'assertion-jwk': { type: 'string' },
      table: { type: 'string' },
      endpoint: { type: 'string' },
    },
  });
  if (!(STORE_REGIONS as readonly string[]).includes(values.region)) throw new Error(`--region must be one of ${STORE_REGIONS.join(', ')}`);
  if (values.type !== 'public' && values.type !== 'confidential') throw new Error('--type must be public or confidential');
  if (!values.name) throw new Error(`--name is required\n${usage}`);
  const given = values['assertion-jwk'];
  if (given !== undefined && values.type !== 'confidential') throw new Error('--assertion-jwk: only a confidential client (a partner backend) signs users in');
  const assertionJwk = given === undefined ? undefined : await assertionJwkOption(given);
  const { table, db } = tableOf(values);
  const deps = { db, table, now: () => new Date() };
  const registered = await registerClient(deps, {
    region: values.region as StoreRegion,
    type: values.type,
    name: values.name,
    redirect_uris: values['redirect-uri'],
    scopes: values.scope,
    ...(assertionJwk ? { assertion_jwk: assertionJwk } : {}),
  }).catch((error: Error) => {
    // registerClient names the field as the API's body does; the operator gave an option.
    throw new Error(
      error.message
        .replace(/^body\.redirect_uris\.(\d+)/, (_, index: string) => `--redirect-uri ${values['redirect-uri'][Number(index)]}`)
        .replace(/^body\.scopes\.(\d+)/, (_, index: string) => `--scope ${values.scope[Number(index)]}`),
    );
  });
  console.log(JSON.stringify({ client_id: registered.client.client_id, ...(registered.client_secret ? { client_secret: registered.client_secret } : {}) }));
  const signsIn = registered.client.assertion_jwk ? `, signing users in with its ${registered.client.assertion_jwk.alg} key` : '';
  note(
    `registered ${values.type} client ${registered.client.client_id} in region ${values.region} of table ${table}${signsIn}${registered.client_secret ? ': keep the secret now, it is not shown again' : ''}`,
  );
}

async function backfillIndexesCommand(args: string[]) {
  const { values } = parseArgs({
    args,
    options: { table: { type: 'string' }, endpoint: { type: 'string' }, 'dry-run': { type: 'boolean', default: false } },
  });
  const { table, db } = tableOf(values);
  const dryRun = values['dry-run'];
  const deps = { db, table };
  note(`backfill-indexes: ${dryRun ? 'counting what it would update (dry run: nothing is written)' : 'setting the keys'} in table ${table}`);
  const kinds = await backfillIndexes(deps, INDEX_BACKFILLS, {
    dryRun,
    onUnreadable: (kind, key, problem) => note(`${kind}: ${key.pk} ${key.sk} left as it is, its attributes do not parse (${problem})`),
  });
  console.log(JSON.stringify({ table, dry_run: dryRun, kinds }, null, 2));
}

/** `--assertion-jwk`: the JWK's JSON, or @FILE holding it; checked here so the message names the option. */
async function assertionJwkOption(given: string) {
  const text = given.startsWith('@')
    ? await readFile(given.slice(1), 'utf8').catch((error: Error) => {
        throw new Error(`--assertion-jwk: cannot read ${given.slice(1)} (${error.message})`);
      })
    : given;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new Error('--assertion-jwk: not JSON (give the public JWK as JSON, or @FILE holding it)');
  }
  try {
    return await assertionKeyOf(value);
  } catch (error) {
    throw new Error(`--assertion-jwk: ${(error as Error).message}`);
  }
}

/**
 * The table a command works on, and the client to reach it: `--table` (with `--endpoint` for a DynamoDB Local);
 * else the stage's linked table, inside `npx sst shell --stage NAME`; else the local server running on DATA_DIR
 * (`.data` unless set: its table and DynamoDB, tools/local/server-file.ts), so that a command beside
 * `npm start` needs neither option.
 */
function tableOf(values: { table?: string; endpoint?: string }): { table: string; db: ReturnType<typeof createDocumentClient> } {
  if (values.table) return { table: values.table, db: createDocumentClient(values.endpoint ? { endpoint: values.endpoint } : {}) };
  try {
    return {
      table: (Resource as unknown as { Table: { name: string } }).Table.name,
      db: createDocumentClient(values.endpoint ? { endpoint: values.endpoint } : {}),
    };
  } catch {
    // Not inside an SST shell: the local server, if one runs.
  }
  const dataDir = process.env.DATA_DIR || '.data';
  const local = runningServer(dataDir);
  if (!local) {
    throw new Error(
      `no table: start the local server (npm start) on DATA_DIR ${dataDir}, run inside \`npx sst shell --stage NAME -- npm run admin -- …\`, or pass --table (and --endpoint)`,
    );
  }
  const connection = configuredDynamo({ ...process.env, AWS_ENDPOINT_URL_DYNAMODB: local.dynamodb.endpoint, AWS_REGION: local.dynamodb.region })!;
  note(`table ${local.table} of the local server on ${dataDir} (${local.url}), DynamoDB ${local.dynamodb.endpoint}`);
  return { table: local.table, db: createDocumentClient(connection) };
}

main(process.argv.slice(2)).catch((error: Error) => {
  console.error(error.message);
  process.exit(1);
});
