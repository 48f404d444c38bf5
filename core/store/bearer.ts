import type { Deps } from '../platform/deps.js';
import { forbidden, unauthorized } from '../platform/errors.js';
import type { TokenClaims } from '../platform/tokens.js';
import { regionKey, verifyAccessToken, type StoreRegion } from './regions.js';
import { verifySession } from './sessions.js';
import { familyRevoked } from './grants.js';

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

/**
 * A bearer token of a partner store region, for the authorization layer (core/http/auth.ts): a store session,
 * where the operation takes one, or an RFC 9068 access token issued to a partner app for a user, with the
 * operation's scope (403 `insufficient scope` otherwise, RFC 6750 §3.1). Both are verified with the region's
 * key and issuer only: a token of the other region, or another host, is 401.
 */
export async function verifyStoreBearer(deps: Pick<Deps, 'storeKeys' | 'now' | 'db' | 'table'>, rule: StoreTokenRule, issuer: string, token: string): Promise<TokenClaims> {
  const key = regionKey(deps, rule.region);
  const now = deps.now();
  if (rule.session) {
    const session = await verifySession(key, issuer, token, now);
    if (session) return { kind: 'store', sub: session.sub, exp: session.exp, store_token: 'session' };
  }
  if (rule.sessionOnly) throw unauthorized(`token is invalid here: expected a store session of ${issuer}`);
  const access = await verifyAccessToken(key, issuer, token, now);
  if (!access) throw unauthorized(`token is invalid here: expected ${rule.session ? 'a store session or ' : ''}an access token of ${issuer}`);
  if (rule.client) {
    if (access.kind !== 'client') throw forbidden("token: this operation is for a partner backend's own token (client_credentials)");
    if (rule.scope && !access.scope.split(' ').includes(rule.scope)) throw forbidden(`token: insufficient scope (needs ${rule.scope})`);
    return { kind: 'store', sub: access.client_id, exp: access.exp!, client_id: access.client_id, scope: access.scope, store_token: 'access' };
  }
  if (access.kind !== 'user') throw forbidden("token: a client's own token acts for no user");
  if (rule.scope && !access.scope.split(' ').includes(rule.scope)) throw forbidden(`token: insufficient scope (needs ${rule.scope})`);
  // A family revoked (a code or refresh token replayed) takes its access tokens with it: one GetItem.
  if (access.fam && (await familyRevoked(deps, access.fam))) throw unauthorized('token has been revoked');
  return { kind: 'store', sub: access.sub, exp: access.exp!, client_id: access.client_id, scope: access.scope, store_token: 'access' };
}
