import { revokeTokens } from '../core/access/principals.js';
import type { Handlers, RouteGroup } from '../core/http/operation.js';
import type { innerAccessOps } from './routes/access.js';

const revoked = (accountId: string, tokens: 'server' | 'console', before: number) => ({
  account_id: accountId,
  tokens,
  revoked_before: new Date(before).toISOString(),
});

/** Token revocation, spread into the inner group's handlers. */
export const innerAccessHandlers: Handlers<RouteGroup<typeof innerAccessOps>> = {
  revoke_tokens: async ({ deps, auth, body }) => revoked(auth.sub, body.tokens, await revokeTokens(deps, auth.sub, body.tokens)),
  admin_revoke_tokens: async ({ deps, body }) => revoked(body.account_id, body.tokens, await revokeTokens(deps, body.account_id, body.tokens)),
};
