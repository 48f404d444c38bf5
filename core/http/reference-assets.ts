import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import swaggerUi from 'swagger-ui-dist/package.json' with { type: 'json' };
import { type ServedFile, servedFile } from './served-files.js';

/**
 * The files of the interactive API reference (core/http/reference-page.ts), served by the meta function itself
 * so the page needs no network beyond the service (docs/api.md "The API reference"): Swagger UI's browser bundle
 * and stylesheet from the installed `swagger-ui-dist` (its version is the one package-lock.json pins, read at
 * build time), and the page's own start-up script. Locally they are read from node_modules; deployed, infra
 * copies them beside the meta function's code (infra/functions.ts) and names the folder in
 * REFERENCE_ASSETS_DIR. Each file is read and gzipped once per process, on its first request (served-files.ts).
 */
export const REFERENCE_VERSION: string = swaggerUi.version;

/** The package's files the page loads, and what they are. */
export const PACKAGE_FILES = {
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'swagger-ui.css': 'text/css; charset=utf-8',
} as const;

/**
 * The page's start-up script: Swagger UI on the document the page names, with nothing sent elsewhere. Its sections
 * start closed (a section's deep link opens it), for the reason docs/api.md "Sections by purpose" gives.
 */
const START = `const mount = document.getElementById('reference');
window.ui = SwaggerUIBundle({
  url: mount.dataset.openapiUrl,
  domNode: mount,
  deepLinking: true,
  validatorUrl: null,
  displayRequestDuration: true,
  defaultModelsExpandDepth: -1,
  persistAuthorization: false,
  docExpansion: 'none',
});
`;

export const REFERENCE_FILES = { ...PACKAGE_FILES, 'reference.js': 'text/javascript; charset=utf-8' } as const;
export type ReferenceFile = keyof typeof REFERENCE_FILES;

/** Where the package's files are: the deployed copy, else the installed package. */
export function referenceAssetsDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.REFERENCE_ASSETS_DIR) return env.REFERENCE_ASSETS_DIR;
  return dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
}

/** Keyed by the folder read, as the console's files are: a process whose REFERENCE_ASSETS_DIR changes serves what it names. */
export function referenceAsset(file: ReferenceFile): Promise<ServedFile> {
  if (file === 'reference.js') return servedFile('reference\u0000reference.js', REFERENCE_FILES[file], async () => new TextEncoder().encode(START));
  const dir = referenceAssetsDir();
  return servedFile(`${dir}\u0000${file}`, REFERENCE_FILES[file], async () => new Uint8Array(await readFile(join(dir, file))));
}
