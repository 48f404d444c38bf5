import { createGroupApp } from '../core/http/app.js';
import type { Deps } from '../core/deps.js';
import { listClients, registerClientAnswer } from '../core/partner-store/clients.js';
import { stageOverview } from '../core/platform/stage-overview.js';
import { sponsoredDay } from '../core/sponsorship/overview.js';
import { adminConsoleRoutes } from './routes/admin-console.js';
import { deployedDeps, lambdaHandler } from './deployed.js';

/** The admin console's group: the stage overview and the partner store's clients. Routes only translate HTTP to core. */
export const createAdminConsoleApp = (deps: Deps) =>
  createGroupApp(deps, adminConsoleRoutes, {
    stage_overview: ({ deps, query }) => stageOverview(deps, query),
    sponsored_day: ({ deps, query }) => sponsoredDay(deps, query),
    store_client_register: ({ deps, body }) => registerClientAnswer(deps, body),
    store_client_list: ({ deps, query }) => listClients(deps, query),
  });

export const handler = lambdaHandler(
  createAdminConsoleApp,
  deployedDeps('admin-console', {
    table: () => import('../core/platform/db.js'),
  }),
);
