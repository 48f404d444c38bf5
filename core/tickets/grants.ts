import type { PlatformDeps } from '../platform/deps.js';
import { platformError } from '../platform/errors.js';
import { idempotentRequest, transactWithRecordIn } from '../platform/idempotency.js';
import { idempotencyKeyOf } from '../platform/idempotency-key.js';
import type { TokenClaims } from '../platform/tokens.js';
import { creditItems, debitItems, ledgerKey, playerDeleted } from './balances.js';
import { ticketError } from './errors.js';

/** A studio's grant (amount > 0) or take-back (amount < 0) of one player's tickets, with its reason. */
export interface TicketGrantInput {
  userId: string;
  projectName: string;
  level: number;
  amount: number;
  reason: string;
}

/** What the grant answers, and a retry with its key answers again (kept on the ledger entry as its JSON text). */
export interface TicketGrantAnswer {
  ref: string;
  userId: string;
  projectName: string;
  level: number;
  amount: number;
  reason: string;
  granted_by: string;
  created_at: string;
}

/**
 * player_tickets_grant (docs/api.md "Studios: a player's tickets"): one TransactWriteItems in the player's own
 * partition, as minus_tickets' keyed deduction is made:
 * - a grant: the balance `ADD` + the ledger entry (on condition absent) + the player's gone mark checked absent
 *   (balances.ts creditItems: 3 items, 6 write units);
 * - a take-back: the balance `SET balance = balance - n` on condition `balance >= n` + the ledger entry (on
 *   condition absent) (balances.ts debitItems: 2 items, 4 write units).
 * The ledger entry `grant#merchant:<accountId>#<Idempotency-Key>` is the key's record (transactWithRecordIn): it
 * holds the request's fingerprint and the answer, with the reason and the console account that granted. The same
 * key and request again writes nothing and answers the first answer; the key with another request is 422
 * (`idempotency.key_reused`); the key is required (400 without it). The project's owner, the level and the player's
 * account are checked before (the authorization layer; the caller's reads), never in the transaction: no item
 * another player's transaction includes is in it (docs/data-model.md "Transactions and contention").
 */
export async function grantTickets(
  deps: PlatformDeps,
  caller: TokenClaims,
  input: TicketGrantInput,
  idempotencyKey: string | undefined,
): Promise<TicketGrantAnswer> {
  const key = idempotencyKeyOf(idempotencyKey);
  if (key === undefined) {
    throw platformError('idempotency.key_invalid', 'Idempotency-Key: required: send one key per grant (1-128 of [A-Za-z0-9_.:-]), the same key on its retries');
  }
  const request = idempotentRequest(caller, 'player_tickets_grant', key, input);
  const ref = `grant#${request.caller}#${key}`;
  const target = { uid: input.userId, projectName: input.projectName, level: input.level };
  const answer: TicketGrantAnswer = {
    ref: `grant#${key}`,
    userId: input.userId,
    projectName: input.projectName,
    level: input.level,
    amount: input.amount,
    reason: input.reason,
    granted_by: caller.sub,
    created_at: deps.now().toISOString(),
  };
  const keyed = {
    caller: request.caller,
    key,
    fingerprint: request.fingerprint,
    answer_json: JSON.stringify(answer),
    reason: input.reason,
    granted_by: caller.sub,
  };
  const work = input.amount > 0 ? creditItems(deps, target, input.amount, ref, keyed) : debitItems(deps, target, -input.amount, ref, keyed);
  // Work item 1, the ledger entry, is the key's record.
  const outcome = await transactWithRecordIn(deps, request, answer, work, 1, ledgerKey(input.userId, ref));
  if ('answer' in outcome) return outcome.answer;
  // A credit's one other condition is the player's gone mark (their deletion started since the policy's read); a
  // take-back's, the balance.
  if (input.amount > 0) throw playerDeleted('userId');
  throw ticketError('tickets.balance_short', `amount: the balance of ${input.projectName} level ${input.level} is less than ${-input.amount}`);
}
