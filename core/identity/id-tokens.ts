import { createRemoteJWKSet, decodeJwt, errors, jwtVerify, type JWTVerifyGetKey } from 'jose';
import { identityError } from './errors.js';

/**
 * OpenID Connect id_tokens from the stage's configured providers (Google, Apple, …), verified with jose
 * against each issuer's JWKS. Used by zkLogin (login_zk, query_zk_info) and social binding.
 */

/** One provider a stage accepts: its name (the `provider` of social bindings), issuer, key set and client ids. */
export interface OAuthProvider {
  name: string;
  issuer: string;
  jwksUri: string;
  /** Accepted `aud` values: the stage's OAuth client ids at this provider. */
  clientIds: string[];
}

export interface VerifiedIdToken {
  provider: string;
  iss: string;
  sub: string;
  aud: string;
  email?: string;
  /** The provider's `email_verified` claim, when it is a boolean. */
  email_verified?: boolean;
  /** The token itself, for the zkLogin address derivation (which reads its claims). */
  jwt: string;
}

export interface IdTokenVerifier {
  /**
   * Verifies signature (against the issuer's JWKS, fetched with a timeout and cached), issuer, audience and
   * expiry. Throws Unauthenticated naming what failed, or Unavailable when the stage has no provider configured.
   */
  verify(idToken: string): Promise<VerifiedIdToken>;
}

/** Parses the OAUTH_PROVIDERS setting (a JSON array of OAuthProvider); throws a message naming the bad entry. */
export function parseOAuthProviders(json: string | undefined): OAuthProvider[] {
  if (!json?.trim()) return [];
  const value: unknown = JSON.parse(json);
  if (!Array.isArray(value)) throw new Error('OAuth providers: expected a JSON array');
  return value.map((entry, i) => {
    const { name, issuer, jwksUri, clientIds } = (entry ?? {}) as Partial<OAuthProvider>;
    const ok =
      typeof name === 'string' &&
      typeof issuer === 'string' &&
      typeof jwksUri === 'string' &&
      Array.isArray(clientIds) &&
      clientIds.every((id) => typeof id === 'string') &&
      clientIds.length > 0;
    if (!ok) throw new Error(`OAuth providers[${i}]: expected {name, issuer, jwksUri, clientIds: [..]}`);
    return { name, issuer, jwksUri, clientIds };
  });
}

/**
 * RS256 is what OpenID providers sign id_tokens with (Google, Apple, Facebook, Microsoft; the only algorithm
 * zkLogin's circuit proves); ES256 admits providers that sign with P-256 keys, for social binding. Naming the
 * algorithms also refuses `alg: none` and the HMAC family, so a public key can never be used as a shared secret.
 */
const ALGORITHMS = ['RS256', 'ES256'];
/** How long a JWKS fetch may take: a sign-in waits on it, and a Lambda instance keeps the keys for CACHE_MAX_AGE. */
const DEFAULT_TIMEOUT_MS = 3000;
/** Keys are refetched after this, or sooner (at most once per COOLDOWN) when a token names an unknown `kid` (key rotation). */
const CACHE_MAX_AGE_MS = 10 * 60_000;
const COOLDOWN_MS = 30_000;

/** The issuer's keys could not be had: a failure on our side of the trust chain, not a bad token. */
class KeysUnavailable extends Error {}

/**
 * The stage's id_token verifier. Each provider's key set is created once and kept for the life of the process
 * (a Lambda instance), so keys are fetched on the first token of that issuer and then served from memory.
 */
export function createIdTokenVerifier(
  providers: OAuthProvider[],
  options: { timeoutMs?: number; now?: () => Date /** What refusals name (default `id_token`). */; field?: string } = {},
): IdTokenVerifier {
  const now = options.now ?? (() => new Date());
  const field = options.field ?? 'id_token';
  const byIssuer = new Map(
    providers.map((provider) => {
      const keys = createRemoteJWKSet(new URL(provider.jwksUri), {
        timeoutDuration: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
        cooldownDuration: COOLDOWN_MS,
        cacheMaxAge: CACHE_MAX_AGE_MS,
      });
      const getKey: JWTVerifyGetKey = async (header, token) => {
        try {
          return await keys(header, token);
        } catch (error) {
          // No key for the token's kid is the token's fault; anything else (timeout, connection, non-200, bad JSON) is the issuer's.
          if (error instanceof errors.JWKSNoMatchingKey || error instanceof errors.JWKSMultipleMatchingKeys) throw error;
          throw new KeysUnavailable('JWKS fetch failed', { cause: error });
        }
      };
      return [provider.issuer, { provider, getKey }] as const;
    }),
  );

  return {
    async verify(idToken) {
      if (byIssuer.size === 0) throw identityError('sign_in.unconfigured', 'zkLogin/social sign-in is not configured in this stage');
      let issuer: string | undefined;
      try {
        issuer = decodeJwt(idToken).iss;
      } catch {
        throw identityError('id_token.invalid', `${field}: not a readable JWT`);
      }
      const entry = issuer === undefined ? undefined : byIssuer.get(issuer);
      if (!entry) throw identityError('id_token.invalid', `${field}: unknown issuer`);
      const { provider, getKey } = entry;

      try {
        const { payload } = await jwtVerify(idToken, getKey, {
          issuer: provider.issuer,
          audience: provider.clientIds,
          algorithms: ALGORITHMS,
          requiredClaims: ['sub', 'exp'],
          currentDate: now(),
        });
        // jose checks the presence of `sub`, not its type; social ids and salts are keyed by it as text.
        if (typeof payload.sub !== 'string' || payload.sub === '') throw identityError('id_token.invalid', `${field}: claim sub is not valid`);
        // An `aud` array passes when one of its values is ours; that one is the identity's audience.
        const audiences = Array.isArray(payload.aud) ? payload.aud : [payload.aud];
        const aud = provider.clientIds.find((id) => audiences.includes(id))!;
        return {
          provider: provider.name,
          iss: provider.issuer,
          sub: payload.sub,
          aud,
          ...(typeof payload.email === 'string' ? { email: payload.email } : {}),
          ...(typeof payload.email_verified === 'boolean' ? { email_verified: payload.email_verified } : {}),
          jwt: idToken,
        };
      } catch (error) {
        throw rejection(error, field);
      }
    },
  };
}

/**
 * What the caller is told about a failed verification: 401 naming the check that failed; 503 when the issuer's
 * keys could not be fetched (unreachable, timed out, not a JWKS), since then nothing is known about the token
 * and a retry may succeed. Anything else is a bug, passed on unchanged.
 */
function rejection(error: unknown, field: string): unknown {
  if (error instanceof KeysUnavailable) return identityError('id_token.keys_unavailable', `${field}: the issuer's keys could not be fetched`);
  if (error instanceof errors.JWTExpired) return identityError('id_token.expired', `${field}: expired`);
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.claim === 'aud') return identityError('id_token.invalid', `${field}: audience is not a client id of this stage`);
    return identityError('id_token.invalid', `${field}: claim ${error.claim} ${error.reason === 'missing' ? 'is missing' : 'is not valid'}`);
  }
  if (error instanceof errors.JOSEAlgNotAllowed) return identityError('id_token.invalid', `${field}: signing algorithm not allowed`);
  if (error instanceof errors.JWKSNoMatchingKey || error instanceof errors.JWKSMultipleMatchingKeys) {
    return identityError('id_token.invalid', `${field}: no single key of the issuer matches the token's kid`);
  }
  if (error instanceof errors.JWSSignatureVerificationFailed) return identityError('id_token.invalid', `${field}: signature does not verify`);
  if (error instanceof errors.JOSEError) return identityError('id_token.invalid', `${field}: invalid`);
  return error;
}
