import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod/mini';
import { merchantKey } from '../merchants/keys.js';
import { revocationKey } from './keys.js';
import { MerchantStatus } from '../merchants/models.js';
import { readItems, type Item, type ItemKey } from '../platform/batch.js';
import type { PlatformDeps } from '../platform/deps.js';
import { conditionHeld } from '../platform/conditional-failure.js';
import { outlastRememberedStates, remember, VALUE_STATE_MS } from '../platform/process-memory.js';

/**
 * What the platform knows of a console account that holds merchant (console) or server (game server) tokens:
 * its merchant's status, and the instants before which its tokens are revoked. Both live beside the account:
 * - the merchant item `MERCHANT#<accountId>` (status);
 * - the revocation item `REVOKE#<accountId>`, sk `TOKENS`: `consoleBeforeMs` and `serverBeforeMs`, epoch
 *   milliseconds. A token issued at or before that instant is refused (401); one issued after it, even in the
 *   same second, is not (tokens carry their issue time to the millisecond: core/platform/tokens.ts). Items
 *   written before milliseconds were kept hold `consoleBefore` / `serverBefore` in seconds, read as the end of
 *   that second. Revoking never changes a key. The same item carries `serverRevoked`: the ids of the server
 *   tokens revoked one by one (server-tokens.ts), so checking a token against them costs no request of its own.
 * One BatchGet reads both (core/platform/batch.ts: read completely, or 503).
 *
 * Reads are remembered per process for STATE_TTL_MS. Operations that move value use a state read (strongly
 * consistent) in the last VALUE_STATE_MS only, and confirm a refusal with a fresh read; a suspension or revocation
 * answers once every such read before it has aged out (outlastRememberedStates), so from its answer value stops
 * moving, and everything else stops within STATE_TTL_MS (docs/security.md).
 */
export const STATE_TTL_MS = 60_000;

export interface PrincipalState {
  /** The account's merchant is suspended (status 2). An account without a merchant is not. */
  suspended: boolean;
  /** Epoch milliseconds: console tokens issued at or before it are revoked (0: none). */
  consoleBefore: number;
  /** Epoch milliseconds: server tokens issued at or before it are revoked (0: none). */
  serverBefore: number;
  /** The ids (`jti`) of server tokens revoked one by one, not yet expired (server-tokens.ts). */
  serverRevoked: ReadonlySet<string>;
}

/**
 * "a console account's revoked tokens" (revocationKey), as stored: the instants in epoch milliseconds, or in seconds on
 * items written before milliseconds were kept (both read), and the server tokens revoked one by one with the version
 * that orders their writes (server-tokens.ts). Each attribute is there once something of its kind was revoked.
 */
export const StoredRevocation = z.object({
  consoleBeforeMs: z.optional(z.int()),
  serverBeforeMs: z.optional(z.int()),
  consoleBefore: z.optional(z.int()),
  serverBefore: z.optional(z.int()),
  /** A revoked server token's id (`jti`) → its expiry, epoch seconds. */
  serverRevoked: z.optional(z.record(z.string(), z.int())),
  serverRevokedVersion: z.optional(z.int()),
});
type StoredRevocation = z.infer<typeof StoredRevocation>;

/** Per account: the state, when it was read on the deps' clock (for STATE_TTL_MS) and when its read was sent on this process's (for VALUE_STATE_MS). */
const remembered = new Map<string, { state: PrincipalState; at: number; sentAt: number }>();
const memoryKey = (deps: Pick<PlatformDeps, 'table'>, accountId: string) => `${deps.table}\u0000${accountId}`;

export async function principalState(deps: Pick<PlatformDeps, 'db' | 'table' | 'now'>, accountId: string): Promise<PrincipalState> {
  const cached = remembered.get(memoryKey(deps, accountId));
  if (cached && deps.now().getTime() - cached.at < STATE_TTL_MS) return cached.state;
  return (await freshPrincipalState(deps, accountId)).state;
}

/**
 * The account's state for a value-moving call, and the items at `also` read fresh. A state this process read in the
 * last VALUE_STATE_MS is used (`remembered`), and then only `also` is read, if anything; else the state is read fresh
 * with `also` in one BatchGet.
 */
export async function valueMovingState(
  deps: Pick<PlatformDeps, 'db' | 'table' | 'now'>,
  accountId: string,
  also: readonly ItemKey[],
): Promise<{ state: PrincipalState; also: (Item | undefined)[]; remembered: boolean }> {
  const cached = remembered.get(memoryKey(deps, accountId));
  if (cached && Date.now() - cached.sentAt < VALUE_STATE_MS) {
    return { state: cached.state, also: also.length > 0 ? await readItems(deps, also) : [], remembered: true };
  }
  return { ...(await freshPrincipalState(deps, accountId, also)), remembered: false };
}

/**
 * The account's state read fresh, with `also` (other items the caller needs fresh at the same moment, such as a
 * named player's gone mark) in the same BatchGet: one request instead of two.
 */
export async function freshPrincipalState(
  deps: Pick<PlatformDeps, 'db' | 'table' | 'now'>,
  accountId: string,
  also: readonly ItemKey[] = [],
): Promise<{ state: PrincipalState; also: (Item | undefined)[] }> {
  const sentAt = Date.now();
  const [merchant, item, ...others] = await readItems(deps, [merchantKey(accountId), revocationKey(accountId), ...also]);
  const revocation = revocationOf(item);
  const state: PrincipalState = {
    suspended: merchant?.status === MerchantStatus.suspended,
    consoleBefore: revokedBefore(revocation, 'console'),
    serverBefore: revokedBefore(revocation, 'server'),
    serverRevoked: new Set(Object.keys(revokedIds(revocation))),
  };
  remember(remembered, memoryKey(deps, accountId), { state, at: deps.now().getTime(), sentAt });
  return { state, also: others };
}

const revocationOf = (item: Item | undefined) => item && StoredRevocation.parse(item);

/**
 * What the revocation item says of server tokens: the all-at-once instant, the ids revoked one by one, and the
 * version of those ids (none before the first).
 */
export const principalStateOf = (item: Item | undefined) => {
  const revocation = revocationOf(item);
  return { serverBefore: revokedBefore(revocation, 'server'), ids: revokedIds(revocation), version: revocation?.serverRevokedVersion };
};

/**
 * The server tokens revoked one by one on the revocation item: `serverRevoked`, a map from the token's id (`jti`)
 * to its expiry (epoch seconds), so that a later revocation can drop the ids of tokens that have expired.
 */
function revokedIds(revocation: StoredRevocation | undefined): Record<string, number> {
  return revocation?.serverRevoked ?? {};
}

/** Drops what this process remembers of the account's state: its next call reads it (after a revocation made here). */
export function forgetPrincipalState(deps: Pick<PlatformDeps, 'table'>, accountId: string): void {
  remembered.delete(memoryKey(deps, accountId));
}

/** The revocation instant of `which` tokens in epoch milliseconds: the item's, or the end of its older seconds' value. */
function revokedBefore(revocation: StoredRevocation | undefined, which: 'console' | 'server'): number {
  const [ms = 0, seconds = 0] =
    which === 'console' ? [revocation?.consoleBeforeMs, revocation?.consoleBefore] : [revocation?.serverBeforeMs, revocation?.serverBefore];
  return Math.max(ms, seconds > 0 ? seconds * 1000 + 999 : 0);
}

/**
 * Revokes every token of `which` kind issued to the account up to now: console (merchant) tokens, or its
 * merchant's server tokens. Idempotent; a later revocation only moves the instant forward. Answers the
 * instant (epoch milliseconds).
 */
export async function revokeTokens(deps: Pick<PlatformDeps, 'db' | 'table' | 'now'>, accountId: string, which: 'console' | 'server'): Promise<number> {
  const before = deps.now().getTime();
  const field = which === 'console' ? 'consoleBeforeMs' : 'serverBeforeMs';
  await conditionHeld(
    deps.db.send(
      new UpdateCommand({
        TableName: deps.table,
        Key: revocationKey(accountId),
        UpdateExpression: 'SET #field = :before, #type = :type',
        ConditionExpression: 'attribute_not_exists(#field) OR #field < :before',
        ExpressionAttributeNames: { '#field': field, '#type': 'type' },
        ExpressionAttributeValues: { ':before': before, ':type': 'revocation' },
      }),
    ),
  );
  forgetPrincipalState(deps, accountId);
  await outlastRememberedStates();
  return before;
}
