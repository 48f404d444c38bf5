import { crossOrigin } from '../core/http/cross-origin.js';
import type { Base } from '../core/http/operation.js';
import { heroBasePath, isProductionStage, mainBasePath } from '../core/platform/stages.js';

/**
 * The stage's two HTTP APIs, without their routes (infra/api.ts adds them): the main base (`/<stage>`, e.g.
 * https://<api>/v2-testing/merchant/create) and the hero base (`/hero-<environment>`). They are made before the
 * functions because the meta function is told the hero API's URL (the console calls it: docs/console.md),
 * while the routes, made after, name the functions.
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

/** The base path of each base on its API; root operations (paths a standard fixes) have none. */
export const basePaths: Record<Base, string> = { main: mainBasePath($app.stage), hero: heroBasePath($app.stage), root: '' };

export const apiUrl = $interpolate`${api.url}${basePaths.main}`;
export const heroApiUrl = $interpolate`${heroApi.url}${basePaths.hero}`;
