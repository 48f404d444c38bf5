import { decodeJwt, importJWK, jwtVerify, type JWK, type JWTPayload } from 'jose';
import * as z from 'zod/mini';
import type { PartnerStoreDeps } from './deps.js';
import { storeError } from './errors.js';
import type { TransactItem } from '../platform/transactions.js';
import { assertionAlgOf } from './assertion-keys.js';
import { findClient } from './clients.js';
import { isClientId } from './names.js';
import type { StoreRegion } from './regions.js';
import { jtiKey } from './keys.js';

/**
 * A partner backend's signed assertion of its user, the credential of login and of user/delete (docs/api.md
 * "Partner store"): a JWT, header `alg` ES256 or EdDSA (the key registered with the partner's client,
 * `--assertion-jwk`); claims `iss` the partner's client_id, `sub` its user id (1-128 characters), `aud` the
 * region's issuer, `iat`, `exp` at most 5 minutes later, `jti` unique (single use, 1-128 characters), optional
 * `name`. Time is judged by this server's clock with ASSERTION_SKEW_SECONDS of allowance for the partner's: an
 * `iat` further ahead, or an `exp` further than the lifetime and the allowance from now, is refused, so an
 * assertion dated ahead cannot be kept and used later (its lifetime counts from now, whatever it says its `iat` is).
 *
 * Access pattern "a used assertion": pk `STOREJTI#<region>#<client_id>#<jti>`, sk `STOREJTI` (TTL: its expiry).
 * The operation an assertion is for takes its jti in the transaction that does its work (usedJti), so a refused
 * request leaves it unused.
 */
const ASSERTION_MAX_SECONDS = 300;
/** How far the partner's clock may be ahead of this server's (an `iat` up to this far in the future is taken). */
export const ASSERTION_SKEW_SECONDS = 60;
/** `sub` and `jti` go into keys (`STORELOGIN#…`, `STOREJTI#…`): bounded, and whole characters (no lone surrogate). */
const CLAIM_MAX = 128;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
function claimProblem(value: unknown): string | undefined {
  if (typeof value !== 'string') return 'must be a string';
  if (value.length < 1 || value.length > CLAIM_MAX) return `must be 1-${CLAIM_MAX} characters`;
  if (LONE_SURROGATE.test(value)) return 'has a lone surrogate (not text)';
  return undefined;
}

/** What a verified assertion says: the partner (its client id), its user and the assertion's own jti and expiry. */
export interface Assertion {
  region: StoreRegion;
  clientId: string;
  sub: string;
  jti: string;
  exp: number;
  /** The display name, whole characters, at most 100; null when the assertion has none. */
  name: string | null;
}

export const assertionRefused = (why: string) => storeError('store.assertion_invalid', `assertion: ${why}`);

/** Verifies the partner's assertion for the region's issuer (401 `store.assertion_invalid` when it is not one); reads the partner's client. */
export async function verifyAssertion(deps: PartnerStoreDeps, region: StoreRegion, audience: string, assertion: string): Promise<Assertion> {
  let clientId: unknown;
  try {
    clientId = decodeJwt(assertion).iss;
  } catch {
    throw assertionRefused('not a JWT');
  }
  if (typeof clientId !== 'string' || !isClientId(clientId)) throw assertionRefused('iss must name a partner client of this region');
  const found = await findClient(deps, region, clientId);
  if (!found?.client.assertion_jwk) throw assertionRefused(`iss ${clientId} is not a partner client of this region that signs users in`);
  const jwk = found.client.assertion_jwk;
  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(assertion, await importJWK(jwk as JWK, assertionAlgOf(jwk)), {
      algorithms: ['ES256', 'EdDSA'],
      issuer: clientId,
      audience,
      requiredClaims: ['sub', 'iat', 'exp', 'jti'],
      currentDate: deps.now(),
    }));
  } catch (error) {
    throw assertionRefused(`not valid (${(error as Error).message.slice(0, 120)})`);
  }
  for (const claim of ['sub', 'jti'] as const) {
    const problem = claimProblem(payload[claim]);
    if (problem) throw assertionRefused(`${claim} ${problem}`);
  }
  const nowSeconds = Math.floor(deps.now().getTime() / 1000);
  const [iat, exp] = [payload.iat!, payload.exp!];
  if (iat > nowSeconds + ASSERTION_SKEW_SECONDS)
    throw assertionRefused(`iat is ${iat - nowSeconds} seconds ahead of this server's clock (at most ${ASSERTION_SKEW_SECONDS} allowed)`);
  if (exp > nowSeconds + ASSERTION_MAX_SECONDS + ASSERTION_SKEW_SECONDS) {
    throw assertionRefused(`exp is more than ${ASSERTION_MAX_SECONDS} seconds (and ${ASSERTION_SKEW_SECONDS} of clock skew) from now`);
  }
  if (exp - iat > ASSERTION_MAX_SECONDS) throw assertionRefused(`exp is more than ${ASSERTION_MAX_SECONDS} seconds after iat`);
  // The display name is kept whole characters at most 100 (slicing must not split a surrogate pair).
  const name =
    typeof payload.name === 'string' ? Array.from(payload.name).slice(0, 100).join('').replace(new RegExp(LONE_SURROGATE.source, 'g'), '\uFFFD') : null;
  return { region, clientId, sub: payload.sub as string, jti: payload.jti as string, exp, name };
}

/** "a used assertion" (jtiKey) as stored: its expiry (epoch seconds), when the table's TTL removes it; read only for being there. */
export const StoredAssertion = z.object({ expiresAt: z.int() });

/** The assertion's jti taken, on condition it was not: item of the transaction that does what the assertion is for. */
export function usedJti(deps: Pick<PartnerStoreDeps, 'table'>, assertion: Assertion): TransactItem {
  return {
    Put: {
      TableName: deps.table,
      Item: { ...jtiKey(assertion.region, assertion.clientId, assertion.jti), type: 'store_jti', expiresAt: assertion.exp },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  };
}

export const jtiUsedAlready = () => assertionRefused('jti was used already (an assertion is single use)');
