import { createGroupApp } from '../core/http/app.js';
import type { Deps } from '../core/platform/deps.js';
import { outerRoutes } from './routes/index.js';
import { lambdaHandler } from './deployed.js';

/** The outer group. No operation of it is implemented yet, so it answers 404 in its envelope to every path. */
export const createOuterApp = (deps: Deps) => createGroupApp(deps, outerRoutes, {});

export const handler = lambdaHandler(createOuterApp);
