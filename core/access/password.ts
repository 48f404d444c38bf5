import { checkCurrentPassword, passwordChange, signedIn } from '../merchants/accounts.js';
import type { PlatformDeps } from '../platform/deps.js';
import { merchantError } from '../merchants/errors.js';
import type { TokenClaims } from '../platform/tokens.js';
import { ConcurrentChange, transactOrFailedConditions } from '../platform/transactions.js';
import { outlastRememberedStates } from '../platform/process-memory.js';
import { revocationKey } from './keys.js';
import { forgetPrincipalState } from './principals.js';

/**
 * A console account changes its own password (docs/security.md "Changing a console password"). The current
 * password is checked under the login throttle (a wrong one is 403 and counts as a failed sign-in; nothing else is
 * written). Then one transaction writes the new hash, on condition that the stored hash is still the one checked,
 * and moves the account's console revocation instant (`consoleBeforeMs`, principals.ts) to now: every console
 * session issued up to the change, the caller's included, is refused from then on. The answer is a new session,
 * issued after that instant, so the console keeps working.
 */
export async function changePassword(deps: PlatformDeps, caller: TokenClaims, body: { current_password: string; new_password: string }) {
  // A console session names its account's email (merchant_login issues it so); a session without one has no password to check.
  if (!caller.email) throw merchantError('account.password_wrong', 'current_password: this session names no account email; sign in again');
  const account = await checkCurrentPassword(deps, caller.sub, caller.email, body.current_password);
  const before = deps.now().getTime();
  const failed = await transactOrFailedConditions(deps, [
    await passwordChange(deps, account, body.new_password),
    {
      Update: {
        TableName: deps.table,
        Key: revocationKey(caller.sub),
        UpdateExpression: 'SET consoleBeforeMs = :before, #type = :type',
        ExpressionAttributeNames: { '#type': 'type' },
        ExpressionAttributeValues: { ':before': before, ':type': 'revocation' },
      },
    },
  ]);
  if (failed.length > 0) throw new ConcurrentChange('the password was changed concurrently; sign in again with the password now set');
  forgetPrincipalState(deps, caller.sub);
  // From the answer, no process moves value on a state read before the revocation; the new session is then issued
  // after the revocation instant too (tokens carry their issue time to the millisecond).
  await outlastRememberedStates();
  return { ...(await signedIn(deps, account)), sessions_revoked_before: new Date(before).toISOString() };
}
