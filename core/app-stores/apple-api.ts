import type { AppStoreServerAPIClient } from '@apple/app-store-server-library';
import type { StoresDeps } from './deps.js';
import type { DomainError } from '../platform/errors.js';
import { storesError } from './errors.js';
import { logError } from '../platform/log.js';
import { perEnvironment, type AppleEnvironment, type AppleSettings, type PerEnvironment } from './apple-settings.js';

/**
 * The App Store Server API, through Apple's own client (`AppStoreServerAPIClient`), with the stage's API key
 * (keyId, issuerId, privateKey of AppleConfig): transaction lookups by id, consumption information for refund
 * requests, test notifications. One client per environment (the library fixes each one's base URL).
 *
 * `deps.appStoreApi` may give the clients (the tests give the library's client pointed at a loopback App
 * Store, a subclass that overrides only where requests go); otherwise they are the library's, made from the
 * settings. Failures are Apple's: 503 naming the call, the details in the log.
 */

const clients: PerEnvironment<Promise<AppStoreServerAPIClient>> = new WeakMap();

/** The client for `environment`; 503 naming the setting when the stage has no API key. */
export function appleApi(
  deps: Pick<StoresDeps, 'appStore' | 'appStoreApi'>,
  settings: AppleSettings,
  environment: AppleEnvironment,
): Promise<AppStoreServerAPIClient> {
  if (deps.appStoreApi) return deps.appStoreApi(environment);
  const key = settings.api;
  if (!key)
    throw storesError(
      'appstore.unconfigured',
      'the App Store Server API is not configured on this stage (keyId, issuerId and privateKey of the AppleConfig setting)',
    );
  return perEnvironment(clients, settings, environment, () =>
    import('@apple/app-store-server-library').then(
      (lib) =>
        new lib.AppStoreServerAPIClient(
          key.privateKey,
          key.keyId,
          key.issuerId,
          settings.bundleId,
          environment === 'Production' ? lib.Environment.PRODUCTION : lib.Environment.SANDBOX,
        ),
    ),
  );
}

/** The library's APIException, when `error` is one: Apple's HTTP status and its error code. */
export async function apiFailure(error: unknown): Promise<{ httpStatusCode: number; apiError?: number } | undefined> {
  const { APIException } = await import('@apple/app-store-server-library');
  if (!(error instanceof APIException)) return undefined;
  return { httpStatusCode: error.httpStatusCode, ...(typeof error.apiError === 'number' ? { apiError: error.apiError } : {}) };
}

/** Runs an App Store Server API call; a failure is logged and answered 503 naming what was asked. */
export async function callApple<T>(what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw await appleFailure(what, error);
  }
}

/** Apple failing `what`: logged, and the 503 the caller answers. */
export async function appleFailure(what: string, error: unknown): Promise<DomainError> {
  const failure = await apiFailure(error);
  await logError('app store server api: call failed', { what, ...(failure ?? { error: error instanceof Error ? error.message : String(error) }) });
  return storesError(
    'appstore.unavailable',
    `the App Store Server API could not ${what}${failure ? ` (HTTP ${failure.httpStatusCode}${failure.apiError ? `, error ${failure.apiError}` : ''})` : ''}; try again later`,
  );
}
