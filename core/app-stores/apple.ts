import type { JWSTransactionDecodedPayload, ResponseBodyV2DecodedPayload, SignedDataVerifier } from '@apple/app-store-server-library';
import type { StoresDeps } from './deps.js';
import { storesError } from './errors.js';
import { acceptedEnvironments, perEnvironment, type AppleSettings, type PerEnvironment } from './apple-settings.js';

/**
 * App Store signed data, verified with Apple's own library (`@apple/app-store-server-library`'s
 * SignedDataVerifier): the JWS's x5c chain must end at one of the stage's root certificates, with Apple's
 * intermediate and leaf marker extensions, the signature must be the leaf's, the dates valid (online: now,
 * with OCSP revocation checks; offline, in tests: at the payload's signedDate), and the payload must name the
 * stage's bundle id (and app Apple id, for Production notifications) and environment.
 *
 * A verifier checks one environment, so the payload's own `environment` (read before verification, only to
 * pick the verifier) chooses it among the environments the stage takes; data of another environment is
 * refused before any verification. The library is imported on first use: only the App Store operations load it.
 */

export type { AppleEnvironment } from './apple-settings.js';
import type { AppleEnvironment } from './apple-settings.js';

const verifiers: PerEnvironment<Promise<SignedDataVerifier>> = new WeakMap();

/** The stage's settings, or 503 naming the missing setting. */
export function appStoreSettings(deps: Pick<StoresDeps, 'appStore'>): AppleSettings {
  if (!deps.appStore) throw storesError('appstore.unconfigured', 'App Store purchases are not configured on this stage (the AppleConfig setting)');
  return deps.appStore;
}

function verifierFor(settings: AppleSettings, environment: AppleEnvironment): Promise<SignedDataVerifier> {
  return perEnvironment(verifiers, settings, environment, () =>
    import('@apple/app-store-server-library').then(
      (lib) =>
        new lib.SignedDataVerifier(
          settings.rootCertificates,
          settings.onlineChecks,
          environment === 'Production' ? lib.Environment.PRODUCTION : lib.Environment.SANDBOX,
          settings.bundleId,
          settings.appAppleId,
        ),
    ),
  );
}

/** The environment a JWS's payload claims, unverified: only to choose the verifier that then checks it. */
function claimedEnvironment(jws: string, field: string): AppleEnvironment {
  const parts = jws.split('.');
  let payload: unknown;
  try {
    payload = parts.length === 3 ? JSON.parse(Buffer.from(parts[1]!, 'base64url').toString('utf8')) : undefined;
  } catch {
    payload = undefined;
  }
  if (typeof payload !== 'object' || payload === null) throw storesError('appstore.jws_invalid', `${field}: not a JWS with a JSON payload`);
  // A transaction names its environment; a notification in its data (or summary, for summary notifications).
  const record = payload as { environment?: unknown; data?: { environment?: unknown }; summary?: { environment?: unknown } };
  const environment = record.environment ?? record.data?.environment ?? record.summary?.environment;
  if (environment !== 'Production' && environment !== 'Sandbox')
    throw storesError('appstore.jws_invalid', `${field}: the payload names no App Store environment (Production or Sandbox)`);
  return environment;
}

/** What each VerificationStatus (the library's enum) means to the caller. */
const REASONS: Record<number, string> = {
  1: "its signature or certificate chain is not Apple's",
  3: 'it is for another app (bundle id or app Apple id)',
  4: 'it is for another App Store environment',
  5: 'its certificate chain is not three certificates long',
  6: 'a certificate of its chain is unreadable, expired, not yet valid or revoked',
  7: 'its payload is not of the expected shape',
};
/** VerificationStatus.RETRYABLE_VERIFICATION_FAILURE: revocation could not be checked (Apple's OCSP unreachable). */
const RETRYABLE = 2;

/** A verified, decoded signed transaction; 400 naming `field` when it is not the stage's, 503 when it cannot be checked now. */
export function verifyTransaction(settings: AppleSettings, jws: string, field = 'signedTransaction'): Promise<JWSTransactionDecodedPayload> {
  return verified(settings, jws, field, (verifier) => verifier.verifyAndDecodeTransaction(jws));
}

/** A verified, decoded App Store Server Notification v2 (`signedPayload`); refusals as verifyTransaction's. */
export function verifyNotification(settings: AppleSettings, jws: string, field = 'signedPayload'): Promise<ResponseBodyV2DecodedPayload> {
  return verified(settings, jws, field, (verifier) => verifier.verifyAndDecodeNotification(jws));
}

async function verified<T>(settings: AppleSettings, jws: string, field: string, verify: (verifier: SignedDataVerifier) => Promise<T>): Promise<T> {
  const environment = claimedEnvironment(jws, field);
  if (!acceptedEnvironments(settings).includes(environment)) {
    throw storesError(
      'appstore.environment_refused',
      `${field}: ${environment} data is not taken on this stage (it takes ${acceptedEnvironments(settings).join(' and ')})`,
    );
  }
  const verifier = await verifierFor(settings, environment);
  try {
    return await verify(verifier);
  } catch (error) {
    throw await refusal(error, field);
  }
}

/** The library's VerificationException as our 4xx (503 when Apple could not be asked); anything else unchanged. */
async function refusal(error: unknown, field: string): Promise<Error> {
  const { VerificationException } = await import('@apple/app-store-server-library');
  if (!(error instanceof VerificationException)) return error as Error;
  if (error.status === RETRYABLE)
    return storesError('appstore.unavailable', `${field}: its certificates could not be checked for revocation now; try again later`);
  return storesError('appstore.jws_invalid', `${field}: not verified: ${REASONS[error.status] ?? 'it could not be verified'}`);
}
