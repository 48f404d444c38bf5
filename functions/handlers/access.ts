import { changePassword } from '../../core/access/password.js';
import { revokeTokens } from '../../core/access/principals.js';
import { issueServerToken, listServerTokens, revokeServerToken } from '../../core/access/server-tokens.js';
import type { Handlers, RouteGroup } from '../../core/http/operation.js';
import type { innerAccessOps } from '../routes/access.js';

const revoked = (accountId: string, tokens: 'server' | 'console', before: number) => ({
  account_id: accountId,
  tokens,
  revoked_before: new Date(before).toISOString(),
});

/** Token revocation, named server tokens and password changes, spread into the inner group's handlers. */
export const innerAccessHandlers: Handlers<RouteGroup<typeof innerAccessOps>> = {
  revoke_tokens: async ({ deps, auth, body }) => revoked(auth.sub, body.tokens, await revokeTokens(deps, auth.sub, body.tokens)),
  admin_revoke_tokens: async ({ deps, body }) => revoked(body.account_id, body.tokens, await revokeTokens(deps, body.account_id, body.tokens)),
  server_token_issue: ({ deps, auth, body }) => issueServerToken(deps, auth, body.name),
  server_token_list: ({ deps, auth, query }) => listServerTokens(deps, auth.sub, query.cursor),
  server_token_revoke: ({ deps, auth, body }) => revokeServerToken(deps, auth.sub, body.id),
  change_password: ({ deps, auth, body }) => changePassword(deps, auth, body),
};
