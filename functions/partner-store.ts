import { createGroupApp } from '../core/http/app.js';
import type { Deps } from '../core/platform/deps.js';
import { partnerStoreRoutes } from './routes/index.js';
import { lambdaHandler } from './deployed.js';

/** The partner-store group. No operation of it is implemented yet, so it answers 404 in its envelope to every path. */
export const createPartnerStoreApp = (deps: Deps) => createGroupApp(deps, partnerStoreRoutes, {});

export const handler = lambdaHandler(createPartnerStoreApp);
