import { createGroupApp } from '../core/http/app.js';
import type { Deps } from '../core/platform/deps.js';
import { chainRoutes } from './routes/index.js';
import { lambdaHandler } from './deployed.js';

/** The chain group. No operation of it is implemented yet, so it answers 404 in its envelope to every path. */
export const createChainApp = (deps: Deps) => createGroupApp(deps, chainRoutes, {});

export const handler = lambdaHandler(createChainApp);
