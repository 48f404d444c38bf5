import type { AppStoreServerAPIClient } from '@apple/app-store-server-library';
import { jsonObjectSetting } from '../platform/settings.js';

/**
 * A stage's App Store settings (APPLE_CONFIG locally, the AppleConfig secret deployed), as JSON. Parsed once at
 * start; a bad setting is an Error naming the field, so it fails loudly at deploy, not per purchase.
 *
 * - `bundleId`: the app's bundle id; every signed transaction and notification must name it.
 * - `appAppleId`: the app's Apple id (a number); the library checks it on Production data only, and it is
 *   required for a stage that takes Production data.
 * - `environment`: `Production` or `Sandbox`, the data the stage takes. A Production stage refuses Sandbox
 *   data unless `allowSandbox` is true (TestFlight and App Review buy in Sandbox; a store-facing stage may
 *   want them, knowingly). A Sandbox stage never takes Production data.
 * - `rootCertificates`: Apple's root certificates as Base64 DER (Apple Root CA - G3 from apple.com/certificateauthority),
 *   the anchors signed data must chain to.
 * - `onlineChecks`: OCSP revocation checks of the chain (default true; false only where the chain's issuer
 *   cannot be reached, as in tests).
 * - `keyId`, `issuerId`, `privateKey` (PKCS#8 PEM): an App Store Server API key, for what calls Apple
 *   (transaction lookups by id, consumption information, test notifications); without them those answer 503.
 * - `consumptionConsent`: true when the app obtains its customers' consent to share consumption data with
 *   Apple (its terms say so); only then are refund requests (CONSUMPTION_REQUEST) answered with it
 *   (core/app-stores/apple-consumption.ts). Default false.
 */
/** The App Store's two environments. */
export type AppleEnvironment = 'Production' | 'Sandbox';

/** App Store Server API clients per environment, when not the library's own (core/app-stores/apple-api.ts). */
export type AppleApiClients = (environment: AppleEnvironment) => Promise<AppStoreServerAPIClient>;

export interface AppleSettings {
  bundleId: string;
  appAppleId?: number;
  environment: 'Production' | 'Sandbox';
  allowSandbox: boolean;
  rootCertificates: Buffer[];
  onlineChecks: boolean;
  consumptionConsent?: boolean;
  api?: { keyId: string; issuerId: string; privateKey: string };
}

const BUNDLE_ID = /^[A-Za-z0-9][A-Za-z0-9.-]{0,154}$/;

export function parseAppleSettings(json: string | undefined): AppleSettings | undefined {
  const value = jsonObjectSetting(json, 'apple config');
  if (!value) return undefined;
  const {
    bundleId,
    appAppleId,
    environment = 'Production',
    allowSandbox = false,
    rootCertificates,
    onlineChecks = true,
    consumptionConsent = false,
    keyId,
    issuerId,
    privateKey,
  } = value;
  if (typeof bundleId !== 'string' || !BUNDLE_ID.test(bundleId)) throw new Error("apple config: bundleId must be the app's bundle id, e.g. com.studio.game");
  if (environment !== 'Production' && environment !== 'Sandbox') throw new Error('apple config: environment must be "Production" or "Sandbox"');
  if (appAppleId !== undefined && (typeof appAppleId !== 'number' || !Number.isSafeInteger(appAppleId) || appAppleId <= 0)) {
    throw new Error("apple config: appAppleId must be the app's Apple id, a positive integer");
  }
  if (environment === 'Production' && appAppleId === undefined) throw new Error('apple config: appAppleId is required for Production');
  if (typeof allowSandbox !== 'boolean') throw new Error('apple config: allowSandbox must be true or false');
  if (typeof onlineChecks !== 'boolean') throw new Error('apple config: onlineChecks must be true or false');
  if (typeof consumptionConsent !== 'boolean') throw new Error('apple config: consumptionConsent must be true or false');
  if (
    !Array.isArray(rootCertificates) ||
    rootCertificates.length === 0 ||
    !rootCertificates.every((c) => typeof c === 'string' && /^[A-Za-z0-9+/=\s]+$/.test(c))
  ) {
    throw new Error('apple config: rootCertificates must be a non-empty list of Base64 DER certificates');
  }
  const api = [keyId, issuerId, privateKey];
  if (api.some((v) => v !== undefined) && !api.every((v) => typeof v === 'string' && v.length > 0)) {
    throw new Error('apple config: keyId, issuerId and privateKey go together (an App Store Server API key)');
  }
  return {
    bundleId,
    ...(appAppleId === undefined ? {} : { appAppleId }),
    environment,
    allowSandbox,
    rootCertificates: rootCertificates.map((c: string) => Buffer.from(c.replace(/\s/g, ''), 'base64')),
    onlineChecks,
    consumptionConsent,
    ...(keyId === undefined ? {} : { api: { keyId: keyId as string, issuerId: issuerId as string, privateKey: privateKey as string } }),
  };
}

/** Which environments' data the stage takes, in the order a payload's environment is looked for. */
export function acceptedEnvironments(settings: AppleSettings): ('Production' | 'Sandbox')[] {
  if (settings.environment === 'Sandbox') return ['Sandbox'];
  return settings.allowSandbox ? ['Production', 'Sandbox'] : ['Production'];
}

/** What is made once per stage settings and environment (an API client, a verifier), kept per instance. */
export type PerEnvironment<T> = WeakMap<AppleSettings, Map<AppleEnvironment, T>>;

/** The value `memo` keeps for `settings` and `environment`, made by `make` the first time it is asked for. */
export function perEnvironment<T>(memo: PerEnvironment<T>, settings: AppleSettings, environment: AppleEnvironment, make: () => T): T {
  let byEnvironment = memo.get(settings);
  if (!byEnvironment) memo.set(settings, (byEnvironment = new Map()));
  let value = byEnvironment.get(environment);
  if (value === undefined) byEnvironment.set(environment, (value = make()));
  return value;
}
