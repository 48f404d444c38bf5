import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { createMainClient, unwrap } from '@game-platform/client';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserBundle, clientSizes, clientUses } from '../tools/admin/client-size.js';
import { demoServerEnv, killLocalServers, startLocalServer, type LocalServer } from './support/local-server.js';
import { startSuiGraphQL, type SuiGraphQL } from './support/sui-graphql.js';

/**
 * The TypeScript client as a game gets it: `npm pack` in clients/ts (its prepack builds dist), the tarball
 * installed in an empty project of its own, and there a player's flow in plain JavaScript run by `node` (no tsx,
 * no loader) against `npm start`, and a TypeScript file type-checked against the installed declarations.
 *
 * The install is offline: the project's package-lock.json pins the tarball and, for its dependencies and the
 * peer @mysten/sui, the versions and integrity of the repository's own lockfile, so `npm ci --offline` takes
 * them from the npm cache the repository's `npm ci` filled.
 */
const exec = promisify(execFile);
const CLIENT_DIR = resolve('clients/ts');

interface LockEntry {
  version: string;
  resolved?: string;
  integrity?: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  [field: string]: unknown;
}

/**
 * The repository's lockfile entries of `names` and of everything they need, at the places the lockfile has them
 * (a package's own node_modules first, then its parents'), as a game's lockfile: no dev or peer flags, and the
 * registry's tarball URL where the repository's lockfile leaves it out (so no package document is read).
 */
function lockEntriesOf(names: string[], registry: string): Record<string, LockEntry> {
  const packages = (JSON.parse(readFileSync('package-lock.json', 'utf8')) as { packages: Record<string, LockEntry> }).packages;
  const entries: Record<string, LockEntry> = {};
  const placeOf = (from: string, name: string): string | undefined => {
    for (let at = from; ; at = at.replace(/\/?node_modules\/(@[^/]+\/)?[^/]+$/, '')) {
      const place = `${at ? `${at}/` : ''}node_modules/${name}`;
      if (packages[place]) return place;
      if (!at) return undefined;
    }
  };
  const add = (place: string) => {
    if (entries[place]) return;
    const { dev: _dev, devOptional: _devOptional, peer: _peer, ...entry } = packages[place]!;
    // An alias's entry names the package it installs.
    const name = typeof entry.name === 'string' ? entry.name : place.slice(place.lastIndexOf('node_modules/') + 'node_modules/'.length);
    entries[place] = { ...entry, resolved: entry.resolved ?? `${registry}/${name}/-/${name.split('/').pop()}-${entry.version}.tgz` };
    const peers = Object.keys(entry.peerDependencies ?? {}).filter((peer) => !entry.peerDependenciesMeta?.[peer]?.optional);
    for (const dependency of [...Object.keys(entry.dependencies ?? {}), ...peers]) {
      const found = placeOf(place, dependency);
      if (!found) throw new Error(`package-lock.json has no ${dependency} for ${place}`);
      add(found);
    }
    // An optional dependency for another platform may be absent from the lockfile.
    for (const dependency of Object.keys(entry.optionalDependencies ?? {})) {
      const found = placeOf(place, dependency);
      if (found) add(found);
    }
  };
  for (const name of names) {
    const found = placeOf('', name);
    if (!found) throw new Error(`package-lock.json has no ${name}`);
    add(found);
  }
  return entries;
}

/** A player's flow as a game writes it in plain JavaScript, printing what it saw as JSON. */
const MAIN_JS = `import { settle, signInWithSuiWallet, unwrap } from '@game-platform/client';
import { Ed25519Keypair } from '@mysten/sui/keypairs/ed25519';

const { BASE_URL: baseUrl, PROJECT: project, PRICE_ID: priceId } = process.env;
const wallet = Ed25519Keypair.generate();
const player = await signInWithSuiWallet({ baseUrl, signer: wallet, gameCode: 'demo-arena' });
// A bare record, one record in the account envelope, the merchant envelope: unwrap answers what is inside.
const order = await unwrap(
  player.api.POST('/account/user/rechargeOrder', { body: { userId: player.userId, project, priceId: Number(priceId), prevId: -1, level: 1, amount: 100_000_000 } }),
);
const tickets = await unwrap(player.api.GET('/account/game/tickets', { params: { query: { projectName: project, level: 1 } } }));
const game = await unwrap(player.api.GET('/merchant/games/detail', { params: { query: { code: 'demo-arena' } } }));
const spent = await settle(player.api.POST('/account/game/minus_tickets', { body: { userId: player.userId, projectName: project, level: 1, amount: 1 } }));
console.log(
  JSON.stringify({
    userId: player.userId,
    address: wallet.toSuiAddress(),
    order: { status: order.status, tickets: order.tickets, user_id: order.user_id },
    balance: tickets.balance,
    game: game.code,
    spent: spent.ok ? 'spent' : spent.error.code,
  }),
);
`;

/** A TypeScript game's use of the typed calls, with what must not compile. */
const CONSUMER_TS = `import { createMainClient, type ErrorCode, settle, unwrap } from '@game-platform/client';
import type { paths } from '@game-platform/client/types/main';

const api = createMainClient({ baseUrl: 'https://api.example.com/v2-prod', token: 'a server token' });

export async function balanceOf(userId: string): Promise<number> {
  const tickets = await unwrap(api.GET('/account/game/tickets', { params: { query: { projectName: 'arena', level: 1, userId } } }));
  return tickets.balance;
}

export async function deduct(userId: string): Promise<ErrorCode | 'spent'> {
  const spent = await settle(api.POST('/account/game/minus_tickets', { body: { userId, projectName: 'arena', level: 1, amount: 1 } }));
  return spent.ok ? 'spent' : spent.error.code;
}

export const ticketsPath: keyof paths = '/account/game/tickets';

export async function wrong() {
  // @ts-expect-error a path the API does not have
  await api.GET('/account/no-such-path');
  // @ts-expect-error the tickets read has no field coins
  return (await unwrap(api.GET('/account/game/tickets', { params: { query: { projectName: 'arena', level: 1 } } }))).coins;
}
`;

let chain: SuiGraphQL;
let server: LocalServer;
let work: string;
/** The empty project the tarball is installed in. */
let game: string;
let packed: { filename: string; files: { path: string }[] };

/** `npm pack` in clients/ts (its prepack builds dist), and the tarball installed offline in an empty project. */
async function packAndInstall() {
  const { stdout } = await exec('npm', ['pack', '--json', '--pack-destination', work], { cwd: CLIENT_DIR, encoding: 'utf8', timeout: 120_000 });
  packed = (JSON.parse(stdout.slice(stdout.indexOf('['))) as (typeof packed)[])[0]!;
  game = join(work, 'game');
  mkdirSync(game);
  const tarball = `file:../${packed.filename}`;
  const peer = (JSON.parse(readFileSync('node_modules/@mysten/sui/package.json', 'utf8')) as { version: string }).version;
  const dependencies = { '@game-platform/client': tarball, '@mysten/sui': peer };
  const client = JSON.parse(readFileSync(join(CLIENT_DIR, 'package.json'), 'utf8')) as LockEntry;
  const registry = (await exec('npm', ['config', 'get', 'registry'], { encoding: 'utf8' })).stdout.trim().replace(/\/$/, '');
  const lock = {
    name: 'a-game',
    version: '1.0.0',
    lockfileVersion: 3,
    requires: true,
    packages: {
      '': { name: 'a-game', version: '1.0.0', dependencies },
      'node_modules/@game-platform/client': {
        version: client.version,
        resolved: tarball,
        dependencies: client.dependencies,
        peerDependencies: client.peerDependencies,
      },
      ...lockEntriesOf([...Object.keys(client.dependencies ?? {}), '@mysten/sui'], registry),
    },
  };
  writeFileSync(join(game, 'package.json'), JSON.stringify({ name: 'a-game', version: '1.0.0', private: true, type: 'module', dependencies }, null, 2));
  writeFileSync(join(game, 'package-lock.json'), JSON.stringify(lock, null, 2));
  await exec('npm', ['ci', '--offline', '--no-audit', '--no-fund'], { cwd: game, encoding: 'utf8', timeout: 120_000 }).catch((error: { stderr?: string }) => {
    throw new Error(`npm ci --offline of the tarball failed (is the npm cache the repository's npm ci filled still there?)\n${error.stderr ?? error}`);
  });
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'client-package-'));
  chain = await startSuiGraphQL();
  [server] = await Promise.all([startLocalServer(demoServerEnv(join(work, 'data'), chain.url)), packAndInstall()]);
}, 240_000);

afterAll(async () => {
  await server?.stop();
  await killLocalServers();
  await chain?.stop();
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('the packed TypeScript client', () => {
  it('packs JavaScript and declarations only: no TypeScript source, no tests', () => {
    const paths = packed.files.map((file) => file.path).sort();
    expect(paths).toContain('dist/index.js');
    expect(paths).toContain('dist/index.d.ts');
    expect(paths).toContain('dist/generated/main.d.ts');
    const unexpected = paths.filter((path) => !['package.json', 'README.md'].includes(path) && !/^dist\/.+\.(js|d\.ts)$/.test(path));
    expect(unexpected).toEqual([]);
    expect(paths.filter((path) => /\.ts$/.test(path) && !path.endsWith('.d.ts'))).toEqual([]);
    expect(paths.filter((path) => /test|spec/i.test(path))).toEqual([]);
    // Each module has its declarations.
    for (const path of paths.filter((path) => path.endsWith('.js'))) expect(paths).toContain(path.replace(/\.js$/, '.d.ts'));
  });

  it('runs a player flow in plain JavaScript under node: a wallet signs in, orders, reads tickets and a game', async () => {
    // The studio's shop, set up through the typed client as the console does.
    const { password } = JSON.parse(readFileSync(join(work, 'data', 'demo-credentials.json'), 'utf8')) as { password: string };
    const baseUrl = `${server.base}/v2-testing`;
    const login = await unwrap(createMainClient({ baseUrl }).POST('/merchant/login', { body: { email: 'demo-merchant@example.com', password } }));
    const studio = createMainClient({ baseUrl, token: login.accessToken });
    const project = `package-${Date.now().toString(36)}`;
    await unwrap(
      studio.POST('/merchant/projects', { body: { project_name: project, receive_address: `0x${'cd'.repeat(32)}`, coin_type: '0x2::sui::SUI', precison: 9 } }),
    );
    const level = await unwrap(
      studio.POST('/merchant/projects/levels', { body: { project_name: project, level: 1, amount: 100_000_000, tickets: 100, status: 1 } }),
    );

    writeFileSync(join(game, 'main.js'), MAIN_JS);
    const { NODE_OPTIONS: _options, ...env } = process.env;
    const { stdout } = await exec(process.execPath, ['main.js'], {
      cwd: game,
      env: { ...env, BASE_URL: baseUrl, PROJECT: project, PRICE_ID: String(level.priceId) },
      encoding: 'utf8',
      timeout: 60_000,
    });
    const seen = JSON.parse(stdout.trim().split('\n').at(-1)!) as { userId: string; address: string };
    expect(seen).toEqual({
      userId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      address: expect.stringMatching(/^0x[0-9a-f]{64}$/),
      order: { status: 0, tickets: 100, user_id: seen.userId },
      balance: 0,
      game: 'demo-arena',
      spent: 'tickets.balance_short',
    });
  });

  it('type-checks a TypeScript game against the installed declarations', async () => {
    writeFileSync(join(game, 'game.ts'), CONSUMER_TS);
    // Libraries' own declarations are not checked (as most games set it); the @ts-expect-error lines fail the
    // check should the package's types not resolve (everything would be any).
    const compilerOptions = {
      target: 'ES2022',
      module: 'NodeNext',
      moduleResolution: 'NodeNext',
      lib: ['ES2022', 'DOM'],
      types: [],
      strict: true,
      skipLibCheck: true,
      noEmit: true,
    };
    writeFileSync(join(game, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: ['game.ts'] }, null, 2));
    const tsc = resolve('node_modules/typescript/bin/tsc');
    const checked = await exec(process.execPath, [tsc, '-p', 'tsconfig.json', '--listFiles'], { cwd: game, encoding: 'utf8', timeout: 120_000 }).catch(
      (error: { stdout?: string }) => {
        throw new Error(`tsc found errors in a game using the package:\n${error.stdout ?? error}`);
      },
    );
    // The types came from the installed package's declarations.
    expect(checked.stdout).toContain(join(game, 'node_modules/@game-platform/client/dist/index.d.ts'));
    expect(checked.stdout).toContain(join(game, 'node_modules/@game-platform/client/dist/generated/main.d.ts'));
  });

  it('bundles to the minified size the README states, which `npm run client-size` measures from the source', async () => {
    const sizes = await clientSizes();
    for (const [use, file] of Object.entries(clientUses)) {
      // The size entry as a game writes it, importing the installed package.
      const contents = readFileSync(join(CLIENT_DIR, 'size', file), 'utf8').replace("'../src/index.js'", "'@game-platform/client'");
      const out = await build({
        stdin: { contents, resolveDir: game, loader: 'ts', sourcefile: file },
        ...browserBundle,
      });
      expect(out.outputFiles[0]!.contents.byteLength, use).toBe(sizes.find((size) => size.use === use)!.minified);
    }
  });
});
