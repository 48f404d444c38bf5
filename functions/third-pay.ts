import { createGroupApp } from '../core/http/app.js';
import type { Deps } from '../core/platform/deps.js';
import { verifyApplePurchase } from '../core/stores/apple-purchases.js';
import { thirdPayRoutes } from './routes/index.js';
import { lambdaHandler } from './deployed.js';

/** The third-pay group: App Store and Google Play purchases (API.md flow 4). */
export const createThirdPayApp = (deps: Deps) =>
  createGroupApp(deps, thirdPayRoutes, {
    'app-verify-transaction': ({ deps, auth, body }) => verifyApplePurchase(deps, auth.sub, body),
  });

export const handler = lambdaHandler(createThirdPayApp);
