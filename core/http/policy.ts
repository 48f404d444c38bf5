import { ownerOf, type OwnedKind } from '../access/owners.js';
import { freshPrincipalState, principalState, valueMovingState, type PrincipalState } from '../access/principals.js';
import { playerGone, rememberGone } from '../access/players.js';
import type { Deps } from '../deps.js';
import { httpError } from './errors.js';
import { merchantError } from '../merchants/errors.js';
import { accessError } from '../access/errors.js';
import { platformError } from '../platform/errors.js';
import { goneKey } from '../platform/players.js';
import { userLive } from '../partner-store/sessions.js';
import { storeUserKey } from '../partner-store/keys.js';
import { userGone } from '../partner-store/challenges.js';
import { type Item, type ItemKey, readItems } from '../platform/batch.js';
import type { TokenClaims } from '../platform/tokens.js';
import type { FieldRef, Method, Ownership, TokenRule } from './operation.js';
import { type AccountChecks, accountChecks, callerGoneChecked, goneReadFresh, namedGoneChecked, ownerCheck, selfChecked } from './policy-rules.js';

/** The validated input of a request, as the rules' field references name it. */
export interface PolicyInput {
  body?: unknown;
  query?: unknown;
  params?: unknown;
}

/** What the layer needs of an operation: its policy, its method (a write reads deletions fresh), what it reads first. */
export interface PolicedOperation {
  method: Method;
  auth: TokenRule;
  /** The items the handler reads first (operation.ts FirstReads): read in the layer's fresh batch when it makes one. */
  reads?: (request: PolicyInput & { idempotencyKey?: string }, caller: TokenClaims, deps: Deps) => ItemKey[];
}

/** The items the layer read ahead for the handler, at their keys (core/platform/batch.ts withItemsReadAhead). */
export interface ReadAhead {
  keys: ItemKey[];
  items: (Item | undefined)[];
}

/**
 * The one authorization layer: after the token's audience and role are verified (auth.ts) and the input is
 * validated, it enforces the operation's declared policy before the handler runs:
 * 1. a player token whose player deleted their account (`callerGoneChecked`) is 401: player tokens carry no
 *    revocation, so this is what ends them (but for the deletion's own retries, `whileDeleted`);
 * 2. a console or server token's account (`accountChecks`): revoked tokens are 401; a suspended merchant's
 *    tokens are 403, but for console reads declared `whileSuspended` and for admin operations (`role: admin`):
 *    those are the platform's, not the merchant's, so the suspension of a merchant the admin account owns does
 *    not lock the admin out (its merchant's own calls are still refused);
 * 3. every ownership rule (operation.ts `Ownership`; `ownerCheck`, `selfChecked` and `namedGoneChecked`,
 *    policy-rules.ts, say what each token kind is held to): a `self` field naming a deleted player is 404 for
 *    tokens that may name any user, so the handler never writes for a deleted player.
 * Deletions are read fresh for writes and value-moving calls, else as remembered for STATE_TTL_MS
 * (`goneReadFresh`). Every read here is of a fact remembered per process (owners), of the caller's own state or
 * of a deleted player's mark: nothing here touches an item inside a player's transaction. The reference's
 * sentences (policy-text.ts) and each operation's codes (operation-codes.ts) are made from the same functions,
 * so what readers are told is what runs.
 */
export async function enforcePolicy(
  deps: Deps,
  op: PolicedOperation,
  caller: TokenClaims,
  input: PolicyInput,
  idempotencyKey?: string,
): Promise<ReadAhead | undefined> {
  const rule = op.auth;
  const fresh = goneReadFresh(op.method, rule);
  // What the handler reads first, read with the layer's own fresh read when it makes one: one request, not two.
  const declared = () => op.reads?.({ ...input, idempotencyKey }, caller, deps) ?? [];
  let ahead: ReadAhead | undefined;
  if (callerGoneChecked(caller.kind, rule)) {
    const keys = fresh ? declared() : [];
    let gone: boolean;
    if (keys.length > 0) {
      const read = await readWith(deps, goneKey(caller.sub), keys);
      ahead = read.ahead;
      gone = rememberGone(deps, caller.sub, read.item);
    } else gone = await playerGone(deps, caller.sub, fresh);
    if (gone) throw httpError('auth.account_deleted', 'this player deleted their account');
  }
  if (caller.kind === 'store' && caller.store_token === 'session') {
    // A store session's user must still hold a store account (core/partner-store/bearer.ts): read fresh on every call.
    const read = await readWith(deps, storeUserKey(caller.sub), declared());
    if (!userLive(read.item)) throw userGone();
    ahead = read.ahead;
  }
  const account = accountChecks(rule, caller.kind);
  // The players the request names, when a value-moving call reads the account state: their marks ride in its BatchGet.
  const named = account?.fresh && namedGoneChecked(caller.kind) ? namedPlayers(rule, input) : [];
  const known = new Map<string, boolean>();
  if (account?.fresh) {
    const keys = declared();
    const read = await valueMovingState(deps, caller.sub, [...named.map(goneKey), ...keys]);
    for (const [i, uid] of named.entries()) known.set(uid, rememberGone(deps, uid, read.also[i]));
    if (keys.length > 0) ahead = { keys, items: read.also.slice(named.length) };
    // A remembered state refuses only once read again: a reactivated merchant is not refused on an old read.
    const again = read.remembered && accountRefusal(read.state, account, caller) !== undefined;
    checkAccountState(again ? (await freshPrincipalState(deps, caller.sub)).state : read.state, account, caller);
  } else if (account) checkAccountState(await principalState(deps, caller.sub), account, caller);
  for (const ownership of rule.owns) await checkOwnership(deps, ownership, caller, input, fresh, known);
  return ahead;
}

/** The item at `key`, read fresh, with the items at `keys` the handler reads first: one request, and what it read ahead. */
async function readWith(deps: Deps, key: ItemKey, keys: ItemKey[]): Promise<{ item: Item | undefined; ahead: ReadAhead | undefined }> {
  const [item, ...items] = await readItems(deps, [key, ...keys]);
  return { item, ahead: keys.length > 0 ? { keys, items } : undefined };
}

/** The players the request's `self` fields name. */
const namedPlayers = (rule: TokenRule, input: PolicyInput): string[] => [
  ...new Set(
    rule.owns
      .flatMap((ownership) => (ownership.rule === 'self' ? [valueAt(input, ownership.field)] : []))
      .filter((v) => v !== undefined)
      .map(String),
  ),
];

/** Why the account's state refuses the call, if it does: a revoked token (401) or a suspended merchant (403). */
function accountRefusal(state: PrincipalState, checks: AccountChecks, caller: TokenClaims): Error | undefined {
  const before = caller.kind === 'server' ? state.serverBefore : state.consoleBefore;
  if (before > 0 && (caller.iat ?? 0) * 1000 <= before) return httpError('auth.token_revoked', 'token has been revoked');
  // A server token revoked by its id (core/access/server-tokens.ts): its id is on the revocation item read above.
  if (caller.kind === 'server' && caller.jti !== undefined && state.serverRevoked.has(caller.jti))
    return httpError('auth.token_revoked', 'token has been revoked');
  if (state.suspended && checks.suspension) return merchantError('merchant.suspended', 'merchant is suspended');
  return undefined;
}

function checkAccountState(state: PrincipalState, checks: AccountChecks, caller: TokenClaims) {
  const refused = accountRefusal(state, checks, caller);
  if (refused) throw refused;
}

async function checkOwnership(deps: Deps, ownership: Ownership, caller: TokenClaims, input: PolicyInput, fresh: boolean, known: ReadonlyMap<string, boolean>) {
  switch (ownership.rule) {
    case 'own':
    case 'any':
    case 'record':
      return;
    case 'self': {
      const user = valueAt(input, ownership.field);
      if (user === undefined) return;
      if (selfChecked(caller.kind) && String(user) !== caller.sub) {
        throw accessError('auth.not_caller', `${nameOf(ownership.field)}: not the signed-in user`);
      }
      if (namedGoneChecked(caller.kind) && (known.get(String(user)) ?? (await playerGone(deps, String(user), fresh)))) {
        throw platformError('player.deleted', `${nameOf(ownership.field)}: this player deleted their account`);
      }
      return;
    }
    default: {
      const id = valueAt(input, ownership.field);
      if (id === undefined) return;
      const kind: OwnedKind = ownership.rule;
      const field = nameOf(ownership.field);
      const owner = await ownerOf(deps, kind, String(id));
      if (owner === undefined) throw accessError('access.not_found', `${field}: no ${kind} ${String(id)}`);
      const check = ownerCheck(kind, caller.kind);
      if (check === 'account' && owner !== caller.sub) throw accessError('access.other_owner', `${field}: ${kind} ${String(id)} belongs to another merchant`);
      if (check === 'game') {
        const game = caller.game_code === undefined ? undefined : await ownerOf(deps, 'game', caller.game_code);
        if (game !== owner) throw accessError('access.other_game', `${field}: project ${String(id)} is not of the game this token is for`);
      }
    }
  }
}

const nameOf = (field: FieldRef) => field.slice(field.indexOf('.') + 1);

function valueAt(input: PolicyInput, field: FieldRef): unknown {
  const [where, name] = [field.slice(0, field.indexOf('.')), nameOf(field)] as [keyof PolicyInput, string];
  const source = input[where];
  return source !== null && typeof source === 'object' && Object.hasOwn(source, name) ? (source as Record<string, unknown>)[name] : undefined;
}
