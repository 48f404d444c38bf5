import { createPrivateKey, randomUUID, sign } from 'node:crypto';
import { SignJWT, exportJWK, generateKeyPair, importJWK, jwtVerify, errors, type JWK, type CryptoKey, type JWTHeaderParameters } from 'jose';
import { platformError } from './errors.js';

/**
 * The platform's tokens (docs/api.md, "Tokens"): every token is an ES256 JWT signed with the stage's token key. The
 * audience says what kind of token it is; a verifier names the audiences it accepts, so a token of one kind never
 * passes for another.
 *
 * Keys (docs/security.md "Key custody and rotation", README "Rotating the token key"): the stage's token keys
 * are a ring, each key with a `kid`. The ring's `current` key signs; tokens are verified with the key their
 * header's `kid` names among `current`, `next` (staged for the next rotation) and `previous` (retired from
 * signing, kept until the tokens it signed have expired). JWKS publishes all three. A token whose `kid` is not in
 * the ring (a retired key, another stage's key) is refused.
 *
 * Vendor PaymentRequests are signed with a key of their own (the VendorSigningKey secret), never with a token
 * key: `vendor` below. A service without one answers vendor/signature with 503.
 */
export type TokenKind = 'merchant' | 'server' | 'platform' | 'game' | 'hero' | 'store';

/**
 * How long each kind lives, in seconds (docs/security.md "Who holds which token"). Console sessions last a
 * working day. Server tokens are machine credentials a game server keeps: 30 days, revocable per merchant and
 * checked against the merchant's suspension on every use. Player tokens carry no revocation, so they live a
 * day: a client signs in again (a wallet signature or a zkLogin id_token) rather than holding a week-long bearer.
 */
export const tokenLifetimes: Record<TokenKind, number> = {
  merchant: 8 * 3600,
  server: 30 * 24 * 3600,
  platform: 24 * 3600,
  game: 24 * 3600,
  hero: 24 * 3600,
  store: 3600,
};

export interface TokenClaims {
  kind: TokenKind;
  /** Subject: the account id (merchant tokens), merchant account id (server) or user id (player tokens). */
  sub: string;
  role?: 'merchant' | 'admin';
  email?: string;
  merchant_id?: number;
  game_code?: string;
  /**
   * Issued at, epoch seconds with milliseconds (docs/security.md "Who holds which token"): a token issued at or
   * before its account's revocation instant is refused, and one issued just after it in the same second is not.
   */
  iat?: number;
  exp: number;
  /** Server tokens: the token's id, by which it is listed and revoked alone (core/access/server-tokens.ts). */
  jti?: string;
  /** Partner store tokens (core/partner-store): the OAuth client the token was issued to, and its scopes (space-delimited). */
  client_id?: string;
  scope?: string;
  /** Partner store tokens: `session` (the store's own sign-in) or `access` (a partner app's, for a user). */
  store_token?: 'session' | 'access';
}

export interface IssuedToken {
  token: string;
  /** Expiry as ISO 8601 UTC text. */
  expiresAt: string;
}

/**
 * Signs vendor PaymentRequests for on-chain verification: ECDSA P-256 over SHA-256, as Sui Move's
 * `ecdsa_r1::secp256r1_verify(signature, public_key, msg, 1)` checks it. The signature is r||s (64 bytes) with s
 * normalised low, as Sui requires; the public key is compressed (33 bytes).
 */
export interface PaymentRequestSigner {
  readonly kid: string;
  /** The compressed public key (33 bytes): what the vendor's Move contract stores. */
  readonly publicKey: Uint8Array;
  sign(bytes: Uint8Array): Promise<Uint8Array>;
}

export interface TokenService {
  /** Signs with the ring's current key; throws where the service holds only public keys (a verify-only function). */
  issue(kind: TokenKind, sub: string, claims?: Partial<Omit<TokenClaims, 'kind' | 'sub' | 'exp'>>): Promise<IssuedToken>;
  /** Verifies signature (by the key the header's kid names), issuer, expiry and that the audience is one of `kinds`; throws a 401 otherwise. */
  verify(token: string, kinds: readonly TokenKind[]): Promise<TokenClaims>;
  /** The public key set published at /.well-known/jwks.json: the ring's current, next and previous keys. */
  jwks(): { keys: JWK[] };
  /** The stage's vendor payment request signer (its own key); undefined where none is configured (vendor/signature is 503). */
  readonly vendor?: PaymentRequestSigner;
  /**
   * Signs bytes with the vendor key (never a token key), as `vendor.sign` does, and names its public key.
   * Throws a 503 where no vendor key is configured.
   */
  signBytes(bytes: Uint8Array): Promise<{ signature: Uint8Array; publicKey: Uint8Array }>;
}

/** A private EC P-256 JWK with a `kid`, as kept in the stage's TokenSigningKey and VendorSigningKey secrets. */
export type SigningJwk = JWK & { kid: string; d: string };

/** A public EC P-256 JWK with a `kid`, as JWKS publishes it. */
export type PublicJwk = JWK & { kid: string };

/**
 * The stage's token keys. `current` signs; `next` is published ahead of the rotation that promotes it; `previous`
 * verifies tokens it signed until they expire (its private part is not needed and not kept).
 */
export interface TokenKeyRing {
  current: SigningJwk;
  next?: SigningJwk;
  previous?: PublicJwk;
}

export async function generateSigningJwk(purpose: 'token' | 'vendor' = 'token'): Promise<SigningJwk> {
  const { privateKey } = await generateKeyPair('ES256', { extractable: true });
  const jwk = await exportJWK(privateKey);
  const kid = `es256-${purpose === 'vendor' ? 'vendor-' : ''}${new Date().toISOString().slice(0, 10)}-${randomUUID().slice(0, 8)}`;
  return { ...jwk, kid, alg: 'ES256', use: 'sig' } as SigningJwk;
}

/** The public half of a P-256 JWK, as JWKS serves it: kty, crv, x, y, kid, alg, use. */
export function publicJwk(jwk: JWK & { kid: string }): PublicJwk {
  return { kty: jwk.kty, crv: jwk.crv, x: jwk.x, y: jwk.y, kid: jwk.kid, alg: 'ES256', use: 'sig' };
}

/** The keys of a ring in the order JWKS lists them: current, next, previous. */
export function ringKeys(ring: TokenKeyRing): PublicJwk[] {
  return [ring.current, ring.next, ring.previous].filter((key): key is PublicJwk => key !== undefined).map(publicJwk);
}

/**
 * The ring of a TokenSigningKey setting: either one private JWK (the original form: that key alone, current) or
 * `{"current": <private jwk>, "next": <private jwk>?, "previous": <public or private jwk>?}`. Errors name the
 * problem, never the key material.
 */
export function parseTokenKeys(setting: string | object): TokenKeyRing {
  let value: unknown = setting;
  if (typeof setting === 'string') {
    try {
      value = JSON.parse(setting);
    } catch {
      throw new Error('token keys: expected a private ES256 JWK or a key ring {"current", "next"?, "previous"?} as JSON');
    }
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('token keys: expected a JSON object');
  const object = value as Record<string, unknown>;
  if ('kty' in object) return { current: privateKeyOf(object, 'token key') };
  const unknown = Object.keys(object).filter((name) => !['current', 'next', 'previous'].includes(name));
  if (unknown.length > 0) throw new Error(`token keys: unknown field ${unknown[0]}; a ring has current, next and previous`);
  if (object.current === undefined) throw new Error('token keys: the ring has no current key');
  const ring: TokenKeyRing = { current: privateKeyOf(object.current, 'current') };
  if (object.next !== undefined) ring.next = privateKeyOf(object.next, 'next');
  if (object.previous !== undefined) ring.previous = publicKeyOf(object.previous, 'previous');
  const keys = ringKeys(ring);
  if (new Set(keys.map((k) => k.kid)).size !== keys.length) throw new Error('token keys: two keys of the ring have the same kid');
  if (new Set(keys.map((k) => k.x)).size !== keys.length) throw new Error('token keys: the same key appears twice in the ring');
  return ring;
}

/** The VendorSigningKey setting: one private ES256 JWK with a kid; blank means none (vendor/signature is 503). */
export function parseVendorKey(setting: string | undefined): SigningJwk | undefined {
  if (!setting?.trim()) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(setting);
  } catch {
    throw new Error('vendor key: expected a private ES256 JWK as JSON');
  }
  return privateKeyOf(value, 'vendor key');
}

/** The ring as the secret's JSON (what the admin CLI prints for `npx sst secret set TokenSigningKey`). */
export function serializeTokenKeys(ring: TokenKeyRing): string {
  return JSON.stringify({ current: ring.current, ...(ring.next ? { next: ring.next } : {}), ...(ring.previous ? { previous: ring.previous } : {}) });
}

/**
 * One step of the rotation procedure (README "Rotating the token key"), from the ring deployed now to the next:
 * - `next`: generate a key and publish it as `next` (it does not sign yet). Deploy, then wait for JWKS caches.
 * - `promote`: `next` becomes `current` and signs; the old current becomes `previous` (public half only) and keeps
 *   verifying the tokens it signed. Refused while a `previous` is still in the ring: its tokens may be live.
 * - `retire`: drop `previous`, once the longest token lifetime has passed since `promote`: its tokens are refused.
 * - `replace`: a compromised key: a new current and nothing else; every token issued so far is refused.
 */
export type RotationStep = 'next' | 'promote' | 'retire' | 'replace';
export const rotationSteps: readonly RotationStep[] = ['next', 'promote', 'retire', 'replace'];

export async function rotateTokenKeys(ring: TokenKeyRing, step: RotationStep, generate = () => generateSigningJwk()): Promise<TokenKeyRing> {
  switch (step) {
    case 'next':
      if (ring.next) throw new Error(`rotate: key ${ring.next.kid} is staged as next already; promote it first`);
      return { ...ring, next: await generate() };
    case 'promote':
      if (!ring.next) throw new Error('rotate: no next key to promote; run the next step and deploy it first');
      if (ring.previous) throw new Error(`rotate: key ${ring.previous.kid} is still the previous key; retire it first, once the tokens it signed have expired`);
      return { current: ring.next, previous: publicJwk(ring.current) };
    case 'retire':
      if (!ring.previous) throw new Error('rotate: no previous key to retire');
      return { current: ring.current, ...(ring.next ? { next: ring.next } : {}) };
    case 'replace':
      return { current: await generate() };
  }
}

/**
 * A token service for a key ring (`signingKey`: a ring, or one private JWK as before), or a verify-only one for
 * public keys alone (`verifyKeys`, what the TokenPublicKeys link gives functions that never issue tokens).
 * `vendorKey`, when given, signs vendor PaymentRequests; it must not be one of the token keys.
 */
export async function createTokenService(options: {
  signingKey?: SigningJwk | TokenKeyRing;
  verifyKeys?: readonly JWK[];
  vendorKey?: SigningJwk;
  issuer: string;
  now?: () => Date;
}): Promise<TokenService> {
  const { issuer } = options;
  const now = options.now ?? (() => new Date());
  let signing: SigningJwk | undefined;
  let published: PublicJwk[];
  if (options.signingKey) {
    const ring = 'current' in options.signingKey ? parseTokenKeys(options.signingKey as object) : { current: privateKeyOf(options.signingKey, 'token key') };
    signing = ring.current;
    published = ringKeys(ring);
  } else if (options.verifyKeys) {
    published = options.verifyKeys.map((key, i) => publicKeyOf(key, `verify key ${i}`));
  } else {
    throw new Error('token service: needs a signing key ring or the public keys to verify with');
  }
  if (published.length === 0) throw new Error('token service: no keys');

  // Each key is imported on its first use, so a cold start pays only for the keys its first request uses (a
  // function that verifies never imports the private key). The keys' fields were checked above.
  const imported = new Map<string, Promise<CryptoKey>>();
  const importOnce = (id: string, jwk: JWK) => {
    if (!imported.has(id)) imported.set(id, importJWK(jwk, 'ES256') as Promise<CryptoKey>);
    return imported.get(id)!;
  };
  const verifyKeys = new Map(published.map((key) => [key.kid, key]));
  const keyOf = (header: JWTHeaderParameters) => {
    const key = header.kid === undefined ? undefined : verifyKeys.get(header.kid);
    if (!key) throw new errors.JWKSNoMatchingKey();
    return importOnce(`public ${key.kid}`, key);
  };

  let vendor: PaymentRequestSigner | undefined;
  if (options.vendorKey) {
    const vendorKey = privateKeyOf(options.vendorKey, 'vendor key');
    if (published.some((key) => key.x === vendorKey.x && key.y === vendorKey.y)) {
      throw new Error('vendor key: must be a key of its own, not one of the token keys');
    }
    vendor = paymentRequestSigner(vendorKey);
  }

  return {
    async issue(kind, sub, claims = {}) {
      if (!signing) throw new Error('token service: this function holds only the public token keys and cannot issue tokens');
      const privateKey = await importOnce(`private ${signing.kid}`, signing);
      const iat = now().getTime() / 1000;
      const exp = Math.floor(iat) + tokenLifetimes[kind];
      const token = await new SignJWT({ ...claims })
        .setProtectedHeader({ alg: 'ES256', kid: signing.kid, typ: 'JWT' })
        .setIssuer(issuer)
        .setAudience(kind)
        .setSubject(sub)
        .setIssuedAt(iat)
        .setExpirationTime(exp)
        .sign(privateKey);
      return { token, expiresAt: new Date(exp * 1000).toISOString() };
    },

    async verify(token, kinds) {
      try {
        const { payload } = await jwtVerify(token, keyOf, {
          algorithms: ['ES256'],
          issuer,
          audience: [...kinds],
          currentDate: now(),
        });
        const aud = Array.isArray(payload.aud) ? payload.aud[0] : payload.aud;
        return { ...payload, kind: aud as TokenKind, sub: String(payload.sub), exp: Number(payload.exp) } as TokenClaims;
      } catch (error) {
        if (error instanceof errors.JWTExpired) throw platformError('auth.token_expired', 'token has expired');
        if (error instanceof errors.JWTClaimValidationFailed && error.claim === 'aud') {
          throw platformError('auth.token_invalid', `token is not valid here: expected a ${kinds.join(' or ')} token`);
        }
        throw platformError('auth.token_invalid', 'token is invalid');
      }
    },

    jwks() {
      return { keys: published.map((key) => ({ ...key })) };
    },

    vendor,

    async signBytes(bytes) {
      if (!vendor) throw vendorKeyMissing();
      return { signature: await vendor.sign(bytes), publicKey: vendor.publicKey };
    },
  };
}

/** The answer where a stage has no VendorSigningKey: vendor/signature is off. */
export const vendorKeyMissing = () => platformError('vendor.signing_unconfigured', 'vendor payment signing is not configured on this stage');

/** A PaymentRequestSigner of a private P-256 JWK. */
export function paymentRequestSigner(jwk: SigningJwk): PaymentRequestSigner {
  // Made on the first signature: most requests of the functions that hold the key sign nothing.
  let nodeKey: ReturnType<typeof createPrivateKey> | undefined;
  return {
    kid: jwk.kid,
    publicKey: compressedPublicKey(jwk),
    sign: async (bytes) => {
      nodeKey ??= createPrivateKey({ key: jwk as import('node:crypto').JsonWebKey, format: 'jwk' });
      return lowS(new Uint8Array(sign('sha256', bytes, { key: nodeKey, dsaEncoding: 'ieee-p1363' })));
    },
  };
}

function privateKeyOf(value: unknown, label: string): SigningJwk {
  const key = publicKeyOf(value, label) as SigningJwk;
  if (typeof (value as JWK).d !== 'string' || !(value as JWK).d) throw new Error(`${label}: expected a private JWK (with d)`);
  return { ...key, d: (value as JWK).d! };
}

function publicKeyOf(value: unknown, label: string): PublicJwk {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error(`${label}: expected a JWK object`);
  const jwk = value as JWK;
  if (jwk.kty !== 'EC' || jwk.crv !== 'P-256' || typeof jwk.x !== 'string' || typeof jwk.y !== 'string') {
    throw new Error(`${label}: expected an EC P-256 (ES256) JWK`);
  }
  if (typeof jwk.kid !== 'string' || !jwk.kid) throw new Error(`${label}: the key has no kid`);
  if (jwk.alg !== undefined && jwk.alg !== 'ES256') throw new Error(`${label}: alg must be ES256`);
  return publicJwk(jwk as JWK & { kid: string });
}

/** The order of P-256's group: a signature (r, s) and (r, n - s) are both valid; Sui accepts only s <= n/2. */
const P256_ORDER = 0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551n;

function lowS(signature: Uint8Array): Uint8Array {
  const s = BigInt(`0x${Buffer.from(signature.subarray(32)).toString('hex')}`);
  if (s <= P256_ORDER / 2n) return signature;
  const flipped = Buffer.from((P256_ORDER - s).toString(16).padStart(64, '0'), 'hex');
  return Uint8Array.from([...signature.subarray(0, 32), ...flipped]);
}

/** The compressed (33-byte) form of a P-256 public key. */
export function compressedPublicKey(jwk: JWK): Uint8Array {
  const x = Buffer.from(jwk.x!, 'base64url');
  const y = Buffer.from(jwk.y!, 'base64url');
  return Uint8Array.from([y[y.length - 1]! % 2 === 0 ? 0x02 : 0x03, ...x]);
}
