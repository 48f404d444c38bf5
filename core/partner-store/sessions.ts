import { randomUUID } from 'node:crypto';
import * as z from 'zod/mini';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { SignJWT, jwtVerify } from 'jose';
import type { PartnerStoreDeps } from './deps.js';
import { storeError } from './errors.js';
import { transactOrFailures, type TransactItem } from '../platform/transactions.js';
import { assertionRefused, jtiUsedAlready, usedJti, verifyAssertion } from './assertions.js';
import { nullByDefault } from '../shared/records.js';
import { regionKey, type RegionKey, STORE_REGIONS, type StoreRegion } from './regions.js';
import { storeUserKey, loginKey } from './keys.js';

/**
 * Store users and their sign-in (login, getUser; docs/api.md "Partner store"). The partner store's backend vouches
 * for its user with a signed assertion (core/partner-store/assertions.ts). Login answers a store session (a JWT of
 * the region's key, audience `store-session`, an hour) with which the user consents to partner apps (accept) and
 * reads their own records.
 *
 * Access patterns: "a partner's user": pk `STORELOGIN#<region>#<client_id>#<sub>`, sk `STORELOGIN` (uid; while the
 * user's deletion runs, also its record: core/partner-store/deletion.ts); "a store user": pk `STOREUSER#<uid>`, sk
 * `STOREUSER` (`deleted_at` once the user's deletion has started: from then on nothing is written for the user).
 */
export const SESSION_SECONDS = 3600;

/** "the store user of a partner's user" (loginKey); `pseudonym` and `deleted_at` while the user's deletion runs. */
export const StoredLogin = z.object({ uid: z.string(), pseudonym: z.optional(z.string()), deleted_at: z.optional(z.string()) });
export type StoredLogin = z.infer<typeof StoredLogin>;

/**
 * "a store user" (storeUserKey) as stored: the user, and `deleted_at` once their deletion has started. `name` is
 * null when the partner's assertion gave none.
 */
export const StoredUser = z.object({
  uid: z.string(),
  region: z.enum(STORE_REGIONS),
  partner: z.string(),
  partner_user_id: z.string(),
  name: nullByDefault(z.string()),
  created_at: z.string(),
  deleted_at: z.optional(z.string()),
});

/** Whether a store user item is of a user that is there: not absent, and not being deleted. */
export const userLive = (item: Record<string, unknown> | undefined) => item !== undefined && item.deleted_at === undefined;

/**
 * The condition that the store user is there, in every transaction that writes for them (their balances, pets,
 * codes and tokens): once the user's deletion has started, such a write is refused, so the deletion never has
 * to chase items written behind it.
 */
export function liveUserCheck(deps: Pick<PartnerStoreDeps, 'table'>, uid: string): TransactItem {
  return {
    ConditionCheck: {
      TableName: deps.table,
      Key: storeUserKey(uid),
      ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(deleted_at)',
    },
  };
}

export interface StoreUser {
  uid: string;
  region: StoreRegion;
  partner: string;
  partner_user_id: string;
  name: string | null;
  created_at: string;
}

/** login: verifies the partner's assertion, finds or creates the store user, and answers a store session. */
export async function login(deps: PartnerStoreDeps, region: StoreRegion, issuer: string, assertion: string) {
  const key = regionKey(deps, region);
  const verified = await verifyAssertion(deps, region, issuer, assertion);
  const { clientId, sub, name } = verified;
  const known = await deps.db.send(new GetCommand({ TableName: deps.table, Key: loginKey(region, clientId, sub), ConsistentRead: true }));
  const stored = known.Item && StoredLogin.parse(known.Item);
  if (stored?.pseudonym)
    throw storeError('store.user_deleting', "assertion: this user's store account is being deleted; send user/delete again to finish it, then sign in anew");
  const now = deps.now().toISOString();
  const existing = stored?.uid;
  const user: StoreUser = { uid: existing ?? randomUUID(), region, partner: clientId, partner_user_id: sub, name, created_at: now };
  const failed = await transactOrFailures(
    deps,
    existing
      ? [usedJti(deps, verified)]
      : [
          usedJti(deps, verified),
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
  if (failed.some((failure) => failure.index === 0)) throw jtiUsedAlready();
  if (failed.length > 0) throw assertionRefused('the user was created concurrently; retry');
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
  if (!userLive(out.Item)) throw storeError('store.user_not_found', 'no such store user');
  const { uid: id, region, partner, partner_user_id, name, created_at } = StoredUser.parse(out.Item);
  return { uid: id, region, partner, partner_user_id, name, created_at };
}
