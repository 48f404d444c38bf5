import { execFile } from 'node:child_process';
import { mkdirSync, statSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { build, type Metafile } from 'esbuild';
import { routeTable } from '../functions/routes/index.js';
import { median, round } from './stats.js';

const run = promisify(execFile);

/** ESM output that bundles CommonJS dependencies (the AWS SDK) needs `require`, `__filename` and `__dirname`. */
const banner = [
  `import { createRequire as topLevelCreateRequire } from 'module';`,
  `const require = topLevelCreateRequire(import.meta.url);`,
  `import { fileURLToPath as topLevelFileUrlToPath, URL as topLevelURL } from 'url';`,
  `const __filename = topLevelFileUrlToPath(import.meta.url);`,
  `const __dirname = topLevelFileUrlToPath(new topLevelURL('.', import.meta.url));`,
].join('\n');

/** The groups that have a function to deploy: those with at least one operation in the route table. */
export function deployedGroups(): string[] {
  return [...new Set(routeTable.filter((g) => Object.keys(g.ops).length > 0).map((g) => g.group))];
}

export interface Contributor {
  package: string;
  kb: number;
}

export interface BundleResult {
  name: string;
  file: string;
  kb: number;
  /** Entry plus every chunk loaded on demand. */
  totalKb: number;
  sizeRatio: number;
  coldInitMs: number;
  coldInitRatio: number;
  coldInitSamplesMs: number[];
  pass: boolean;
  top: Contributor[];
}

/**
 * Bundles one entry the way infra deploys a function (infra/functions.ts: esm, minified, split, everything
 * bundled) into `outfile`'s folder. Dynamic imports become chunks beside it, loaded on first use, so the
 * size that matters at cold start is the entry's; the total is reported beside it.
 */
export async function bundle(entry: string, outfile: string) {
  const result = await build({
    entryPoints: { [basename(outfile, '.mjs')]: entry },
    outdir: dirname(outfile),
    outExtension: { '.js': '.mjs' },
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    bundle: true,
    platform: 'node', // node builtins stay external; nothing else does
    format: 'esm',
    target: 'node22',
    minify: true,
    treeShaking: true,
    mainFields: ['module', 'main'],
    banner: { js: banner },
    metafile: true,
    logLevel: 'error',
  });
  const totalBytes = Object.values(result.metafile.outputs).reduce((sum, output) => sum + output.bytes, 0);
  return { bytes: statSync(outfile).size, totalBytes, top: topPackages(result.metafile, outfile) };
}

/** The package a bundled input belongs to (the innermost node_modules entry), or `(app code)`. */
function packageOf(input: string): string {
  const parts = input.split('node_modules/');
  if (parts.length < 2) return '(app code)';
  const rest = parts[parts.length - 1]!.split('/');
  return rest[0]!.startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]!;
}

function topPackages(metafile: Metafile, outfile: string, count = 5): Contributor[] {
  const output = Object.entries(metafile.outputs).find(([path]) => outfile.endsWith(path) || path.endsWith(relative(process.cwd(), outfile)));
  if (!output) return [];
  const bytes = new Map<string, number>();
  for (const [input, { bytesInOutput }] of Object.entries(output[1].inputs)) {
    const name = packageOf(input);
    bytes.set(name, (bytes.get(name) ?? 0) + bytesInOutput);
  }
  return [...bytes.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([name, size]) => ({ package: name, kb: round(size / 1024, 1) }));
}

/** Time to import() the module in a fresh node process, measured inside the child. */
async function importTime(file: string, env: NodeJS.ProcessEnv): Promise<number> {
  const script = `const t0 = performance.now(); await import(${JSON.stringify(pathToFileURL(file).href)}); console.log(performance.now() - t0);`;
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { env });
  const ms = Number(stdout.trim().split('\n').pop());
  if (!Number.isFinite(ms)) throw new Error(`cold init of ${file} printed no time: ${stdout}`);
  return ms;
}

export async function benchBundles(options: { outDir: string; runs: number; budget: number; env: NodeJS.ProcessEnv }): Promise<BundleResult[]> {
  mkdirSync(options.outDir, { recursive: true });
  const entries = [
    { name: 'floor', entry: join(import.meta.dirname, 'floor.ts') },
    ...deployedGroups().map((group) => ({ name: group, entry: join(import.meta.dirname, '..', 'functions', `${group}.ts`) })),
  ];
  const built = await Promise.all(
    entries.map(async ({ name, entry }) => {
      const file = join(options.outDir, name, `${name}.mjs`);
      return { name, file, ...(await bundle(entry, file)) };
    }),
  );

  // Round-robin over the bundles so drift in the machine's load affects them all alike.
  const samples = new Map<string, number[]>(built.map((b) => [b.name, []]));
  for (let i = 0; i < options.runs; i++) {
    for (const b of built) samples.get(b.name)!.push(await importTime(b.file, options.env));
  }

  const floor = built[0]!;
  const floorMs = median(samples.get('floor')!);
  return built.map((b) => {
    const coldInitMs = median(samples.get(b.name)!);
    const coldInitRatio = coldInitMs / floorMs;
    return {
      name: b.name,
      file: relative(process.cwd(), b.file),
      kb: round(b.bytes / 1024, 1),
      totalKb: round(b.totalBytes / 1024, 1),
      sizeRatio: round(b.bytes / floor.bytes),
      coldInitMs: round(coldInitMs),
      coldInitRatio: round(coldInitRatio),
      coldInitSamplesMs: samples.get(b.name)!.map((ms) => round(ms)),
      pass: coldInitRatio <= options.budget,
      top: b.top,
    };
  });
}
