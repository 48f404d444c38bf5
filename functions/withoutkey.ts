import { createGroupApp } from '../core/http/app.js';
import type { Deps } from '../core/platform/deps.js';
import { login } from '../core/merchants/accounts.js';
import { withoutkeyRoutes } from './routes/withoutkey.js';
import { lambdaHandler } from './deployed.js';

/** The withoutkey group: operations that need no token. */
export const createWithoutkeyApp = (deps: Deps) =>
  createGroupApp(deps, withoutkeyRoutes, {
    merchant_login: ({ deps, body }) => login(deps, body.email, body.password),
  });

export const handler = lambdaHandler(createWithoutkeyApp);
