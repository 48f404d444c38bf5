import { basename, dirname } from 'node:path';
import { build } from 'esbuild';

/** ESM output that bundles CommonJS dependencies (the AWS SDK) needs `require`, `__filename` and `__dirname`. */
const banner = [
  `import { createRequire as topLevelCreateRequire } from 'module';`,
  `const require = topLevelCreateRequire(import.meta.url);`,
  `import { fileURLToPath as topLevelFileUrlToPath, URL as topLevelURL } from 'url';`,
  `const __filename = topLevelFileUrlToPath(import.meta.url);`,
  `const __dirname = topLevelFileUrlToPath(new topLevelURL('.', import.meta.url));`,
].join('\n');

/**
 * Bundles one entry the way infra deploys a function (infra/functions.ts: esm, minified, split, everything
 * bundled) into `outfile`'s folder. Dynamic imports become chunks beside it, loaded on first use; the chunks
 * the entry imports statically load with it, so the size that matters at cold init is the entry's with them.
 * The bench measures these bundles; the tests of the scheduled jobs run them.
 */
export function bundleAsDeployed(entry: string, outfile: string) {
  return build({
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
}
