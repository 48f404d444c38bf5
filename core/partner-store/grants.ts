import { randomBytes, randomUUID } from 'node:crypto';
import * as z from 'zod/mini';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { conditionHeld } from '../platform/conditional-failure.js';
import { sha256Url } from '../platform/digest.js';
import { playerItemsKeys } from '../platform/players.js';
import { oauthError } from './errors.js';
import { transactOrFailures, type TransactItem } from '../platform/transactions.js';
import { StoredCode } from './authorization.js';
import { codeKey, familyKey, refreshKey } from './keys.js';
import { scopeWithin, type StoreClient } from './clients.js';
import { regionKey, signAccessToken, type StoreRegion } from './regions.js';
import { liveUserCheck } from './sessions.js';
import type { TokenDeps } from './deps.js';

/**
 * The code and refresh grants (RFC 6749 §4.1.3, §6; RFC 7636 §4.6; OAuth 2.0 Security BCP §4.14 refresh token
 * rotation). Every exchange of a code starts a token family; its refresh tokens rotate (each used once, the next
 * issued with it), and the family is revoked as a whole when a used code or a used refresh token comes back
 * (RFC 6749 §4.1.2: a code used twice revokes what it issued; the BCP: a reused refresh token revokes the
 * family). Access tokens carry their family (`fam`) and the store's authorization layer refuses a revoked
 * family's tokens, so revocation reaches tokens already issued too.
 *
 * Access patterns: "a family": pk `STOREFAMILY#<id>`, sk `STOREFAMILY` (`revoked`); "a refresh token": pk
 * `STOREREFRESH#<SHA-256 of it>`, sk `STOREREFRESH` (TTL 30 days; `used_at` once rotated). Both hold the user's
 * uid and no key of theirs leads from the user to them, so both are in "a player's items that no key leads to"
 * (core/platform/players.ts, gsi6 `STOREFAMILY` and `STOREREFRESH`): the user's deletion finds them there. A
 * family or refresh token is written only on condition the user is there (liveUserCheck), so none is issued
 * to a user whose deletion has started.
 */
export const REFRESH_SECONDS = 30 * 24 * 3600;

/** "a refresh token" (refreshKey): its grant, its expiry and when it was rotated. */
export const StoredRefresh = z.object({
  region: z.string(),
  uid: z.string(),
  client_id: z.string(),
  scope: z.string(),
  family: z.string(),
  expiresAt: z.number(),
  used_at: z.optional(z.string()),
});

const invalidGrant = (why: string) => oauthError('invalid_grant', 'oauth.grant_invalid', why);

/**
 * Revokes a family (idempotent); what a replayed code or refresh token sets off. A family that is no longer there
 * (its user deleted) has nothing to revoke, and is not written back.
 */
async function revokeFamily(deps: TokenDeps, family: string) {
  await conditionHeld(
    deps.db.send(
      new UpdateCommand({
        TableName: deps.table,
        Key: familyKey(family),
        UpdateExpression: 'SET revoked = :yes, revoked_at = :now',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':yes': true, ':now': deps.now().toISOString() },
      }),
    ),
  );
}

/**
 * "a family" (familyKey) as stored, as the bearer check reads it (whether it is revoked) and the index backfill (the
 * user whose items it joins).
 */
export const StoredFamily = z.object({ uid: z.string(), revoked: z.boolean() });

/** Whether a family item (as read) is of tokens that still work: there, and not revoked (the store's bearer check). */
export const familyLive = (item: Record<string, unknown> | undefined) => item !== undefined && !StoredFamily.parse(item).revoked;

/** A new access and refresh token of the family, and the items that store the refresh token. */
async function issuePair(deps: TokenDeps, region: StoreRegion, issuer: string, grant: { uid: string; client_id: string; scope: string; family: string }) {
  const key = regionKey(deps, region);
  const { token, expiresIn } = await signAccessToken(
    key,
    issuer,
    { sub: grant.uid, client_id: grant.client_id, scope: grant.scope, kind: 'user', fam: grant.family },
    deps.now(),
  );
  const refresh = randomBytes(32).toString('base64url');
  const nowSeconds = Math.floor(deps.now().getTime() / 1000);
  const put: TransactItem = {
    Put: {
      TableName: deps.table,
      Item: {
        ...refreshKey(refresh),
        type: 'store_refresh',
        ...playerItemsKeys(grant.uid, 'STOREREFRESH'),
        region,
        ...grant,
        expiresAt: nowSeconds + REFRESH_SECONDS,
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  };
  return { answer: { access_token: token, token_type: 'Bearer' as const, expires_in: expiresIn, scope: grant.scope, refresh_token: refresh }, put };
}

/** RFC 7636 §4.6: BASE64URL(SHA256(code_verifier)) is the challenge; the verifier is 43-128 unreserved characters. */
function verifierMatches(verifier: string | undefined, challenge: string): boolean {
  if (verifier === undefined || !/^[A-Za-z0-9._~-]{43,128}$/.test(verifier)) return false;
  return sha256Url(verifier) === challenge;
}

/**
 * authorization_code: the code must be this region's, this client's, unexpired, unused, sent with the same
 * redirect URI and the PKCE verifier of its challenge; all of those are `invalid_grant`. A code used before
 * revokes the family its first use started.
 */
export async function codeGrant(
  deps: TokenDeps,
  region: StoreRegion,
  issuer: string,
  client: StoreClient,
  body: { code?: string; redirect_uri?: string; code_verifier?: string },
) {
  if (!body.code) throw oauthError('invalid_request', 'oauth.request_invalid', 'code is required');
  const out = await deps.db.send(new GetCommand({ TableName: deps.table, Key: codeKey(body.code), ConsistentRead: true }));
  const code = out.Item && StoredCode.parse(out.Item);
  if (!code || code.region !== region || code.client_id !== client.client_id) throw invalidGrant('code: unknown, or not issued to this client');
  if (code.family) {
    await revokeFamily(deps, code.family);
    throw invalidGrant('code: used already; the tokens issued with it are revoked');
  }
  if (code.validUntil * 1000 <= deps.now().getTime()) throw invalidGrant('code: expired');
  if (body.redirect_uri !== code.redirect_uri) throw invalidGrant('redirect_uri: not the redirect URI the code was issued to');
  if (!verifierMatches(body.code_verifier, code.code_challenge)) throw invalidGrant('code_verifier: does not match the code challenge');

  const family = randomUUID();
  const pair = await issuePair(deps, region, issuer, { uid: code.uid, client_id: client.client_id, scope: code.scope, family });
  const failed = await transactOrFailures(deps, [
    // The code is used once: marked with the family it starts, on condition it was not used.
    {
      Update: {
        TableName: deps.table,
        Key: codeKey(body.code),
        UpdateExpression: 'SET #family = :family',
        ConditionExpression: 'attribute_not_exists(#family)',
        ExpressionAttributeNames: { '#family': 'family' },
        ExpressionAttributeValues: { ':family': family },
      },
    },
    {
      Put: {
        TableName: deps.table,
        Item: {
          ...familyKey(family),
          type: 'store_family',
          ...playerItemsKeys(code.uid, 'STOREFAMILY'),
          region,
          client_id: client.client_id,
          uid: code.uid,
          revoked: false,
          created_at: deps.now().toISOString(),
        },
      },
    },
    pair.put,
    liveUserCheck(deps, code.uid),
  ]);
  if (failed.some((f) => f.index === 3)) throw invalidGrant('code: its user has deleted their store account');
  if (failed.length > 0) throw invalidGrant('code: used already');
  return pair.answer;
}

/**
 * refresh_token: the token must be this region's and this client's, unexpired, of a family not revoked; it is
 * used once (rotation): the answer has a new refresh token, and the old one sent again revokes the family. A
 * narrower `scope` may be asked (§6), never a wider one.
 */
export async function refreshGrant(
  deps: TokenDeps,
  region: StoreRegion,
  issuer: string,
  client: StoreClient,
  body: { refresh_token?: string; scope?: string },
) {
  if (!body.refresh_token) throw oauthError('invalid_request', 'oauth.request_invalid', 'refresh_token is required');
  const out = await deps.db.send(new GetCommand({ TableName: deps.table, Key: refreshKey(body.refresh_token), ConsistentRead: true }));
  const stored = out.Item && StoredRefresh.parse(out.Item);
  if (!stored || stored.region !== region || stored.client_id !== client.client_id) throw invalidGrant('refresh_token: unknown, or not issued to this client');
  const { family } = stored;
  if (stored.used_at) {
    await revokeFamily(deps, family);
    throw invalidGrant('refresh_token: used already; its whole family is revoked');
  }
  if (stored.expiresAt * 1000 <= deps.now().getTime()) throw invalidGrant('refresh_token: expired');
  const within = scopeWithin(stored.scope.split(' ').filter(Boolean), body.scope);
  if ('outside' in within) throw oauthError('invalid_scope', 'oauth.scope_invalid', 'scope: wider than the grant');
  const { scope } = within;
  const pair = await issuePair(deps, region, issuer, { uid: stored.uid, client_id: client.client_id, scope, family });
  const failed = await transactOrFailures(deps, [
    {
      Update: {
        TableName: deps.table,
        Key: refreshKey(body.refresh_token),
        UpdateExpression: 'SET used_at = :now',
        ConditionExpression: 'attribute_not_exists(used_at)',
        ExpressionAttributeValues: { ':now': deps.now().toISOString() },
      },
    },
    { ConditionCheck: { TableName: deps.table, Key: familyKey(family), ConditionExpression: 'revoked = :no', ExpressionAttributeValues: { ':no': false } } },
    pair.put,
    liveUserCheck(deps, stored.uid),
  ]);
  if (failed.some((f) => f.index === 3)) throw invalidGrant('refresh_token: its user has deleted their store account');
  if (failed.some((f) => f.index === 0)) {
    await revokeFamily(deps, family);
    throw invalidGrant('refresh_token: used already; its whole family is revoked');
  }
  if (failed.length > 0) throw invalidGrant('refresh_token: its family is revoked');
  return pair.answer;
}
