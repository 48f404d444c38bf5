import { crossOrigin } from '../core/http/cross-origin.js';
import type { Base } from '../core/http/operation.js';
import { heroBasePath, isProductionStage, mainBasePath } from '../core/platform/stages.js';
import { routeTable } from '../functions/routes/index.js';
import { functions } from './functions.js';

/**
 * Two HTTP APIs: the main base (`/<stage>`, e.g. https://<api>/v2-testing/merchant/create) and the hero base
 * (`/hero-<environment>`). Their routes come from the route table the Hono apps are built from, so API Gateway
 * routes exactly the operations the functions serve (test/infra.test.ts holds both sides equal). SST's API
 * stage is `$default`, so the base path is part of every route and reaches Hono unchanged.
 */

/**
 * Throttling of each API's `$default` stage (its default route settings: every route, as API Gateway has no
 * per-client limit on HTTP APIs). A token bucket: `rate` requests a second on average, at most `burst` at once;
 * past them API Gateway answers 429 itself, before any function runs or any table read is paid for.
 *
 * - Production: the main API 4,000 req/s (burst 2,000), the hero API 1,000 (burst 500). Together half the
 *   account's regional API Gateway quota (10,000 req/s, burst 5,000, shared by every API of the account and
 *   region), so other stages in the account keep theirs. 4,000 req/s at ~50 ms a request is ~200 concurrent
 *   Lambdas, in line with what the money functions reserve (infra/functions.ts).
 * - Other stages: 100 req/s (burst 50) on each API: ample for the test suites, a demo or a manual load test,
 *   and a leaked dev URL or a runaway client costs at most that.
 * test/infra.test.ts ("API Gateway throttling") holds these values per stage.
 */
const throttling = (stage: string, which: 'main' | 'hero') =>
  isProductionStage(stage)
    ? which === 'main'
      ? { throttlingRateLimit: 4_000, throttlingBurstLimit: 2_000 }
      : { throttlingRateLimit: 1_000, throttlingBurstLimit: 500 }
    : { throttlingRateLimit: 100, throttlingBurstLimit: 50 };

/**
 * Calls from other origins (core/http/cross-origin.ts): API Gateway answers the preflights itself and adds the
 * headers to every answer. SST's default (`cors: true`) would allow every origin too but expose no header, so a
 * browser game could not read a 503's Retry-After.
 */
const cors = {
  allowOrigins: [...crossOrigin.allowOrigins],
  allowMethods: [...crossOrigin.allowMethods],
  allowHeaders: [...crossOrigin.allowHeaders],
  exposeHeaders: [...crossOrigin.exposeHeaders],
  maxAge: `${crossOrigin.maxAgeSeconds} seconds` as const,
};

const stageArgs = (which: 'main' | 'hero') => ({ cors, transform: { stage: { defaultRouteSettings: throttling($app.stage, which) } } });

export const api = new sst.aws.ApiGatewayV2('Api', stageArgs('main'));
export const heroApi = new sst.aws.ApiGatewayV2('HeroApi', stageArgs('hero'));

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

// Every other path (an unknown one, or a known one with another method) goes to the meta function, which
// answers 404 in the path's envelope as the local server does (core/http/app.ts composeApps), instead of API
// Gateway's own `{"message":"Not Found"}`.
const meta = functions.meta;
if (meta) for (const which of [api, heroApi]) which.route('$default', meta.arn);

export const apiUrl = $interpolate`${api.url}${basePaths.main}`;
export const heroApiUrl = $interpolate`${heroApi.url}${basePaths.hero}`;
