import { parseArgs } from 'node:util';
import { Resource } from 'sst/resource';
import { ensureAccount, type Role } from '../../core/merchants/accounts.js';
import { createDocumentClient } from '../../core/platform/db.js';
import type { Deps } from '../../core/platform/deps.js';
import { generateSigningJwk } from '../../core/platform/tokens.js';

/**
 * Operator commands (`npm run admin -- <command>`):
 *
 *   create-account --email E --password P [--role admin] [--table T] [--endpoint URL]
 *       Creates a merchant console account in a stage's table. Run it inside `npx sst shell --stage NAME`
 *       so the stage's linked table is found, or name the table (and DynamoDB Local's endpoint) yourself.
 *   generate-signing-key
 *       Prints a new ES256 private JWK for `npx sst secret set TokenSigningKey '<json>' --stage NAME`.
 */
const usage = `usage:
  npm run admin -- create-account --email E --password P [--role merchant|admin] [--table T] [--endpoint URL]
  npm run admin -- generate-signing-key`;

async function main(argv: string[]) {
  const [command, ...rest] = argv;
  if (command === 'generate-signing-key') {
    console.log(JSON.stringify(await generateSigningJwk()));
    return;
  }
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
  const table = values.table ?? linkedTable();
  const deps = {
    db: createDocumentClient(values.endpoint ? { endpoint: values.endpoint } : {}),
    table,
    now: () => new Date(),
  } as Pick<Deps, 'db' | 'table' | 'now'> as Deps;
  const account = await ensureAccount(deps, { email: values.email, password: values.password, role: values.role as Role });
  console.log(`${account.created ? 'created' : 'exists already'}: ${account.email} (${account.role}) in table ${table}`);
}

function linkedTable(): string {
  try {
    return (Resource as unknown as { Table: { name: string } }).Table.name;
  } catch {
    throw new Error('no table: run inside `npx sst shell --stage NAME -- npm run admin -- …`, or pass --table');
  }
}

main(process.argv.slice(2)).catch((error: Error) => {
  console.error(error.message);
  process.exit(1);
});
