import { createGroupApp } from '../core/http/app.js';
import type { Deps } from '../core/platform/deps.js';
import { heroRoutes } from './routes/index.js';
import { lambdaHandler } from './deployed.js';

/** The hero group. No operation of it is implemented yet, so it answers 404 in its envelope to every path. */
export const createHeroApp = (deps: Deps) => createGroupApp(deps, heroRoutes, {});

export const handler = lambdaHandler(createHeroApp);
