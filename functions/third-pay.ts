import { createGroupApp } from '../core/http/app.js';
import type { Deps } from '../core/deps.js';
import { receiveAppleNotification } from '../core/app-stores/apple-notifications.js';
import { verifyApplePurchase } from '../core/app-stores/apple-purchases.js';
import { triggerTestNotification } from '../core/app-stores/apple-test-notification.js';
import { receiveGooglePush } from '../core/app-stores/google-notifications.js';
import { thirdPayRoutes } from './routes/third-pay.js';
import { deployedDeps, lambdaHandler } from './deployed.js';

/** The third-pay group: App Store and Google Play purchases (docs/api.md, "App Store and Google Play purchases"). */
export const createThirdPayApp = (deps: Deps) =>
  createGroupApp(deps, thirdPayRoutes, {
    'app-verify-transaction': ({ deps, auth, body }) => verifyApplePurchase(deps, auth.sub, body),
    'app_asdn-v2-callback': ({ deps, body }) => receiveAppleNotification(deps, body),
    'app_trigger-test-notification': ({ deps, body }) => triggerTestNotification(deps, body),
    google_callback: ({ deps, body, req }) => receiveGooglePush(deps, req.header('authorization'), body),
  });

export const handler = lambdaHandler(
  createThirdPayApp,
  deployedDeps('third-pay', {
    table: () => import('../core/platform/db.js'),
    appStore: () => import('../core/app-stores/apple-settings.js'),
    googlePlay: () => import('../core/app-stores/google-settings.js'),
  }),
);
