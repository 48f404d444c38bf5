import { buildConsole } from '../console/build.js';
import { CONSOLE_FILES } from '../core/http/console-assets.js';

/**
 * The operator console (docs/console.md), built from its source at every deploy, before the functions are
 * defined, into console/dist; infra/functions.ts copies the built files into the meta function's package, where
 * its code finds them through CONSOLE_ASSETS_DIR (Lambda runs in the package's folder). About 100 KB more in
 * the package; read on the first request for them, so the meta function's cold start is unchanged.
 */
export const CONSOLE_BUILD_DIR = 'console/dist';
export const CONSOLE_ASSETS_DIR = 'console';

await buildConsole(CONSOLE_BUILD_DIR);

export const consoleAssets = {
  copyFiles: Object.keys(CONSOLE_FILES).map((file) => ({ from: `${CONSOLE_BUILD_DIR}/${file}`, to: `${CONSOLE_ASSETS_DIR}/${file}` })),
  environment: { CONSOLE_ASSETS_DIR },
};
