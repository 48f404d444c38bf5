import { createPrivateKey, randomUUID, sign } from 'node:crypto';
import { SignJWT, exportJWK, generateKeyPair, importJWK, jwtVerify, errors, type JWK, type CryptoKey } from 'jose';
import { unauthorized } from './errors.js';

/**
 * Tokens of API.md: every token is an ES256 JWT signed with the stage's key. The audience says what kind of
 * token it is; a verifier names the audiences it accepts, so a token of one kind never passes for another.
 */
export type TokenKind = 'merchant' | 'server' | 'platform' | 'game' | 'hero' | 'store';

/**
 * How long each kind lives, in seconds (docs/security.md "Token lifetimes"). Console sessions last a working
 * day. Server tokens are machine credentials a game server keeps: 30 days, revocable per merchant and checked
 * against the merchant's suspension on every use. Player tokens carry no revocation, so they live a day:
 * a client signs in again (a wallet signature or a zkLogin id_token) rather than holding a week-long bearer.
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
  /** Issued at (epoch seconds): a token issued at or before its account's revocation instant is refused. */
  iat?: number;
  exp: number;
}

export interface IssuedToken {
  token: string;
  /** Expiry as ISO 8601 UTC text. */
  expiresAt: string;
}

export interface TokenService {
  issue(kind: TokenKind, sub: string, claims?: Partial<Omit<TokenClaims, 'kind' | 'sub' | 'exp'>>): Promise<IssuedToken>;
  /** Verifies signature, issuer, expiry and that the audience is one of `kinds`; throws a 401 otherwise. */
  verify(token: string, kinds: readonly TokenKind[]): Promise<TokenClaims>;
  /** The public key set published at /.well-known/jwks.json. */
  jwks(): { keys: JWK[] };
  /**
   * Signs bytes with the same key for on-chain verification: ECDSA P-256 over SHA-256, as Sui Move's
   * `ecdsa_r1::secp256r1_verify(signature, public_key, msg, 1)` checks it. The signature is r||s (64 bytes)
   * with s normalised low, as Sui requires; the public key is compressed (33 bytes).
   */
  signBytes(bytes: Uint8Array): Promise<{ signature: Uint8Array; publicKey: Uint8Array }>;
}

/** A private EC P-256 JWK with a `kid`, as kept in the stage's TokenSigningKey secret. */
export type SigningJwk = JWK & { kid: string; d: string };

export async function generateSigningJwk(): Promise<SigningJwk> {
  const { privateKey } = await generateKeyPair('ES256', { extractable: true });
  const jwk = await exportJWK(privateKey);
  const kid = `es256-${new Date().toISOString().slice(0, 10)}-${randomUUID().slice(0, 8)}`;
  return { ...jwk, kid, alg: 'ES256', use: 'sig' } as SigningJwk;
}

export async function createTokenService(options: {
  signingKey: SigningJwk;
  issuer: string;
  now?: () => Date;
}): Promise<TokenService> {
  const { signingKey, issuer } = options;
  const now = options.now ?? (() => new Date());
  if (!signingKey.kid || !signingKey.d) throw new Error('token signing key must be a private JWK with a kid');
  const privateKey = (await importJWK(signingKey, 'ES256')) as CryptoKey;
  const { d: _private, ...publicJwk } = signingKey;
  const publicKey = (await importJWK(publicJwk, 'ES256')) as CryptoKey;
  const nodeKey = createPrivateKey({ key: signingKey as import('node:crypto').JsonWebKey, format: 'jwk' });
  const compressedPublicKey = compress(signingKey);
  const publishedKey: JWK = { kty: publicJwk.kty, crv: publicJwk.crv, x: publicJwk.x, y: publicJwk.y, kid: signingKey.kid, alg: 'ES256', use: 'sig' };

  return {
    async issue(kind, sub, claims = {}) {
      const iat = Math.floor(now().getTime() / 1000);
      const exp = iat + tokenLifetimes[kind];
      const token = await new SignJWT({ ...claims })
        .setProtectedHeader({ alg: 'ES256', kid: signingKey.kid, typ: 'JWT' })
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
        const { payload } = await jwtVerify(token, publicKey, {
          algorithms: ['ES256'],
          issuer,
          audience: [...kinds],
          currentDate: now(),
        });
        const aud = Array.isArray(payload.aud) ? payload.aud[0] : payload.aud;
        return { ...payload, kind: aud as TokenKind, sub: String(payload.sub), exp: Number(payload.exp) } as TokenClaims;
      } catch (error) {
        if (error instanceof errors.JWTExpired) throw unauthorized('token has expired');
        if (error instanceof errors.JWTClaimValidationFailed && error.claim === 'aud') {
          throw unauthorized(`token is not valid here: expected a ${kinds.join(' or ')} token`);
        }
        throw unauthorized('token is invalid');
      }
    },

    jwks() {
      return { keys: [publishedKey] };
    },

    async signBytes(bytes) {
      const der = sign('sha256', bytes, { key: nodeKey, dsaEncoding: 'ieee-p1363' });
      return { signature: lowS(new Uint8Array(der)), publicKey: compressedPublicKey };
    },
  };
}

/** The order of P-256's group: a signature (r, s) and (r, n - s) are both valid; Sui accepts only s <= n/2. */
const P256_ORDER = 0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551n;

function lowS(signature: Uint8Array): Uint8Array {
  const s = BigInt(`0x${Buffer.from(signature.subarray(32)).toString('hex')}`);
  if (s <= P256_ORDER / 2n) return signature;
  const flipped = Buffer.from((P256_ORDER - s).toString(16).padStart(64, '0'), 'hex');
  return Uint8Array.from([...signature.subarray(0, 32), ...flipped]);
}

function compress(jwk: JWK): Uint8Array {
  const x = Buffer.from(jwk.x!, 'base64url');
  const y = Buffer.from(jwk.y!, 'base64url');
  return Uint8Array.from([y[y.length - 1]! % 2 === 0 ? 0x02 : 0x03, ...x]);
}
