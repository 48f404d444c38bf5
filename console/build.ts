import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';

/**
 * Builds the operator console (docs/console.md) into `outDir`: `console.js` (the app, Preact and the typed API
 * client, one ES module, minified) and `console.css`. Run by the local server at start, by the tests that serve
 * the console, and by infra before a deploy; the meta function serves what it built (core/http/console-assets.ts).
 */
export async function buildConsole(outDir: string): Promise<{ files: Record<string, number> }> {
  mkdirSync(outDir, { recursive: true });
  const root = import.meta.dirname;
  const result = await build({
    entryPoints: { console: join(root, 'src', 'main.tsx') },
    outdir: outDir,
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: ['es2022'],
    minify: true,
    jsx: 'automatic',
    jsxImportSource: 'preact',
    tsconfig: join(root, 'tsconfig.json'),
    metafile: true,
    logLevel: 'error',
  });
  const css = await build({
    entryPoints: { console: join(root, 'src', 'console.css') },
    outdir: outDir,
    bundle: true,
    minify: true,
    metafile: true,
    logLevel: 'error',
  });
  const files: Record<string, number> = {};
  for (const [path, output] of Object.entries({ ...result.metafile.outputs, ...css.metafile.outputs })) files[path] = output.bytes;
  return { files };
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  const outDir = process.argv[2] ?? join(import.meta.dirname, 'dist');
  const { files } = await buildConsole(outDir);
  for (const [path, bytes] of Object.entries(files)) console.log(`${path}: ${(bytes / 1024).toFixed(1)} KB`);
}
