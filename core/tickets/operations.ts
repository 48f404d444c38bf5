import { randomUUID } from 'node:crypto';
import type { PlatformDeps } from '../platform/deps.js';
import { ticketError } from './errors.js';
import type { TokenClaims } from '../platform/tokens.js';
import { answerOf, idempotentRequest, transactOnce } from '../platform/idempotency.js';
import { idempotencyKeyOf } from '../platform/idempotency-key.js';
import { transactOrFailedConditions } from '../platform/transactions.js';
import { countInDay } from '../platform/day-stats.js';
import { balanceOf, balancesOf, debitItems } from './balances.js';

/**
 * A deduction, as minus_tickets' body (MinusTicketsBody in core/payments/models.ts, where the contract's schemas
 * are) parses to: declared here because tickets sit below payments.
 */
export interface MinusTickets {
  userId: string;
  projectName: string;
  level: number;
  amount: number;
}

/**
 * The user whose tickets a read is about: a player's own, or the `userId` a game server names. Who may read
 * whose tickets (the player themself; a server for projects of its merchant) is the route's policy, checked by
 * the authorization layer before the handler.
 */
function subjectOf(caller: TokenClaims, userId: string | undefined): string {
  if (caller.kind !== 'server') return caller.sub;
  if (userId === undefined) throw ticketError('tickets.server_needs_field', 'query.userId: required with a server token');
  return userId;
}

export async function ticketBalance(deps: PlatformDeps, caller: TokenClaims, query: { projectName: string; level: number; userId?: string }) {
  const userId = subjectOf(caller, query.userId);
  const target = { uid: userId, projectName: query.projectName, level: query.level };
  return { userId, projectName: query.projectName, level: query.level, balance: await balanceOf(deps, target) };
}

/** remainBalance: the sum of what is left over the user's levels (of one project if named). */
export async function remainingBalance(deps: PlatformDeps, caller: TokenClaims, query: { projectName?: string; userId?: string }) {
  const userId = subjectOf(caller, query.userId);
  if (caller.kind === 'server' && !query.projectName) throw ticketError('tickets.server_needs_field', 'query.projectName: required with a server token');
  const balances = await balancesOf(deps, userId, query.projectName);
  return { userId, total: balances.reduce((sum, b) => sum + b.balance, 0), balances };
}

/**
 * minus_tickets (docs/api.md, "Payments and tickets"): takes `amount` tickets in one TransactWriteItems whose
 * conditions keep the balance from going below zero (409 when short). A server token's merchant must own the project,
 * and a game token's user must be `userId`: the authorization layer checks both before the handler, never inside the
 * transaction (no shared item in a player's transaction: docs/data-model.md "Transactions and contention"). One
 * request: the TransactWriteItems (and on a retry, its cancellation answers).
 *
 * With an Idempotency-Key (core/platform/idempotency.ts) the key is the caller's, for this operation: the
 * transaction also puts the key's record, so a retry of the same request by the same caller deducts nothing
 * and answers the first answer (`minus#<key>`) from the cancelled transaction; the key reused by that caller
 * for another request is 422; the key of another caller is another key. The ledger entry is keyed by
 * (caller, key) in the user's partition (`minus#<caller>#<key>`): it outlives the record's expiry, so a
 * retry for the same user never deducts twice, however late.
 */
export async function minusTickets(deps: PlatformDeps, caller: TokenClaims, input: MinusTickets, idempotencyKey?: string) {
  // The route's policy (owns.self, owns.project) is enforced before the handler by the authorization layer
  // (core/http/policy.ts), from owners it remembers: the project item is neither read here nor checked in the
  // transaction. The player's own id is compared again here, at no cost.
  const key = idempotencyKeyOf(idempotencyKey);
  const target = { uid: input.userId, projectName: input.projectName, level: input.level };
  const short = () => ticketError('tickets.balance_short', `amount: the balance of ${input.projectName} level ${input.level} is less than ${input.amount}`);

  if (key === undefined) {
    const ref = `minus#${randomUUID()}`;
    const failed = await transactOrFailedConditions(deps, debitItems(deps, target, input.amount, ref));
    if (failed.length > 0) throw short();
    await spent(deps, input.amount);
    return ref;
  }

  const request = idempotentRequest(caller, 'minus_tickets', key, input);
  const answer = `minus#${key}`;
  const keyed = { caller: request.caller, key, fingerprint: request.fingerprint, answer };
  // Work items: 0 the balance, 1 the ledger entry. Keyed by the caller (the game's server or the player), the record
  // holds the fingerprint of a request naming the player: it joins that player's items (recordItem).
  const outcome = await transactOnce(deps, request, answer, debitItems(deps, target, input.amount, `minus#${request.caller}#${key}`, keyed), input.userId);
  if ('answer' in outcome) {
    // A replay answers the first request's answer and counts nothing again.
    if (!outcome.replayed) await spent(deps, input.amount);
    return outcome.answer;
  }
  // The key's record expired, but this caller's deduction for this user with this key was made: its entry answers.
  const entry = outcome.refused.find((failure) => failure.index === 1);
  if (entry?.item) return answerOf<string>(entry.item, request);
  throw short();
}

/** The stage overview's figures, after the deduction's transaction and outside it (core/platform/day-stats.ts). */
const spent = (deps: PlatformDeps, amount: number) => countInDay(deps, deps.now(), { tickets_spent: amount });
