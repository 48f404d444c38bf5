import { basePathOf, composeApps, createGroupApp } from '../core/http/app.js';
import type { RouteGroup } from '../core/http/operation.js';
import { referenceAsset } from '../core/http/reference-assets.js';
import { REFERENCE_CSP, referencePage } from '../core/http/reference-page.js';
import { consoleAsset, type ConsoleFile } from '../core/http/console-assets.js';
import { consoleCsp, consolePage, FILES_URL, filesPlace, HERO_API_URL, heroApiPlace } from '../core/http/console-page.js';
import { platformError } from '../core/platform/errors.js';
import { servedFileResponse } from '../core/http/served-files.js';
import { HOME_CSP, homePage } from '../core/http/home-page.js';
import { consoleSiteRoutes } from './routes/console-site.js';
import type { Deps } from '../core/deps.js';
import { heroMetaRoutes, metaRoutes, rootMetaRoutes } from './routes/meta.js';
import { deployedDeps, lambdaHandler } from './deployed.js';

/**
 * A base's home page (core/http/home-page.ts). Made on the first request, as the document is: the reference's
 * sections it lists come from the route table, which the health check and the keys do not load.
 */
function homeAnswer(deps: Deps, base: 'main' | 'hero') {
  let page: string | undefined;
  return async () => {
    if (!page) {
      const [{ referenceSections }, { routeTable }] = await Promise.all([import('../core/http/openapi.js'), import('./routes/index.js')]);
      page = homePage({
        base,
        basePath: basePathOf(base, deps.stage),
        stage: deps.stage,
        sections: referenceSections(routeTable, base),
        ...(base === 'main' && { heroBase: heroApiPlace(process.env[HERO_API_URL], basePathOf('hero', deps.stage)).base }),
      });
    }
    return new Response(page, { headers: { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': HOME_CSP, 'cache-control': 'no-cache' } });
  };
}

/**
 * The meta function: on each base, its home page, the token keys (JWKS), the API reference (OpenAPI 3.1 document
 * and an interactive page) and a health check; on the main base, the operator console; at the host root, the main
 * base's home page. One Lambda serves both bases and the root.
 */
function createBaseMetaApp(deps: Deps, routes: RouteGroup<typeof metaRoutes.ops>) {
  const basePath = basePathOf(routes.base, deps.stage);
  let document: string | undefined;
  return createGroupApp(deps, routes, {
    home: homeAnswer(deps, routes.base === 'hero' ? 'hero' : 'main'),
    health: async () => ({ status: 'ok' as const, stage: deps.stage }),
    jwks: async () => deps.tokens.jwks() as never,
    openapi: async () => {
      // Generated on the first request, from modules imported then (their own chunk when deployed): the
      // generator and every group's schemas are not needed for the health check or the keys.
      if (!document) {
        const [{ openApiDocument }, { routeTable }] = await Promise.all([import('../core/http/openapi.js'), import('./routes/index.js')]);
        document = JSON.stringify(openApiDocument(routeTable, routes.base, { basePath }));
      }
      return new Response(document, { headers: { 'content-type': 'application/json; charset=utf-8' } });
    },
    docs: async () =>
      new Response(referencePage(`${basePath}/openapi.json`, `${basePath}/docs/assets`, routes.base === 'hero' ? 'Hero game API' : 'Game platform API'), {
        headers: { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': REFERENCE_CSP, 'cache-control': 'no-cache' },
      }),
    docs_asset: async ({ params, req }) => servedFileResponse(await referenceAsset(params.file), req.header('accept-encoding')),
  });
}

/** The console's file, or 503 `console.unbuilt` when this process has none. */
const builtConsoleAsset = (file: ConsoleFile) =>
  consoleAsset(file).catch(() => {
    throw platformError('console.unbuilt', 'the console was not built for this deployment');
  });

/** The operator console (docs/console.md): its page and files, on the main base. */
function createConsoleSiteApp(deps: Deps) {
  const basePath = basePathOf('main', deps.stage);
  return createGroupApp(deps, consoleSiteRoutes, {
    console: async () => {
      const hero = heroApiPlace(process.env[HERO_API_URL], basePathOf('hero', deps.stage));
      const stored = filesPlace(process.env[FILES_URL], `${basePath}/files`);
      const [script, stylesheet] = await Promise.all([builtConsoleAsset('console.js'), builtConsoleAsset('console.css')]);
      const asset = (file: ConsoleFile, version: string) => `${basePath}/console/assets/${file}?v=${version}`;
      const page = consolePage({
        apiBase: basePath,
        heroBase: hero.base,
        filesBase: stored.base,
        stage: deps.stage,
        script: asset('console.js', script.version),
        stylesheet: asset('console.css', stylesheet.version),
      });
      return new Response(page, {
        headers: { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': consoleCsp(hero.origin, stored.origin), 'cache-control': 'no-cache' },
      });
    },
    console_asset: async ({ params, req }) => servedFileResponse(await builtConsoleAsset(params.file), req.header('accept-encoding')),
  });
}

export const createMetaApp = (deps: Deps) =>
  composeApps(deps.stage, [
    createBaseMetaApp(deps, metaRoutes),
    createBaseMetaApp(deps, heroMetaRoutes),
    createConsoleSiteApp(deps),
    // The host root answers the main base's home page.
    createGroupApp(deps, rootMetaRoutes, { home: homeAnswer(deps, 'main') }),
  ]);

export const handler = lambdaHandler(createMetaApp, deployedDeps('meta', {}));
