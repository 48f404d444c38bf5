import { basePathOf, composeApps, createGroupApp } from '../core/http/app.js';
import type { RouteGroup } from '../core/http/operation.js';
import { referenceAsset } from '../core/http/reference-assets.js';
import { REFERENCE_CSP, referencePage } from '../core/http/reference-page.js';
import type { Deps } from '../core/deps.js';
import { heroMetaRoutes, metaRoutes } from './routes/meta.js';
import { lambdaHandler } from './deployed.js';

/**
 * The meta function: on each base, the token keys (JWKS), the API reference (OpenAPI 3.1 document and an
 * interactive page) and a health check. One Lambda serves both bases.
 */
function createBaseMetaApp(deps: Deps, routes: RouteGroup<typeof metaRoutes.ops>) {
  const basePath = basePathOf(routes.base, deps.stage);
  let document: string | undefined;
  return createGroupApp(deps, routes, {
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
    docs_asset: async ({ params, req }) => {
      const asset = await referenceAsset(params.file);
      const gzip = /\bgzip\b/.test(req.header('accept-encoding') ?? '');
      return new Response(gzip ? asset.gzipped : asset.body, {
        headers: {
          'content-type': asset.type,
          'cache-control': 'public, max-age=31536000, immutable',
          vary: 'accept-encoding',
          ...(gzip ? { 'content-encoding': 'gzip' } : {}),
        },
      });
    },
  });
}

export const createMetaApp = (deps: Deps) => composeApps(deps.stage, [createBaseMetaApp(deps, metaRoutes), createBaseMetaApp(deps, heroMetaRoutes)]);

export const handler = lambdaHandler(createMetaApp);
