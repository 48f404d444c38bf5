import { jsonObjectSetting } from '../platform/settings.js';
/**
 * A stage's Google Play settings (GOOGLE_CONFIG locally, the GoogleConfig secret deployed), as JSON. Parsed once
 * at start; a bad setting is an Error naming the field.
 *
 * - `packageName`: the Android app's package name; every notification must name it.
 * - `pushAudience`: the audience of the Pub/Sub push subscription's OIDC token (the subscription's
 *   "Audience" field; by default Google uses the push endpoint URL).
 * - `pushServiceAccount`: the service account the subscription pushes as; the token's `email` must be it.
 * - `serviceAccountKey`: the Play Developer API service account's JSON key as Google Cloud gives it
 *   (`client_email`, `private_key` PKCS#8 PEM, optionally `private_key_id` and `token_uri`): its access
 *   tokens read purchases and consume them. Without it, purchases cannot be read: notifications about them
 *   answer 503 (Pub/Sub redelivers until it is set).
 * - `poisonAttempts` (default 5): after a message failed this many times the same permanent way (malformed
 *   data, another app), it is recorded and acknowledged; failures of Google's API never count.
 * - `googleCerts`, `playApi`: where Google's OIDC signing keys and the Play Developer API are (defaults:
 *   Google's; a stage behind a proxy, or the tests' loopback Google, names others). The token endpoint is the
 *   key's `token_uri`.
 */
export interface GoogleSettings {
  packageName: string;
  pushAudience: string;
  pushServiceAccount: string;
  serviceAccount?: { email: string; privateKey: string; keyId?: string; tokenUri: string };
  poisonAttempts: number;
  googleCerts: string;
  playApi: string;
}

const PACKAGE = /^[A-Za-z][A-Za-z0-9_]*(\.[A-Za-z][A-Za-z0-9_]*)+$/;
const EMAIL = /^[^@\s]+@[^@\s]+$/;

export function parseGoogleSettings(json: string | undefined): GoogleSettings | undefined {
  const value = jsonObjectSetting(json, 'google config');
  if (!value) return undefined;
  const {
    packageName,
    pushAudience,
    pushServiceAccount,
    serviceAccountKey,
    poisonAttempts = 5,
    googleCerts = 'https://www.googleapis.com/oauth2/v3/certs',
    playApi = 'https://androidpublisher.googleapis.com',
  } = value;
  if (typeof packageName !== 'string' || !PACKAGE.test(packageName))
    throw new Error("google config: packageName must be the app's package name, e.g. com.studio.game");
  if (typeof pushAudience !== 'string' || pushAudience.length === 0) throw new Error("google config: pushAudience must be the push subscription's audience");
  if (typeof pushServiceAccount !== 'string' || !EMAIL.test(pushServiceAccount))
    throw new Error('google config: pushServiceAccount must be the email of the service account the subscription pushes as');
  if (typeof poisonAttempts !== 'number' || !Number.isInteger(poisonAttempts) || poisonAttempts < 1 || poisonAttempts > 100) {
    throw new Error('google config: poisonAttempts must be an integer from 1 to 100');
  }
  for (const [name, url] of [
    ['googleCerts', googleCerts],
    ['playApi', playApi],
  ] as const) {
    if (typeof url !== 'string' || !/^https?:\/\/[^\s]+$/.test(url)) throw new Error(`google config: ${name} must be an http(s) URL`);
  }
  return {
    packageName,
    pushAudience,
    pushServiceAccount,
    ...(serviceAccountKey === undefined ? {} : { serviceAccount: parseKey(serviceAccountKey) }),
    poisonAttempts,
    googleCerts: googleCerts as string,
    playApi: (playApi as string).replace(/\/+$/, ''),
  };
}

function parseKey(key: unknown): NonNullable<GoogleSettings['serviceAccount']> {
  if (typeof key !== 'object' || key === null || Array.isArray(key))
    throw new Error("google config: serviceAccountKey must be the service account's JSON key (an object)");
  const { client_email, private_key, private_key_id, token_uri = 'https://oauth2.googleapis.com/token' } = key as Record<string, unknown>;
  if (typeof client_email !== 'string' || !EMAIL.test(client_email))
    throw new Error('google config: serviceAccountKey.client_email must be the service account email');
  if (typeof private_key !== 'string' || !private_key.includes('PRIVATE KEY'))
    throw new Error('google config: serviceAccountKey.private_key must be a PEM private key');
  if (private_key_id !== undefined && typeof private_key_id !== 'string') throw new Error('google config: serviceAccountKey.private_key_id must be a string');
  if (typeof token_uri !== 'string' || !/^https?:\/\/[^\s]+$/.test(token_uri))
    throw new Error('google config: serviceAccountKey.token_uri must be an http(s) URL');
  return { email: client_email, privateKey: private_key, ...(private_key_id ? { keyId: private_key_id } : {}), tokenUri: token_uri };
}
