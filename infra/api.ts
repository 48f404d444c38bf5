import type { Base } from '../core/http/operation.js';
import { heroBasePath, mainBasePath } from '../core/platform/stages.js';
import { routeTable } from '../functions/routes/index.js';
import { functions } from './functions.js';

/**
 * Two HTTP APIs: the main base (`/<stage>`, e.g. https://<api>/v2-testing/merchant/create) and the hero base
 * (`/hero-<environment>`). Their routes come from the route table the Hono apps are built from, so API Gateway
 * routes exactly the operations the functions serve (test/infra.test.ts holds both sides equal). SST's API
 * stage is `$default`, so the base path is part of every route and reaches Hono unchanged.
 */
export const api = new sst.aws.ApiGatewayV2('Api');
export const heroApi = new sst.aws.ApiGatewayV2('HeroApi');

// Root operations (paths a standard fixes outside the base, core/http/operation.ts `Base`) are on the main API.
const apis = { main: api, hero: heroApi, root: api };
const basePaths: Record<Base, string> = { main: mainBasePath($app.stage), hero: heroBasePath($app.stage), root: '' };

/** `POST`, `/v2-testing`, `/account/goods/:goodsId` -> `POST /v2-testing/account/goods/{goodsId}`. */
export function gatewayRoute(method: string, basePath: string, honoPath: string): string {
  if (/[*?]/.test(honoPath)) throw new Error(`no API Gateway equivalent for the Hono path ${honoPath}`);
  const path = honoPath.replace(/:(\w+)(\{[^}]*\})?/g, '{$1}');
  return `${method} ${basePath}${path === '/' ? '' : path}`;
}

for (const { group, base, ops } of routeTable) {
  for (const op of Object.values(ops)) {
    // Passing the ARN makes every route integrate with the group's one function instead of creating its own.
    apis[base].route(gatewayRoute(op.method, basePaths[base], op.path), functions[group]!.arn);
  }
}

export const apiUrl = $interpolate`${api.url}${basePaths.main}`;
export const heroApiUrl = $interpolate`${heroApi.url}${basePaths.hero}`;
