import { adminOnly, consoleAuth, owns } from '../../core/http/auth.js';
import type { OperationSpec } from '../../core/http/operation.js';
import {
  AdminRevokeBody,
  PasswordChange,
  PasswordChanged,
  RevokeBody,
  Revoked,
  ServerTokenCreate,
  ServerTokenEntry,
  ServerTokenIssued,
  ServerTokenPage,
  ServerTokenQuery,
  ServerTokenRevokeBody,
} from '../../core/access/models.js';
import { batchRead, merchantToken } from './errors.js';

const revokeText =
  '`server` revokes every server token of the merchant issued up to now (a leaked game-server token); `console` every console session of the account. ' +
  'Every token of that set issued up to the revocation instant (`revoked_before`, to the millisecond) is refused; one issued after it, even in the same second, is not. No key changes. ' +
  'The answer comes a second after the write, once no process moves value on what it read before: from the answer on, every value-moving call refuses those tokens.';

/** Token revocation, named server tokens and password changes (docs/security.md), console operations of the inner group. */
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
  server_token_issue: {
    name: 'server_token_issue',
    method: 'POST',
    path: '/merchant/tokens',
    tag: 'studios',
    auth: consoleAuth([owns.own]),
    summary: "Issue a named server token for the caller's merchant",
    description:
      'As get_token, with a name (the game server or stage it is for) and an `id`, by which the token is listed (server_token_list) and revoked alone (server_token_revoke). ' +
      'The token is answered this once; the list never shows it.',
    body: ServerTokenCreate,
    status: 200,
    envelope: 'merchant',
    response: ServerTokenIssued,
    errors: {
      400: 'name is missing, empty, longer than 64 characters or has control characters',
      ...merchantToken,
      403: 'the merchant is suspended',
      404: 'the account has no merchant yet',
    },
    codes: ['merchant.none'],
  },
  server_token_list: {
    name: 'server_token_list',
    method: 'GET',
    path: '/merchant/tokens',
    tag: 'studios',
    auth: consoleAuth([owns.own], { whileSuspended: true }),
    summary: "The caller's live server tokens, newest first",
    description:
      'Every server token of the merchant that has not expired, get_token\'s included (named ""): name, id, issue and expiry times, and whether it is revoked ' +
      '(by its id, or by a revocation of all the server tokens made after it was issued). Never the token itself. 50 a page; `next` is the cursor of the page after (null on the last).',
    query: ServerTokenQuery,
    status: 200,
    envelope: 'merchant',
    response: ServerTokenPage,
    errors: { 400: 'cursor is not the `next` of a previous page of this read', ...merchantToken },
  },
  server_token_revoke: {
    name: 'server_token_revoke',
    method: 'POST',
    path: '/merchant/tokens/server/revoke',
    tag: 'studios',
    auth: consoleAuth([owns.own], { whileSuspended: true }),
    summary: "Revoke one of the caller's server tokens, by its id",
    description:
      'The token is refused (401 `auth.token_revoked`) from the answer on by every value-moving call (minus_tickets, addWin, rewards …): the answer comes a second after the write, once no process uses revocations read before it; ' +
      "and by other calls within 60 seconds; the merchant's other server tokens keep working. Revoking a revoked token answers the same and writes nothing. " +
      'At most 1,000 revoked tokens that have not expired yet are kept per merchant (409 past it: revoke them all at once with revoke_tokens).',
    body: ServerTokenRevokeBody,
    status: 200,
    envelope: 'merchant',
    response: ServerTokenEntry,
    errors: {
      400: 'id is missing or not a server token id',
      ...merchantToken,
      404: "no live server token of the caller's merchant has this id",
      409: 'the merchant keeps 1,000 revoked server tokens that have not expired, or concurrent revocations kept colliding',
    },
    codes: ['access.not_found', 'access.too_many_revoked', 'data.changed_concurrently'],
  },
  change_password: {
    name: 'change_password',
    method: 'POST',
    path: '/merchant/account/password',
    tag: 'studios',
    auth: consoleAuth([owns.own], { whileSuspended: true }),
    summary: "Change the caller's console password",
    description:
      'The current password and the new one (at least 8 characters, as an account is created with). The current password is checked like a sign-in, under the login throttle ' +
      '(docs/security.md "Login throttling"): a wrong one is 403 `account.password_wrong` and counts as a failed sign-in, and past the back-off the answer is 429. ' +
      'On success the new hash is written and every console session of the account issued up to the change, the one that made it included, is revoked, in one transaction; ' +
      'the answer is a new console session.',
    body: PasswordChange,
    status: 200,
    envelope: 'merchant',
    response: PasswordChanged,
    errors: {
      400: 'current_password or new_password missing, or new_password shorter than 8 characters',
      ...merchantToken,
      403: 'the current password is wrong',
      409: 'the password was changed concurrently',
      429: 'too many failed sign-ins or password checks to this account from this address; Retry-After says when to try again',
      ...batchRead,
    },
    codes: ['account.password_wrong', 'account.sign_in_contended', 'account.sign_in_throttled', 'data.changed_concurrently'],
  },
} satisfies Record<string, OperationSpec>;
