import { randomUUID } from 'node:crypto';
import * as z from 'zod/mini';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { decodeJwt, importJWK, jwtVerify, SignJWT, type JWK, type JWTPayload } from 'jose';
import type { PartnerStoreDeps } from './deps.js';
import { storeError } from './errors.js';
import { transactOrFailures } from '../platform/transactions.js';
import { assertionAlgOf } from './assertion-keys.js';
import { findClient, isClientId } from './clients.js';
import { regionKey, type RegionKey, type StoreRegion } from './regions.js';

/**
 * Store users and their sign-in (login, getUser; docs/api.md "Partner store"). The partner store's backend vouches
 * for its user with a signed assertion, a JWT (docs/api.md "Partner store"):
 *   header `alg` ES256 or EdDSA (the key registered with the partner's client, `--assertion-jwk`);
 *   claims `iss` the partner's client_id, `sub` its user id (1-128 characters), `aud` the region's issuer,
 *   `iat`, `exp` at most 5 minutes later, `jti` unique (single use, 1-128 characters), optional `name`.
 * Time is judged by this server's clock with ASSERTION_SKEW_SECONDS of allowance for the partner's: an `iat`
 * further ahead, or an `exp` further than the lifetime and the allowance from now, is refused, so an assertion
 * dated ahead cannot be kept and used later (its lifetime counts from now, whatever it says its `iat` is).
 * Login answers a store session (a JWT of the region's key, audience `store-session`, an hour) with which the
 * user consents to partner apps (accept) and reads their own records.
 *
 * Access patterns: "a partner's user": pk `STORELOGIN#<region>#<client_id>#<sub>`, sk `STORELOGIN` (uid);
 * "a store user": pk `STOREUSER#<uid>`, sk `STOREUSER`; "a used assertion": pk `STOREJTI#<region>#<client_id>#<jti>`,
 * sk `STOREJTI` (TTL: its expiry).
 */
export const SESSION_SECONDS = 3600;
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

export const storeUserKey = (uid: string) => ({ pk: `STOREUSER#${uid}`, sk: 'STOREUSER' });
const loginKey = (region: StoreRegion, clientId: string, sub: string) => ({ pk: `STORELOGIN#${region}#${clientId}#${sub}`, sk: 'STORELOGIN' });
/** "the store user of a partner's user" (loginKey). */
const StoredLogin = z.object({ uid: z.string() });
const jtiKey = (region: StoreRegion, clientId: string, jti: string) => ({ pk: `STOREJTI#${region}#${clientId}#${jti}`, sk: 'STOREJTI' });

export interface StoreUser {
  uid: string;
  region: StoreRegion;
  partner: string;
  partner_user_id: string;
  name: string | null;
  created_at: string;
}

const refused = (why: string) => storeError('store.assertion_invalid', `assertion: ${why}`);

/** login: verifies the partner's assertion, finds or creates the store user, and answers a store session. */
export async function login(deps: PartnerStoreDeps, region: StoreRegion, issuer: string, assertion: string) {
  const key = regionKey(deps, region);
  let clientId: unknown;
  try {
    clientId = decodeJwt(assertion).iss;
  } catch {
    throw refused('not a JWT');
  }
  if (typeof clientId !== 'string' || !isClientId(clientId)) throw refused('iss must name a partner client of this region');
  const found = await findClient(deps, region, clientId);
  if (!found?.client.assertion_jwk) throw refused(`iss ${clientId} is not a partner client of this region that signs users in`);
  const jwk = found.client.assertion_jwk;
  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(assertion, await importJWK(jwk as JWK, assertionAlgOf(jwk)), {
      algorithms: ['ES256', 'EdDSA'],
      issuer: clientId,
      audience: issuer,
      requiredClaims: ['sub', 'iat', 'exp', 'jti'],
      currentDate: deps.now(),
    }));
  } catch (error) {
    throw refused(`not valid (${(error as Error).message.slice(0, 120)})`);
  }
  for (const claim of ['sub', 'jti'] as const) {
    const problem = claimProblem(payload[claim]);
    if (problem) throw refused(`${claim} ${problem}`);
  }
  const [sub, jti] = [payload.sub as string, payload.jti as string];
  const nowSeconds = Math.floor(deps.now().getTime() / 1000);
  const [iat, exp] = [payload.iat!, payload.exp!];
  if (iat > nowSeconds + ASSERTION_SKEW_SECONDS)
    throw refused(`iat is ${iat - nowSeconds} seconds ahead of this server's clock (at most ${ASSERTION_SKEW_SECONDS} allowed)`);
  if (exp > nowSeconds + ASSERTION_MAX_SECONDS + ASSERTION_SKEW_SECONDS) {
    throw refused(`exp is more than ${ASSERTION_MAX_SECONDS} seconds (and ${ASSERTION_SKEW_SECONDS} of clock skew) from now`);
  }
  if (exp - iat > ASSERTION_MAX_SECONDS) throw refused(`exp is more than ${ASSERTION_MAX_SECONDS} seconds after iat`);
  // The display name is kept whole characters at most 100 (slicing must not split a surrogate pair).
  const name =
    typeof payload.name === 'string' ? Array.from(payload.name).slice(0, 100).join('').replace(new RegExp(LONE_SURROGATE.source, 'g'), '\uFFFD') : null;

  const known = await deps.db.send(new GetCommand({ TableName: deps.table, Key: loginKey(region, clientId, sub), ConsistentRead: true }));
  const now = deps.now().toISOString();
  const used = {
    Put: {
      TableName: deps.table,
      Item: { ...jtiKey(region, clientId, jti), type: 'store_jti', expiresAt: payload.exp },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  };
  const existing = known.Item && StoredLogin.parse(known.Item).uid;
  const user: StoreUser = { uid: existing ?? randomUUID(), region, partner: clientId, partner_user_id: sub, name, created_at: now };
  const failed = await transactOrFailures(
    deps,
    existing
      ? [used]
      : [
          used,
          {
            Put: {
              TableName: deps.table,
              Item: { ...loginKey(region, clientId, sub), type: 'store_login', uid: user.uid },
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          },
          { Put: { TableName: deps.table, Item: { ...storeUserKey(user.uid), type: 'store_user', ...user }, ConditionExpression: 'attribute_not_exists(pk)' } },
        ],
    'assertion: the user signed in concurrently; retry',
  );
  if (failed.some((failure) => failure.index === 0)) throw refused('jti was used already (an assertion is single use)');
  if (failed.length > 0) throw refused('the user was created concurrently; retry');
  return { session: await signSession(key, issuer, user.uid, clientId, deps.now()), expires_in: SESSION_SECONDS, uid: user.uid };
}

async function signSession(key: RegionKey, issuer: string, uid: string, partner: string, now: Date) {
  const iat = Math.floor(now.getTime() / 1000);
  return new SignJWT({ partner })
    .setProtectedHeader({ alg: 'ES256', kid: key.kid, typ: 'JWT' })
    .setIssuer(issuer)
    .setSubject(uid)
    .setAudience('store-session')
    .setIssuedAt(iat)
    .setExpirationTime(iat + SESSION_SECONDS)
    .setJti(randomUUID())
    .sign(key.privateKey);
}

/** A store session of the region and issuer: its user id; undefined when not valid. */
export async function verifySession(key: RegionKey, issuer: string, token: string, now: Date): Promise<{ sub: string; exp: number } | undefined> {
  try {
    const { payload } = await jwtVerify(token, key.publicKey, { algorithms: ['ES256'], typ: 'JWT', issuer, audience: 'store-session', currentDate: now });
    return typeof payload.sub === 'string' ? { sub: payload.sub, exp: Number(payload.exp) } : undefined;
  } catch {
    return undefined;
  }
}

/** userInfo: the access token's user as OpenID Connect claims (`sub` is the store user id). */
export async function userInfo(deps: Pick<PartnerStoreDeps, 'db' | 'table'>, uid: string) {
  const user = await storeUser(deps, uid);
  return { sub: user.uid, name: user.name, partner: user.partner, partner_user_id: user.partner_user_id };
}

/** getUser: the store user. */
export async function storeUser(deps: Pick<PartnerStoreDeps, 'db' | 'table'>, uid: string): Promise<StoreUser> {
  const out = await deps.db.send(new GetCommand({ TableName: deps.table, Key: storeUserKey(uid), ConsistentRead: true }));
  if (!out.Item) throw storeError('store.user_not_found', 'no such store user');
  const { uid: id, region, partner, partner_user_id, name, created_at } = out.Item;
  return { uid: id, region, partner, partner_user_id, name: name ?? null, created_at };
}
