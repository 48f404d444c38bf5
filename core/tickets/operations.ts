import { randomUUID } from 'node:crypto';
import type { PlatformDeps } from '../platform/deps.js';
import { ticketError } from './errors.js';
import type { TokenClaims } from '../platform/tokens.js';
import { idempotentRequest, transactWithRecordIn } from '../platform/idempotency.js';
import { idempotencyKeyOf } from '../platform/idempotency-key.js';
import { balanceOf, balancesOf, debitItems, ledgerKey } from './balances.js';
import { debitHeld } from './held-ledger.js';

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
  // The ledger entries a balance item holds are not the answer's.
  const balances = (await balancesOf(deps, userId, query.projectName)).map(({ projectName, level, balance }) => ({ projectName, level, balance }));
  return { userId, total: balances.reduce((sum, b) => sum + b.balance, 0), balances };
}

/**
 * minus_tickets (docs/api.md, "Payments and tickets"): takes `amount` tickets from the balance, whose condition keeps
 * it from going below zero (409 when short). Without an Idempotency-Key, one UpdateItem of the balance, which holds
 * the ledger entry (held-ledger.ts; every PAGE_ENTRIES-th deduction or so also moves a page of them out); with
 * one, one TransactWriteItems of the balance and the ledger entry that is the key's record. A server token's
 * merchant must own the project, and a game token's user must be `userId`: the authorization layer checks both
 * before the handler, never inside the transaction (no shared item in a player's transaction: docs/data-model.md
 * "Transactions and contention"). The stage overview's count is made from the table's stream, off the request's
 * path (core/payments/day-figures.ts). One request: the UpdateItem or the TransactWriteItems (on a retry, its refusal answers).
 *
 * With an Idempotency-Key the ledger entry is the key's record: keyed by the caller and the key in the player's
 * partition (`LEDGER#minus#<caller>#<key>`), it holds the request's fingerprint and answer (`minus#<key>`), so a
 * retry of the same request by the same caller for the same player deducts nothing and answers the first answer
 * from the cancelled transaction, however late; the key reused by that caller for another amount, project or
 * level of that player is 422. The key's scope is (caller, operation, player): the key of another caller, or sent
 * for another player, is another key (docs/api.md "Idempotency-Key").
 */
export async function minusTickets(deps: PlatformDeps, caller: TokenClaims, input: MinusTickets, idempotencyKey?: string) {
  // The route's policy (owns.self, owns.project) is enforced before the handler by the authorization layer
  // (core/http/policy.ts), from owners it remembers: the project item is neither read here nor checked in the
  // transaction.
  const key = idempotencyKeyOf(idempotencyKey);
  const target = { uid: input.userId, projectName: input.projectName, level: input.level };
  const short = () => ticketError('tickets.balance_short', `amount: the balance of ${input.projectName} level ${input.level} is less than ${input.amount}`);

  if (key === undefined) {
    const ref = `minus#${randomUUID()}`;
    if (!(await debitHeld(deps, target, input.amount, ref))) throw short();
    return ref;
  }

  const request = idempotentRequest(caller, 'minus_tickets', key, input);
  const ref = `minus#${request.caller}#${key}`;
  const keyed = { caller: request.caller, key, fingerprint: request.fingerprint, answer: `minus#${key}` };
  // Work item 1, the ledger entry, is the key's record.
  const outcome = await transactWithRecordIn(deps, request, keyed.answer, debitItems(deps, target, input.amount, ref, keyed), 1, ledgerKey(input.userId, ref));
  if ('answer' in outcome) return outcome.answer;
  throw short();
}
