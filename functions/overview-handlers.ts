import type { Handlers, RouteGroup } from '../core/http/operation.js';
import { stageOverview } from '../core/platform/stage-overview.js';
import type { innerOverviewOps } from './routes/overview.js';

/** The stage overview of the inner group, spread into its handlers. Routes only translate HTTP to core/platform. */
export const innerOverviewHandlers: Handlers<RouteGroup<typeof innerOverviewOps>> = {
  stage_overview: ({ deps, query }) => stageOverview(deps, query),
};
