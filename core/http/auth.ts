import type { Context } from 'hono';
import type { Deps } from '../deps.js';
import { bearerTokenOf } from '../platform/authorization-header.js';
import { httpError } from './errors.js';
import type { TokenClaims, TokenKind } from '../platform/tokens.js';
import type { AuthRule, FieldRef, Ownership, TokenRule } from './operation.js';
import type { StoreTokenRule } from '../partner-store/bearer.js';

/**
 * The vocabulary of the route tables' policies: `auth: open`, or
 * `auth: allow(['server', 'game'], [owns.self('body.userId'), owns.project('body.projectName')], { movesValue: true })`.
 */
export const open = 'open' as const;

export const allow = (
  kinds: TokenKind[],
  rules: Ownership[],
  options: Pick<TokenRule, 'movesValue' | 'whileSuspended' | 'whileDeleted' | 'refused'> = {},
): TokenRule => ({
  tokens: kinds,
  owns: rules,
  ...options,
});

/** A console (merchant token) operation. */
export const consoleAuth = (rules: Ownership[], options: Pick<TokenRule, 'movesValue' | 'whileSuspended'> = {}) => allow(['merchant'], rules, options);

/** A partner store operation of a region: its session and/or a partner app's access token with `scope`. */
export const storeAuth = (store: StoreTokenRule, rules: Ownership[] = [owns.own]): TokenRule => ({ tokens: ['store'], owns: rules, store });

/** An admin console operation: admins act on any merchant's records. */
export const adminOnly = (why: string, options: Pick<TokenRule, 'movesValue'> = {}): TokenRule => ({
  tokens: ['merchant'],
  role: 'admin',
  owns: [owns.any(why)],
  ...options,
});

/** The ownership rules (operation.ts `Ownership` says what each means). */
export const owns = {
  own: { rule: 'own' } as Ownership,
  self: (field: FieldRef): Ownership => ({ rule: 'self', field }),
  project: (field: FieldRef): Ownership => ({ rule: 'project', field }),
  game: (field: FieldRef): Ownership => ({ rule: 'game', field }),
  goods: (field: FieldRef): Ownership => ({ rule: 'goods', field }),
  record: (field: FieldRef, record: string, owner: string): Ownership => ({ rule: 'record', field, record, owner }),
  any: (why: string): Ownership => ({ rule: 'any', why }),
};

/** Verifiers of token families the platform's token service does not issue, given by the app that takes them. */
export interface BearerVerifiers {
  /** Given the Authorization header as sent: the store answers its own challenges (RFC 6750 §3, core/partner-store/bearer.ts). */
  store?: (c: Context, rule: StoreTokenRule, authorization: string | undefined) => Promise<TokenClaims>;
}

/** Reads `Authorization: Bearer …` and verifies it against the rule; 401 without a valid token, 403 without the role. */
export async function authenticate(c: Context, rule: AuthRule, deps: Deps, verifiers: BearerVerifiers = {}): Promise<TokenClaims | undefined> {
  if (rule === 'open') return undefined;
  if (rule.store) {
    // Partner store tokens are the store regions' own (core/partner-store/bearer.ts): the partner-store app plugs their
    // verifier in, so no other function carries the store's code.
    if (!verifiers.store) throw new Error('authenticate: an operation takes store tokens, but its app has no store verifier');
    return verifiers.store(c, rule.store, c.req.header('authorization'));
  }
  const refused = rule.refused ?? {};
  const claims = await deps.tokens.verify(bearerToken(c.req.header('authorization')), [...rule.tokens, ...(Object.keys(refused) as TokenKind[])]);
  const why = refused[claims.kind];
  if (why !== undefined && !rule.tokens.includes(claims.kind)) throw httpError('auth.kind_refused', `a ${claims.kind} token may not: ${why}`);
  if (rule.role === 'admin' && claims.role !== 'admin') throw httpError('auth.admin_only', 'this operation is for admin accounts');
  return claims;
}

/** The token of an `Authorization: Bearer <token>` header; 401 when there is none. */
export function bearerToken(header: string | undefined): string {
  const token = bearerTokenOf(header);
  if (!token) throw httpError('auth.token_missing', 'Authorization header with a Bearer token is required');
  return token;
}
