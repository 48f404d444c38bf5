import type { z } from 'zod/mini';
import { readItems } from '../platform/batch.js';
import type { StoresDeps } from './deps.js';
import { storesError } from './errors.js';
import { appStoreSettings, verifyNotification, type AppleEnvironment } from './apple.js';
import { apiFailure, appleApi, appleFailure, callApple } from './apple-api.js';
import { noteKey } from './keys.js';
import { acceptedEnvironments } from './apple-settings.js';
import type { TestNotificationAnswer, TestNotificationBody } from './models.js';

/**
 * app_trigger-test-notification (admin; docs/api.md, "App Store and Google Play purchases"): checks the App Store
 * reaches the stage's notification URL. Without a token it asks Apple for a test notification
 * (requestTestNotification) and then for its delivery status (getTestNotificationStatus), a few times within about a
 * second, since Apple sends it asynchronously; with `testNotificationToken` it only reports the status of one asked
 * for earlier.
 *
 * `status`: `pending` (Apple has not tried yet), `sent` (an attempt succeeded), `failed` (attempts, none
 * successful: the URL is wrong or the stage refused it). `received` says whether this stage recorded the
 * notification (its notificationUUID, from the signed payload Apple reports, verified like any other), which
 * tells a right URL from a URL of another stage that also answered 200.
 */

const RETRY_DELAYS_MS = [0, 300, 700];

export async function triggerTestNotification(deps: StoresDeps, input: z.infer<typeof TestNotificationBody>): Promise<z.infer<typeof TestNotificationAnswer>> {
  const settings = appStoreSettings(deps);
  const environment: AppleEnvironment = input.environment ?? settings.environment;
  if (!acceptedEnvironments(settings).includes(environment))
    throw storesError('appstore.environment_refused', `environment: this stage takes ${acceptedEnvironments(settings).join(' and ')} data only`);
  const client = await appleApi(deps, settings, environment);
  const token = input.testNotificationToken ?? (await callApple('request a test notification', () => client.requestTestNotification())).testNotificationToken;
  if (!token) throw await appleFailure('request a test notification', new Error('Apple answered no testNotificationToken'));

  let status: Awaited<ReturnType<typeof client.getTestNotificationStatus>> | undefined;
  for (const delay of input.testNotificationToken ? [0] : RETRY_DELAYS_MS) {
    if (delay) await new Promise((resolve) => setTimeout(resolve, delay));
    status = await statusOf(client, token);
    if (status?.sendAttempts?.length) break;
  }
  if (!status && input.testNotificationToken)
    throw storesError('appstore.test_notification_not_found', `testNotificationToken: Apple knows no test notification ${token} (in ${environment})`);

  const attempts = (status?.sendAttempts ?? []).map((a) => ({ attemptDate: a.attemptDate ?? null, sendAttemptResult: String(a.sendAttemptResult ?? 'OTHER') }));
  const uuid = status?.signedPayload ? (await verifyNotification(settings, status.signedPayload, 'signedPayload')).notificationUUID : undefined;
  const [record] = uuid ? await readItems(deps, [noteKey(uuid)]) : [undefined];
  return {
    testNotificationToken: token,
    environment,
    status: attempts.length === 0 ? 'pending' : attempts.some((a) => a.sendAttemptResult === 'SUCCESS') ? 'sent' : 'failed',
    sendAttempts: attempts,
    notificationUUID: uuid ?? null,
    received: record !== undefined,
  };
}

/** The status Apple reports, or undefined while it has none for the token (404 TestNotificationNotFound). */
async function statusOf(client: Awaited<ReturnType<typeof appleApi>>, token: string) {
  try {
    return await client.getTestNotificationStatus(token);
  } catch (error) {
    if ((await apiFailure(error))?.httpStatusCode === 404) return undefined;
    throw await appleFailure('report the test notification status', error);
  }
}
