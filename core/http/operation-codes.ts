import type { OwnedKind } from '../access/owners.js';
import { statusOfCode, type ErrorCode } from './error-catalogue.js';
import type { OperationSpec } from './operation.js';
import { accountChecks, callerGoneChecked, namedGoneChecked, ownerCheck, selfChecked } from './policy-rules.js';

/**
 * The error codes an operation can answer, per status: what the HTTP layer answers for its spec (`layerCodesOf`)
 * and what its handler answers (the route table's `codes`). The OpenAPI document lists exactly these as the enum of
 * each error response's code, so a generated client can switch on them; test/error-answers.test.ts checks that the
 * codes the suite saw each operation answer are among them.
 */
export function codesOf(op: OperationSpec): ReadonlyMap<number, readonly ErrorCode[]> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of new Set([...layerCodesOf(op), ...(op.codes ?? [])])) {
    const status = statusOfCode.get(code)!;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return new Map([...byStatus].sort(([a], [b]) => a - b).map(([status, codes]) => [status, codes.sort()]));
}

/**
 * What the HTTP layer itself can answer for the operation, read from its spec the way core/http/app.ts, auth.ts and
 * policy.ts run it (and policy-text.ts `errorsOf` words it): its input's rules, its body's media type and size, its
 * token rule, the deleted players, account checks and ownership rules of its policy, the table's failures.
 * `route.not_found` (no operation) and `server.internal` (a fault) are nobody's in particular.
 */
export function layerCodesOf(op: OperationSpec): ErrorCode[] {
  const codes: ErrorCode[] = [];
  if (op.params || op.query || op.body) codes.push('input.invalid');
  if (op.body === 'multipart') codes.push('body.malformed', 'body.too_large');
  else if (op.body && op.bodyType === 'form') codes.push('body.too_large', 'body.unsupported_type');
  else if (op.body) codes.push('body.malformed', 'body.too_large', 'body.unsupported_type');
  if (op.headers?.['Idempotency-Key']) codes.push('idempotency.key_invalid');
  if (!op.tableFree) codes.push('table.busy');
  if (op.auth === 'open') return codes;
  const auth = op.auth;
  if (auth.store) {
    codes.push('store.token_missing', 'store.token_invalid');
    if (!auth.store.sessionOnly) codes.push(auth.store.client ? 'store.token_not_client' : 'store.token_not_user');
    if (auth.store.scope && !auth.store.sessionOnly) codes.push('store.scope_insufficient');
  } else {
    codes.push('auth.token_missing', 'auth.token_invalid', 'auth.token_expired');
    if (auth.role === 'admin') codes.push('auth.admin_only');
    if (Object.keys(auth.refused ?? {}).length > 0) codes.push('auth.kind_refused');
  }
  // Whether a player token's player deleted their account: a read of the table (its 503).
  if (auth.tokens.some((kind) => callerGoneChecked(kind, auth))) codes.push('auth.account_deleted', 'table.busy');
  const checks = auth.tokens.flatMap((kind) => accountChecks(auth, kind) ?? []);
  if (checks.length > 0) codes.push('auth.token_revoked', 'table.busy');
  if (checks.some((check) => check.suspension)) codes.push('merchant.suspended');
  for (const rule of auth.owns) {
    if (rule.rule === 'self' && auth.tokens.some(selfChecked)) codes.push('auth.not_caller');
    // A self field naming a deleted player, for the tokens that may name any user: a read of the table too.
    if (rule.rule === 'self' && auth.tokens.some(namedGoneChecked)) codes.push('player.deleted', 'table.busy');
    // Checked where the domain reads the record (core/access/records.ts), with the one answer for absent and another's.
    if (rule.rule === 'record') codes.push('access.not_found');
    if (rule.rule === 'project' || rule.rule === 'game' || rule.rule === 'goods') {
      const owners = new Set(auth.tokens.map((kind) => ownerCheck(rule.rule as OwnedKind, kind)));
      codes.push('access.not_found');
      if (owners.has('account')) codes.push('access.other_owner');
      if (owners.has('game')) codes.push('access.other_game');
    }
  }
  return codes;
}
