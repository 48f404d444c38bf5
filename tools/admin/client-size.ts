import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const sizeDir = join(import.meta.dirname, '..', '..', 'clients', 'ts', 'size');

/** The browser uses of the TypeScript client whose bundle size its README states, by entry file. */
export const clientUses = { 'a browser game (game.ts)': 'game.ts', 'a partner app with the store code flow (store-app.ts)': 'store-app.ts' };

/**
 * What each use costs a browser bundle: esbuild's minified ES module for browsers, everything it imports bundled
 * (the client, openapi-fetch, oauth4webapi where used; @mysten/sui is the game's own and only its types are
 * imported), and that gzipped, in bytes. The entries import the client's source, so no build is needed: esbuild
 * only strips its types, as tsc does when it builds the package's dist (the same ES2022 target), so a game that
 * bundles the installed package gets the same minified size.
 */
/** How a browser game bundles the client: one minified ES module. */
export const browserBundle = { bundle: true, minify: true, format: 'esm', platform: 'browser', target: 'es2022', write: false, logLevel: 'silent' } as const;

export async function clientSizes(): Promise<{ use: string; minified: number; gzipped: number }[]> {
  return Promise.all(
    Object.entries(clientUses).map(async ([use, file]) => {
      const out = await build({ entryPoints: [join(sizeDir, file)], ...browserBundle });
      const code = out.outputFiles[0]!.contents;
      return { use, minified: code.byteLength, gzipped: gzipSync(code, { level: 9 }).byteLength };
    }),
  );
}

/** The README's table line of a use. */
export const sizeLine = ({ use, minified, gzipped }: { use: string; minified: number; gzipped: number }) =>
  `| ${use} | ${(minified / 1024).toFixed(1)} KB | ${(gzipped / 1024).toFixed(1)} KB |`;

// `npm run client-size`: prints the README's lines.
if (process.argv[1] === import.meta.filename) {
  for (const size of await clientSizes()) console.log(sizeLine(size));
}
