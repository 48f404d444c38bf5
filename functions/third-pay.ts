import { createGroupApp } from '../core/http/app.js';
import type { Deps } from '../core/platform/deps.js';
import { thirdPayRoutes } from './routes/index.js';
import { lambdaHandler } from './deployed.js';

/** The third-pay group. No operation of it is implemented yet, so it answers 404 in its envelope to every path. */
export const createThirdPayApp = (deps: Deps) => createGroupApp(deps, thirdPayRoutes, {});

export const handler = lambdaHandler(createThirdPayApp);
