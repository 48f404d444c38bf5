import { ownerOf, type OwnedKind } from '../access/owners.js';
import { principalState } from '../access/principals.js';
import type { Deps } from '../platform/deps.js';
import { forbidden, notFound, unauthorized } from '../platform/errors.js';
import type { TokenClaims } from '../platform/tokens.js';
import type { FieldRef, Ownership, TokenRule } from './operation.js';

/** The validated input of a request, as the rules' field references name it. */
export interface PolicyInput {
  body?: unknown;
  query?: unknown;
  params?: unknown;
}

/**
 * The one authorization layer: after the token's audience and role are verified (auth.ts) and the input is
 * validated, it enforces the operation's declared policy before the handler runs:
 * 1. a console or server token's account: revoked tokens are 401; a suspended merchant's tokens are 403, but
 *    for console reads declared `whileSuspended`;
 * 2. every ownership rule (operation.ts `Ownership`).
 * Every read here is of a fact remembered per process (owners) or of the caller's own state: nothing here
 * touches an item inside a player's transaction.
 */
export async function enforcePolicy(deps: Deps, rule: TokenRule, caller: TokenClaims, input: PolicyInput): Promise<void> {
  if (caller.kind === 'merchant' || caller.kind === 'server') await checkAccountState(deps, rule, caller);
  for (const ownership of rule.owns) await checkOwnership(deps, ownership, caller, input);
}

async function checkAccountState(deps: Deps, rule: TokenRule, caller: TokenClaims) {
  // Value-moving calls read the account's state fresh; others may use the state remembered for STATE_TTL_MS.
  const state = await principalState(deps, caller.sub, rule.movesValue === true);
  const before = caller.kind === 'server' ? state.serverBefore : state.consoleBefore;
  if (before > 0 && (caller.iat ?? 0) <= before) throw unauthorized('token has been revoked');
  if (!state.suspended) return;
  if (caller.kind === 'merchant' && rule.whileSuspended) return;
  throw forbidden('merchant is suspended');
}

const PLAYER_KINDS = new Set(['platform', 'game', 'hero', 'store']);

async function checkOwnership(deps: Deps, ownership: Ownership, caller: TokenClaims, input: PolicyInput) {
  switch (ownership.rule) {
    case 'own':
    case 'any':
    case 'record':
      return;
    case 'self': {
      const user = valueAt(input, ownership.field);
      if (user !== undefined && PLAYER_KINDS.has(caller.kind) && String(user) !== caller.sub) {
        throw forbidden(`${nameOf(ownership.field)}: not the signed-in user`);
      }
      return;
    }
    default: {
      const id = valueAt(input, ownership.field);
      if (id === undefined) return;
      const kind: OwnedKind = ownership.rule;
      const field = nameOf(ownership.field);
      const owner = await ownerOf(deps, kind, String(id));
      if (owner === undefined) throw notFound(`${field}: no ${kind} ${String(id)}`);
      if (caller.kind === 'merchant' || caller.kind === 'server') {
        if (owner !== caller.sub) throw forbidden(`${field}: ${kind} ${String(id)} belongs to another merchant`);
      } else if (caller.kind === 'game' && kind === 'project') {
        const game = caller.game_code === undefined ? undefined : await ownerOf(deps, 'game', caller.game_code);
        if (game !== owner) throw forbidden(`${field}: project ${String(id)} is not of the game this token is for`);
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
