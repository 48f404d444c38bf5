import type { OwnedKind } from '../access/owners.js';
import type { TokenKind } from '../platform/tokens.js';
import type { Method, TokenRule } from './operation.js';

/**
 * What each token kind is held to, as functions of the operation's rule alone (and its method, for how fresh a
 * deletion is read): the policy layer (policy.ts) enforces them, and the reference's sentences (policy-text.ts)
 * and each operation's error codes (operation-codes.ts) are made from them. Kept apart from the layer's reads,
 * so the reference can be built without loading the table's client.
 */

/** What the layer reads of the account behind a token: its revocations (always), its merchant's suspension. */
export interface AccountChecks {
  /** The state may be VALUE_STATE_MS old and is read again before it refuses (value-moving operations), else STATE_TTL_MS. */
  readonly fresh: boolean;
  /** A suspended merchant's token is refused (403). */
  readonly suspension: boolean;
}

/**
 * The account checks for a caller of `kind` under `rule`; undefined for player tokens, which carry no account
 * state (they are short-lived instead, docs/security.md).
 */
export function accountChecks(rule: TokenRule, kind: TokenKind): AccountChecks | undefined {
  if (kind !== 'merchant' && kind !== 'server') return undefined;
  const exempt = rule.role === 'admin' || (kind === 'merchant' && rule.whileSuspended === true);
  return { fresh: rule.movesValue === true, suspension: !exempt };
}

const PLAYER_KINDS: ReadonlySet<TokenKind> = new Set(['platform', 'game', 'hero', 'store']);

/** A `self` field binds a player token to its subject; a console or server token may name any user. */
export const selfChecked = (kind: TokenKind): boolean => PLAYER_KINDS.has(kind);

/**
 * The tokens a player's deletion refuses: their subject is a platform player's uid. Store tokens are the partner
 * store's own users, whom a platform deletion does not reach.
 */
const PLATFORM_PLAYER_KINDS: ReadonlySet<TokenKind> = new Set(['platform', 'game', 'hero']);

/** A token of `kind` is refused (401) when its subject deleted their account, but where the rule is `whileDeleted`. */
export const callerGoneChecked = (kind: TokenKind, rule: TokenRule): boolean => PLATFORM_PLAYER_KINDS.has(kind) && rule.whileDeleted !== true;

/**
 * A `self` field naming a deleted player is refused (404) for a token of `kind` the self rule does not bind to its
 * subject (console, server); for a player token the field is the caller, whom `callerGoneChecked` covers.
 */
export const namedGoneChecked = (kind: TokenKind): boolean => !selfChecked(kind);

/**
 * Whether a player is deleted is read fresh for calls that write or move value, so those stop at once after a
 * deletion; reads (GET) may use what the process read in the last STATE_TTL_MS (core/access/players.ts).
 */
export const goneReadFresh = (method: Method, rule: TokenRule): boolean => rule.movesValue === true || method !== 'GET';

/**
 * What a `project`, `game` or `goods` rule holds a caller of `kind` to, beyond the item existing (404):
 * `account`, the caller's own merchant's (merchant and server tokens); `game`, a project of the merchant of the
 * game token's game; `exists`, nothing more (a player buys in any merchant's project).
 */
export type OwnerCheck = 'account' | 'game' | 'exists';

export function ownerCheck(rule: OwnedKind, kind: TokenKind): OwnerCheck {
  if (kind === 'merchant' || kind === 'server') return 'account';
  if (kind === 'game' && rule === 'project') return 'game';
  return 'exists';
}
