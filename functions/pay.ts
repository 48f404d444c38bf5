import { createGroupApp } from '../core/http/app.js';
import type { Deps } from '../core/platform/deps.js';
import { payRoutes } from './routes/index.js';
import { lambdaHandler } from './deployed.js';

/** The pay group. No operation of it is implemented yet, so it answers 404 in its envelope to every path. */
export const createPayApp = (deps: Deps) => createGroupApp(deps, payRoutes, {});

export const handler = lambdaHandler(createPayApp);
