import type { RouteGroup } from '../../core/http/operation.js';
import { adminConsoleRoutes } from './admin-console.js';
import { boardsRoutes } from './boards.js';
import { chainRoutes } from './chain.js';
import { consoleSiteRoutes } from './console-site.js';
import { heroRoutes } from './hero.js';
import { innerRoutes } from './inner.js';
import { heroMetaRoutes, metaRoutes, rootMetaRoutes } from './meta.js';
import { outerRoutes } from './outer.js';
import { partnerStoreRootRoutes, partnerStoreRoutes } from './partner-store.js';
import { payRoutes } from './pay.js';
import { thirdPayRoutes } from './third-pay.js';
import { withoutkeyRoutes } from './withoutkey.js';

/**
 * The route table: every operation of every group, on its base. The Hono apps, the API Gateway routes
 * (infra/api.ts) and the OpenAPI documents are all derived from it. A group lists only implemented
 * operations; a group with none is not deployed.
 */
export const routeTable: readonly RouteGroup[] = [
  innerRoutes,
  boardsRoutes,
  adminConsoleRoutes,
  outerRoutes,
  withoutkeyRoutes,
  chainRoutes,
  thirdPayRoutes,
  payRoutes,
  partnerStoreRoutes,
  partnerStoreRootRoutes,
  heroRoutes,
  metaRoutes,
  rootMetaRoutes,
  consoleSiteRoutes,
  heroMetaRoutes,
];
