import { routePathOf } from '../core/http/operation.js';
import { routeTable } from '../functions/routes/index.js';
import { functions } from './functions.js';
import { api, basePaths, heroApi } from './gateways.js';

export { api, apiUrl, heroApi, heroApiUrl } from './gateways.js';

/**
 * The routes of the two HTTP APIs (infra/gateways.ts): they come from the route table the Hono apps are built
 * from, so API Gateway routes exactly the operations the functions serve (test/infra.test.ts holds both sides
 * equal). SST's API stage is `$default`, so the base path is part of every route and reaches Hono unchanged.
 */

// Root operations (paths a standard fixes outside the base, core/http/operation.ts `Base`) are on the main API.
const apis = { main: api, hero: heroApi, root: api };

/**
 * `POST`, `/v2-testing`, `/account/goods/:goodsId` -> `POST /v2-testing/account/goods/{goodsId}`; the path `/` is
 * the base itself (`GET /v2-testing`, and `GET /` at the host root).
 */
export function gatewayRoute(method: string, basePath: string, honoPath: string): string {
  if (/[*?]/.test(honoPath)) throw new Error(`no API Gateway equivalent for the Hono path ${honoPath}`);
  return `${method} ${routePathOf(basePath, honoPath.replace(/:(\w+)(\{[^}]*\})?/g, '{$1}'))}`;
}

for (const { group, base, ops } of routeTable) {
  for (const op of Object.values(ops)) {
    // Passing the ARN makes every route integrate with the group's one function instead of creating its own.
    apis[base].route(gatewayRoute(op.method, basePaths[base], op.path), functions[group]!.arn);
  }
}

// Every other path (an unknown one, or a known one with another method) goes to the meta function, which
// answers 404 in the path's envelope as the local server does (core/http/app.ts composeApps), instead of API
// Gateway's own `{"message":"Not Found"}`.
const meta = functions.meta;
if (meta) for (const which of [api, heroApi]) which.route('$default', meta.arn);
