import { importPKCS8, SignJWT } from 'jose';
import type { DomainError } from '../platform/errors.js';
import { storesError } from './errors.js';
import { logError } from '../platform/log.js';
import type { GoogleSettings } from './google-settings.js';

/**
 * The Google Play Developer API, the two calls the platform makes: read a one-time purchase
 * (`purchases.products.get`) and consume it (`purchases.products.consume`, which also acknowledges it, so
 * Google does not refund it after three days).
 *
 * Access tokens come from the OAuth 2.0 JWT bearer grant (RFC 7523) Google's service accounts use: an RS256
 * assertion signed with the key's private key (iss the service account, aud the token endpoint, scope
 * androidpublisher), exchanged at the key's `token_uri`. That is jose, already in every bundle, instead of
 * `google-auth-library` and `@googleapis/androidpublisher` (several MB of dependencies for two GETs and a POST).
 * A token is kept per instance until a minute before it expires.
 *
 * Google failing (unreachable, 5xx, 429, a refused key) is 503 naming the call; Pub/Sub redelivers.
 */

const SCOPE = 'https://www.googleapis.com/auth/androidpublisher';
const TIMEOUT_MS = 5000;

/** purchases.products.get's ProductPurchase, the fields read here (Google sends the times as JSON strings). */
export interface ProductPurchase {
  purchaseState?: number;
  consumptionState?: number;
  acknowledgementState?: number;
  orderId?: string;
  obfuscatedExternalAccountId?: string;
  quantity?: number;
  purchaseTimeMillis?: string;
  productId?: string;
  purchaseToken?: string;
}

const tokens = new WeakMap<GoogleSettings, Promise<{ token: string; until: number }>>();

async function accessToken(settings: GoogleSettings): Promise<string> {
  const cached = tokens.get(settings);
  if (cached) {
    const { token, until } = await cached.catch(() => ({ token: '', until: 0 }));
    if (Date.now() < until) return token;
  }
  const fresh = requestToken(settings);
  tokens.set(settings, fresh);
  fresh.catch(() => tokens.delete(settings));
  return (await fresh).token;
}

async function requestToken(settings: GoogleSettings): Promise<{ token: string; until: number }> {
  const account = serviceAccount(settings);
  const key = await importPKCS8(account.privateKey, 'RS256');
  const assertion = await new SignJWT({ scope: SCOPE })
    .setProtectedHeader({ alg: 'RS256', typ: 'JWT', ...(account.keyId ? { kid: account.keyId } : {}) })
    .setIssuer(account.email)
    .setAudience(account.tokenUri)
    .setIssuedAt()
    .setExpirationTime('1h')
    .sign(key);
  const res = await send('get an access token', account.tokenUri, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion }).toString(),
  });
  const body = (await res.json().catch(() => ({}))) as { access_token?: unknown; expires_in?: unknown };
  if (typeof body.access_token !== 'string') throw await failure('get an access token', 'no access_token in the answer');
  const lifetime = typeof body.expires_in === 'number' ? body.expires_in : 3600;
  return { token: body.access_token, until: Date.now() + Math.max(0, lifetime - 60) * 1000 };
}

/** The service account key, or 503 naming the setting. */
export function serviceAccount(settings: GoogleSettings) {
  if (!settings.serviceAccount)
    throw storesError('googleplay.unconfigured', 'the Play Developer API is not configured on this stage (serviceAccountKey of the GoogleConfig setting)');
  return settings.serviceAccount;
}

const productPath = (settings: GoogleSettings, productId: string, token: string) =>
  `${settings.playApi}/androidpublisher/v3/applications/${encodeURIComponent(settings.packageName)}/purchases/products/${encodeURIComponent(productId)}/tokens/${encodeURIComponent(token)}`;

/** The purchase `token` of `productId`; undefined when Google knows no such purchase (404, or 410 for one too old). */
export async function getProductPurchase(settings: GoogleSettings, productId: string, token: string): Promise<ProductPurchase | undefined> {
  const what = 'read the purchase';
  const res = await send(what, productPath(settings, productId, token), { headers: { authorization: `Bearer ${await accessToken(settings)}` } }, [404, 410]);
  if (res.status === 404 || res.status === 410) return undefined;
  const body = (await res.json().catch(() => undefined)) as ProductPurchase | undefined;
  if (!body || typeof body !== 'object') throw await failure(what, 'the answer is not JSON');
  return body;
}

/** Consumes the purchase (and so acknowledges it); a purchase consumed already is fine. */
export async function consumeProductPurchase(settings: GoogleSettings, productId: string, token: string): Promise<void> {
  await send('consume the purchase', `${productPath(settings, productId, token)}:consume`, {
    method: 'POST',
    headers: { authorization: `Bearer ${await accessToken(settings)}` },
  });
}

async function send(what: string, url: string, init: RequestInit, accepted: number[] = []): Promise<Response> {
  let res: Response;
  try {
    res = await fetch(url, { ...init, signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch (error) {
    throw await failure(what, error instanceof Error ? error.message : String(error));
  }
  if (res.ok || accepted.includes(res.status)) return res;
  const detail = await res.text().catch(() => '');
  throw await failure(what, `HTTP ${res.status}`, detail.slice(0, 300));
}

async function failure(what: string, why: string, detail?: string): Promise<DomainError> {
  await logError('google play: call failed', { what, why, ...(detail ? { detail } : {}) });
  return storesError('googleplay.unavailable', `Google Play could not ${what} (${why}); try again later`);
}
