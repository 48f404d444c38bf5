import { mkdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { Metafile } from 'esbuild';
import { bundleAsDeployed } from './deployed-bundle.js';
import { routeTable } from '../functions/routes/index.js';
import { median, round } from './stats.js';
import type { BenchDeps } from './fixtures.js';
import { startDynamoProxy } from '../test/support/dynamo-proxy.js';
import { type ColdSample, coldStarts, firstRequests } from './first-response.js';

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
  /** The operation whose request the first response answers (bench/first-response.ts). */
  firstRequest: string;
  /** The entry and the chunks it imports statically: what loads before the handler can run. */
  staticKb: number;
  coldInitMs: number;
  coldInitRatio: number;
  firstResponseMs: number;
  /** The floor's first response to the same request, with the same DynamoDB requests (bench/first-response.ts). */
  floorFirstResponseMs: number;
  firstResponseRatio: number;
  firstResponseSamplesMs: number[];
  pass: boolean;
  top: Contributor[];
}

/** Bundles one entry as infra deploys it (deployed-bundle.ts), with its sizes: the entry's with its static chunks, and all. */
export async function bundle(entry: string, outfile: string) {
  const { metafile } = await bundleAsDeployed(entry, outfile);
  const totalBytes = Object.values(metafile.outputs).reduce((sum, output) => sum + output.bytes, 0);
  return { bytes: statSync(outfile).size, staticBytes: staticBytes(metafile, outfile), totalBytes, top: topPackages(metafile, outfile) };
}

/** The package a bundled input belongs to (the innermost node_modules entry), or `(app code)`. */
function packageOf(input: string): string {
  const parts = input.split('node_modules/');
  if (parts.length < 2) return '(app code)';
  const rest = parts[parts.length - 1]!.split('/');
  return rest[0]!.startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]!;
}

/** The bytes of the output `outfile` and of every chunk it imports statically, transitively. */
function staticBytes(metafile: Metafile, outfile: string): number {
  const outputs = metafile.outputs;
  const start = Object.keys(outputs).find((path) => outfile.endsWith(path) || path.endsWith(relative(process.cwd(), outfile)));
  const seen = new Set<string>();
  const stack = start ? [start] : [];
  while (stack.length) {
    const path = stack.pop()!;
    if (seen.has(path)) continue;
    seen.add(path);
    for (const imported of outputs[path]!.imports) if (imported.kind === 'import-statement' && outputs[imported.path]) stack.push(imported.path);
  }
  return [...seen].reduce((sum, path) => sum + outputs[path]!.bytes, 0);
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

export async function benchBundles(options: { outDir: string; runs: number; budget: number; deps: BenchDeps }): Promise<BundleResult[]> {
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
  const floor = built[0]!;
  const groups = built.slice(1);

  // Round-robin over the groups so drift in the machine's load affects them all alike; each group's sample is
  // followed by its floor's, answering the same request.
  const proxy = await startDynamoProxy(options.deps.endpoint);
  const samples = new Map<string, { group: ColdSample; floor: ColdSample }[]>(groups.map((b) => [b.name, []]));
  try {
    for (let i = 0; i < options.runs; i++) {
      for (const b of groups) {
        samples.get(b.name)!.push(await coldStarts(options.deps, proxy, b.name as keyof typeof firstRequests, { group: b.file, floor: floor.file }));
      }
    }
  } finally {
    await proxy.stop();
  }

  const all = [...samples.values()].flat();
  const floorImport = median(all.map((s) => s.floor.importMs));
  const size = (b: (typeof built)[number]) => ({
    file: relative(process.cwd(), b.file),
    kb: round(b.bytes / 1024, 1),
    staticKb: round(b.staticBytes / 1024, 1),
    totalKb: round(b.totalBytes / 1024, 1),
    top: b.top,
  });
  return [
    {
      name: 'floor',
      firstRequest: '-',
      ...size(floor),
      coldInitMs: round(floorImport),
      coldInitRatio: 1,
      firstResponseMs: round(median(all.map((s) => s.floor.firstMs))),
      floorFirstResponseMs: 0,
      firstResponseRatio: 1,
      firstResponseSamplesMs: [],
      pass: true,
    },
    ...groups.map((b) => {
      const runs = samples.get(b.name)!;
      const coldInitMs = median(runs.map((s) => s.group.importMs));
      const firstResponseMs = median(runs.map((s) => s.group.firstMs));
      const floorFirstResponseMs = median(runs.map((s) => s.floor.firstMs));
      return {
        name: b.name,
        firstRequest: firstRequests[b.name as keyof typeof firstRequests].label,
        ...size(b),
        coldInitMs: round(coldInitMs),
        coldInitRatio: round(coldInitMs / floorImport),
        firstResponseMs: round(firstResponseMs),
        floorFirstResponseMs: round(floorFirstResponseMs),
        firstResponseRatio: round(firstResponseMs / floorFirstResponseMs),
        firstResponseSamplesMs: runs.map((s) => round(s.group.firstMs)),
        pass: firstResponseMs / floorFirstResponseMs <= options.budget,
      };
    }),
  ];
}
