import { importJWK, SignJWT, jwtVerify, type CryptoKey, type JWK } from 'jose';
import { randomUUID } from 'node:crypto';
import { oauthError } from './errors.js';
import { mainBasePath } from '../platform/stages.js';
import { generateSigningJwk, publicJwk, type PublicJwk, type SigningJwk } from '../platform/tokens.js';

/**
 * The partner store's authorization servers, one per region (docs/api.md, "Partner store: the authorization
 * servers"): the default region under `<base>/store`, `chengdu` under `<base>/store/chengdu`. Each has its own
 * issuer, its own signing key (the StoreKeys secret: one private ES256 JWK per region) and its own client registry,
 * so that a token, a code or a refresh token of one region is refused by the other.
 *
 * Issuers are URLs (RFC 8414 §2): the origin the request came to, the stage's base path and the region's path,
 * e.g. `https://api.example.com/v2-testing/store/chengdu`. A token is verified against the issuer of the
 * request it is presented to: a token carried to another host or region is refused.
 */
export { STORE_REGIONS, type StoreRegion } from './names.js';
import { STORE_REGIONS, type StoreRegion } from './names.js';

export const regionPath = (region: StoreRegion) => (region === 'default' ? '/store' : `/store/${region}`);

export function issuerOf(origin: string, stage: string, region: StoreRegion): string {
  return `${origin}${mainBasePath(stage)}${regionPath(region)}`;
}

/** The region's issuer as the request at `url` sees it (its origin). */
export const requestIssuer = (url: string, stage: string, region: StoreRegion) => issuerOf(new URL(url).origin, stage, region);

/** The region's signing key; 503 (`temporarily_unavailable` on OAuth endpoints) when the stage has no StoreKeys setting. */
export function regionKey(deps: { storeKeys?: StoreKeys }, region: StoreRegion): RegionKey {
  if (!deps.storeKeys)
    throw oauthError('temporarily_unavailable', 'store.unconfigured', 'the partner store is not configured on this stage (the StoreKeys setting)');
  return deps.storeKeys[region];
}

/** How long store tokens live, in seconds: access tokens an hour (they carry no revocation check). */
export const ACCESS_TOKEN_SECONDS = 3600;

/** A region's key: signs its tokens, and its public half is its JWKS. */
export interface RegionKey {
  kid: string;
  privateKey: CryptoKey;
  publicKey: CryptoKey;
  jwk: PublicJwk;
}

export type StoreKeys = Record<StoreRegion, RegionKey>;

/** The StoreKeys setting: `{"default": <private ES256 JWK with kid>, "chengdu": <…>}`, one distinct key per region. */
export async function parseStoreKeys(setting: string): Promise<StoreKeys> {
  let value: unknown;
  try {
    value = JSON.parse(setting);
  } catch {
    throw new Error('store keys: expected JSON {"default": <private ES256 JWK>, "chengdu": <private ES256 JWK>}');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('store keys: expected a JSON object');
  const record = value as Record<string, unknown>;
  const keys = {} as StoreKeys;
  for (const region of STORE_REGIONS) {
    const jwk = record[region] as Partial<SigningJwk> | undefined;
    if (jwk?.kty !== 'EC' || jwk.crv !== 'P-256' || typeof jwk.d !== 'string' || typeof jwk.kid !== 'string') {
      throw new Error(`store keys: ${region} must be a private ES256 (P-256) JWK with a kid`);
    }
    const pub = publicJwk(jwk as SigningJwk);
    keys[region] = {
      kid: jwk.kid,
      privateKey: (await importJWK(jwk as JWK, 'ES256')) as CryptoKey,
      publicKey: (await importJWK(pub, 'ES256')) as CryptoKey,
      jwk: pub,
    };
  }
  if (keys.default.jwk.x === keys.chengdu.jwk.x) throw new Error('store keys: each region needs a key of its own');
  return keys;
}

/** A new StoreKeys setting (`npm run admin -- generate-store-keys`, and the local server's first start). */
export async function generateStoreKeys(): Promise<string> {
  const entries = await Promise.all(
    STORE_REGIONS.map(async (region) => [region, { ...(await generateSigningJwk()), kid: `store-${region}-${randomUUID().slice(0, 8)}` }]),
  );
  return JSON.stringify(Object.fromEntries(entries));
}

/** What a store access token says (RFC 9068 JWT access token). */
export interface StoreAccess {
  /** The user for user tokens; the client for client-credentials tokens. */
  sub: string;
  client_id: string;
  scope: string;
  /** `user` or `client`. */
  kind: 'user' | 'client';
  /** Expiry (epoch seconds), as verified. */
  exp?: number;
  /** The token family of a user's token (core/partner-store/grants.ts): revoked as a whole. */
  fam?: string;
}

/** Signs an RFC 9068 access token of the region (`typ: at+jwt`, audience `store`). */
export async function signAccessToken(key: RegionKey, issuer: string, access: StoreAccess, now: Date) {
  const iat = Math.floor(now.getTime() / 1000);
  const token = await new SignJWT({ client_id: access.client_id, scope: access.scope, kind: access.kind, ...(access.fam ? { fam: access.fam } : {}) })
    .setProtectedHeader({ alg: 'ES256', kid: key.kid, typ: 'at+jwt' })
    .setIssuer(issuer)
    .setSubject(access.sub)
    .setAudience('store')
    .setIssuedAt(iat)
    .setExpirationTime(iat + ACCESS_TOKEN_SECONDS)
    .setJti(randomUUID())
    .sign(key.privateKey);
  return { token, expiresIn: ACCESS_TOKEN_SECONDS };
}

/** Verifies an access token of the region and issuer (signature, `typ`, issuer, audience, expiry); undefined when not valid. */
export async function verifyAccessToken(key: RegionKey, issuer: string, token: string, now: Date): Promise<StoreAccess | undefined> {
  try {
    const { payload } = await jwtVerify(token, key.publicKey, {
      algorithms: ['ES256'],
      typ: 'at+jwt',
      issuer,
      audience: 'store',
      currentDate: now,
    });
    if (typeof payload.sub !== 'string' || typeof payload.client_id !== 'string') return undefined;
    return {
      sub: payload.sub,
      client_id: payload.client_id,
      scope: String(payload.scope ?? ''),
      kind: payload.kind === 'user' ? 'user' : 'client',
      exp: Number(payload.exp),
      ...(typeof payload.fam === 'string' ? { fam: payload.fam } : {}),
    };
  } catch {
    return undefined;
  }
}
