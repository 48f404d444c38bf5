import { adminOnly, consoleAuth, owns } from '../../core/http/auth.js';
import type { OperationSpec } from '../../core/http/operation.js';
import { AdminRevokeBody, RevokeBody, Revoked } from '../../core/access/models.js';
import { merchantToken } from './errors.js';

const revokeText =
  '`server` revokes every server token of the merchant issued up to now (a leaked game-server token); `console` every console session of the account. ' +
  'Every token of that set issued up to the revocation instant (`revoked_before`, to the millisecond) is refused; one issued after it, even in the same second, is not. No key changes.';

/** Token revocation (docs/security.md), console operations of the inner group. */
export const innerAccessOps = {
  revoke_tokens: {
    name: 'revoke_tokens',
    method: 'POST',
    path: '/merchant/tokens/revoke',
    tag: 'studios',
    auth: consoleAuth([owns.own], { whileSuspended: true }),
    summary: "Revoke the caller's server tokens or console sessions",
    description: revokeText,
    body: RevokeBody,
    status: 200,
    envelope: 'merchant',
    response: Revoked,
    errors: { 400: 'tokens is not server or console', ...merchantToken },
  },
  admin_revoke_tokens: {
    name: 'admin_revoke_tokens',
    method: 'POST',
    path: '/merchant/admin/tokens/revoke',
    tag: 'studios',
    auth: adminOnly("admins revoke any console account's tokens"),
    summary: "Revoke any account's server tokens or console sessions (admin)",
    description: revokeText,
    body: AdminRevokeBody,
    status: 200,
    envelope: 'merchant',
    response: Revoked,
    errors: { 400: 'account_id or tokens malformed', ...merchantToken, 403: 'not an admin account' },
  },
} satisfies Record<string, OperationSpec>;
