import type { PartnerStoreDeps } from './deps.js';
import { bearerTokenOf } from '../platform/authorization-header.js';
import { readItems } from '../platform/batch.js';
import { storeError } from './errors.js';
import type { TokenClaims } from '../platform/tokens.js';
import { challenged, insufficientScope, invalidToken, STORE_REALM, userGone } from './challenges.js';
import { regionKey, verifyAccessToken, type StoreRegion } from './regions.js';
import { userLive, verifySession } from './sessions.js';
import { storeUserKey } from './keys.js';
import { familyLive } from './grants.js';
import { familyKey } from './keys.js';

/** What a partner store operation takes (a TokenRule's `store`, core/http/operation.ts). */
export interface StoreTokenRule {
  readonly region: StoreRegion;
  /** The store session (login) is taken too; else only a partner app's access token for a user. */
  readonly session?: boolean;
  /** The scope an access token must carry (a session carries every scope: it is the user). */
  readonly scope?: string;
  /** Only the store session: the user acts in person (accept), no partner app for them. */
  readonly sessionOnly?: boolean;
  /** A partner backend's own token (client_credentials) with `scope`, instead of a user's: the caller is the client. */
  readonly client?: boolean;
}

/** What the OpenAPI document says of the challenges a rule's refusals carry (core/http/openapi.ts). */
export function storeChallengeHeaders(rule: StoreTokenRule): Partial<Record<401 | 403, string>> {
  return {
    401: `\`Bearer realm="${STORE_REALM}"\` when no Bearer token was sent; otherwise with \`error="invalid_token"\` and \`error_description\` (RFC 6750 §3)`,
    ...(rule.scope &&
      !rule.sessionOnly && {
        403: `\`Bearer realm="${STORE_REALM}", error="insufficient_scope", error_description=…, scope="${rule.scope}"\` when the access token lacks the scope (RFC 6750 §3.1)`,
      }),
  };
}

/**
 * The token of `Authorization: Bearer <token>`: no header, or another scheme, is a request without a token
 * (401 with the bare challenge); the Bearer scheme with anything but one token is an invalid token.
 */
function bearerOf(header: string | undefined): string {
  if (header === undefined || !/^Bearer(\s|$)/i.test(header)) throw challenged('store.token_missing', 'Authorization: a Bearer token is required');
  const token = bearerTokenOf(header);
  if (!token) throw invalidToken('Authorization: malformed Bearer credentials (expected `Bearer <token>`)');
  return token;
}

/**
 * A bearer token of a partner store region, for the authorization layer (core/http/auth.ts): a store session,
 * where the operation takes one, or an RFC 9068 access token issued to a partner app for a user, with the
 * operation's scope (403 `insufficient_scope` otherwise, RFC 6750 §3.1). Both are verified with the region's
 * key and issuer only: a token of the other region, or another host, is 401. Each refusal carries its
 * challenge (core/partner-store/challenges.ts).
 *
 * A user's token is refused once the user has deleted their store account (its deletion started): the store user
 * item is read on every call, strongly consistent. An access token reads it with its family (one BatchGetItem); a
 * session's is read by the authorization layer with the items the operation reads first (core/http/policy.ts), so
 * it costs the call no request of its own; a client's own token reads nothing.
 * The item is read rather than a gone mark kept beside it: either is one read, and the user item's absence is
 * for good (a uid is never used again), so no mark has to outlive the deletion.
 */
export async function verifyStoreBearer(
  deps: Pick<PartnerStoreDeps, 'storeKeys' | 'now' | 'db' | 'table'>,
  rule: StoreTokenRule,
  issuer: string,
  authorization: string | undefined,
): Promise<TokenClaims> {
  const token = bearerOf(authorization);
  const key = regionKey(deps, rule.region);
  const now = deps.now();
  if (rule.session) {
    const session = await verifySession(key, issuer, token, now);
    // Whether the session's user still holds a store account is read by the authorization layer, after the input
    // is validated (core/http/policy.ts enforcePolicy), with what the operation reads first: one request.
    if (session) return { kind: 'store', sub: session.sub, exp: session.exp, store_token: 'session' };
  }
  if (rule.sessionOnly) throw invalidToken(`token is invalid here: expected a store session of ${issuer}`);
  const access = await verifyAccessToken(key, issuer, token, now);
  if (!access) throw invalidToken(`token is invalid here: expected ${rule.session ? 'a store session or ' : ''}an access token of ${issuer}`);
  if (rule.client) {
    if (access.kind !== 'client') throw storeError('store.token_not_client', "token: this operation is for a partner backend's own token (client_credentials)");
    if (rule.scope && !access.scope.split(' ').includes(rule.scope)) throw insufficientScope(rule.scope);
    return { kind: 'store', sub: access.client_id, exp: access.exp!, client_id: access.client_id, scope: access.scope, store_token: 'access' };
  }
  if (access.kind !== 'user') throw storeError('store.token_not_user', "token: a client's own token acts for no user");
  if (rule.scope && !access.scope.split(' ').includes(rule.scope)) throw insufficientScope(rule.scope);
  // A family revoked (a code or refresh token replayed) takes its access tokens with it; a deleted user, all of theirs.
  const [user, family] = await readItems(deps, [storeUserKey(access.sub), ...(access.fam ? [familyKey(access.fam)] : [])]);
  if (!userLive(user)) throw userGone();
  if (access.fam && !familyLive(family)) throw invalidToken('token has been revoked');
  return { kind: 'store', sub: access.sub, exp: access.exp!, client_id: access.client_id, scope: access.scope, store_token: 'access' };
}
