import type { Context } from 'hono';
import type { Deps } from '../platform/deps.js';
import { forbidden, unauthorized } from '../platform/errors.js';
import type { TokenClaims, TokenKind } from '../platform/tokens.js';
import type { AuthRule } from './operation.js';

export const open = 'open' as const;
export const tokens = (...kinds: TokenKind[]): AuthRule => ({ tokens: kinds });
export const merchantAuth: AuthRule = { tokens: ['merchant'] };
export const adminAuth: AuthRule = { tokens: ['merchant'], role: 'admin' };

/** Reads `Authorization: Bearer …` and verifies it against the rule; 401 without a valid token, 403 without the role. */
export async function authenticate(c: Context, rule: AuthRule, deps: Deps): Promise<TokenClaims | undefined> {
  if (rule === 'open') return undefined;
  const claims = await deps.tokens.verify(bearerToken(c.req.header('authorization')), rule.tokens);
  if (rule.role === 'admin' && claims.role !== 'admin') throw forbidden('this operation is for admin accounts');
  return claims;
}

/** The token of an `Authorization: Bearer <token>` header; 401 when there is none. */
export function bearerToken(header: string | undefined): string {
  const match = header?.match(/^Bearer\s+(\S+)$/i);
  if (!match) throw unauthorized('Authorization header with a Bearer token is required');
  return match[1]!;
}
