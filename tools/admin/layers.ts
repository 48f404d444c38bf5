import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

/**
 * `npm run check:layers` (run by .ci/run after the type check): fails when an import breaks a rule of
 * .dependency-cruiser.cjs (docs/architecture.md), or when the diagram in docs/architecture.md is not the one the
 * code draws now. `npm run check:layers -- --write` first redraws the diagram.
 *
 * The diagram is which of core's folders imports which, from dependency-cruiser's own reading of the code (its
 * JSON output collapsed to folders, type-only imports included). The edges into core/platform and core/shared
 * are left out: every folder above them has them, and drawn they would hide the order between the domains.
 */
const root = join(import.meta.dirname, '..', '..');
const doc = join(root, 'docs', 'architecture.md');
const START = '<!-- layers-diagram -->';
const END = '<!-- /layers-diagram -->';

interface Cruised {
  modules: { source: string; dependencies: { resolved: string }[] }[];
}

/** core's folders (and core/deps.ts) and the imports between them, as dependency-cruiser finds them. */
const depcruise = join(root, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruiser.mjs');

function folderImports(): [string, string][] {
  const json = execFileSync(
    process.execPath,
    [depcruise, 'core', '--config', '.dependency-cruiser.cjs', '--include-only', '^core/', '--collapse', '^core/[^/]+/', '--output-type', 'json'],
    { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
  );
  const name = (path: string) => path.replace(/^core\//, '').replace(/\/$/, '');
  const edges = new Set<string>();
  for (const module of (JSON.parse(json) as Cruised).modules) {
    for (const dependency of module.dependencies) {
      const [from, to] = [name(module.source), name(dependency.resolved)];
      if (from !== to && to !== 'platform' && to !== 'shared') edges.add(`${from} ${to}`);
    }
  }
  return [...edges].sort().map((edge) => edge.split(' ') as [string, string]);
}

/** The mermaid block: an arrow from the importing folder to the imported one, lower layers further down. */
export function layersDiagram(): string {
  // A folder is its own node id; core/deps.ts, whose name is no id, gets one and its name as the label.
  const node = (folder: string) => (/^\w+$/.test(folder) ? folder : `${folder.replace(/\W/g, '_')}["${folder}"]`);
  const lines = ['```mermaid', 'flowchart TB'];
  for (const [from, to] of folderImports()) lines.push(`  ${node(from)} --> ${node(to)}`);
  lines.push('```');
  return lines.join('\n');
}

const diagram = layersDiagram();
const text = readFileSync(doc, 'utf8');
const [start, end] = [text.indexOf(START), text.indexOf(END)];
if (start < 0 || end < start) throw new Error(`docs/architecture.md has no ${START} … ${END} block`);
if (process.argv.includes('--write')) {
  writeFileSync(doc, `${text.slice(0, start + START.length)}\n${diagram}\n${text.slice(end)}`);
} else if (text.slice(start + START.length, end).trim() !== diagram) {
  console.error('docs/architecture.md: the layers diagram is not what the code draws now; run `npm run check:layers -- --write`');
  process.exitCode = 1;
}

/**
 * The domain order names every domain folder of core and nothing else: a folder missing from it would be held to
 * no order, and a name without a folder (a folder renamed) would silently guard nothing.
 */
function checkDomainOrder() {
  const config = createRequire(import.meta.url)(join(root, '.dependency-cruiser.cjs')) as { forbidden: { name: string; from: { path: string } }[] };
  const rule = config.forbidden.find((r) => r.name === 'domains-import-no-http-functions-infra');
  const named = /^\^core\/\((.+)\)\/$/.exec(rule?.from.path ?? '')?.[1]?.split('|') ?? [];
  const folders = readdirSync(join(root, 'core'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !['shared', 'platform', 'http'].includes(entry.name))
    .map((entry) => entry.name);
  const unordered = folders.filter((folder) => !named.includes(folder));
  const missing = named.filter((name) => !folders.includes(name));
  if (unordered.length + missing.length === 0) return;
  console.error(
    `.dependency-cruiser.cjs DOMAIN_ORDER: ${[...unordered.map((f) => `core/${f} is not in it`), ...missing.map((n) => `${n} is no folder of core`)].join('; ')}`,
  );
  process.exitCode = 1;
}
checkDomainOrder();

// The rules; dependency-cruiser prints each violation and exits non-zero when there is one.
try {
  execFileSync(process.execPath, [depcruise, 'core', 'functions', 'infra', 'tools', 'console/src', '--config', '.dependency-cruiser.cjs'], {
    cwd: root,
    stdio: 'inherit',
  });
} catch {
  process.exitCode = 1;
}
