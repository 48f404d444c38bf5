import { TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod/mini';
import { conditionalFailure } from '../platform/conditional-failure.js';
import type { PlatformDeps } from '../platform/deps.js';
import { logError } from '../platform/log.js';
import { describeError } from '../platform/loop.js';
import { retrying } from '../platform/retry.js';
import { ConcurrentChange, isWriteConflict, type TransactItem } from '../platform/transactions.js';
import { balanceKey, HeldEntry, ledgerItem, type StoredBalance, type StoredLedger, type TicketTarget } from './balances.js';

/**
 * Ledger entries held in the balance item. A deduction without an Idempotency-Key writes its entry into the
 * balance item itself, in the same UpdateItem that takes the tickets: one write of one item instead of a
 * transaction of two (a transaction is billed twice its items, and its entry would be an item of its own). The
 * balance then sums with its ledger at every moment, as before: it equals the changes of its ledger items plus
 * those of the entries it holds.
 *
 * Stored:
 * - the balance item (`USER#<uid>` `TICKETS#<project>#<level>`) holds `entries`, a list of {ref, change,
 *   created_at}, oldest first, and `pages`, how many pages it has moved out (a deletion deletes the balance on
 *   condition its entries are as read: core/platform/erase-round.ts);
 * - once it holds HOLD_MAX entries, the oldest PAGE_ENTRIES move into a page, a ledger item of their own:
 *   `LEDGER#page#<first entry's ref>`, ref `page#<first entry's ref>`, change the entries' sum, created_at the
 *   first entry's, and the entries themselves. Every reader that sums changes (a deletion's forfeits, the
 *   ledger's checks) reads a page as one entry; every reader that lists lines expands it (ledgerLinesOf).
 *
 * Why HOLD_MAX is twice PAGE_ENTRIES: the SDK sends an UpdateItem again when its answer was lost, and that
 * retry must not take twice. Its condition refuses it while the balance still holds the entry (`NOT contains`),
 * and the refusal's old item shows the entry there, so the retry answers success. An entry moves to a page
 * only once PAGE_ENTRIES newer entries were written after it, which a retry, sent within a second, does not
 * wait for.
 */
/** Entries a page holds. */
export const PAGE_ENTRIES = 8;
/** Entries held when the oldest PAGE_ENTRIES move into a page. */
export const HOLD_MAX = 2 * PAGE_ENTRIES;

/** The ref prefix of a page: its sort key is `LEDGER#page#<first entry's ref>`. */
export const PAGE_REF = 'page#';

/** The lines of a ledger item: a page's entries, or the entry itself. */
export function ledgerLinesOf({ entries, ...entry }: StoredLedger): StoredLedger[] {
  return entries === undefined ? [entry] : heldLinesOf({ ...entry, entries });
}

/** The lines of the entries a balance item holds (or a page), oldest first. */
export const heldLinesOf = ({ projectName, level, entries }: Pick<z.infer<typeof StoredBalance>, 'projectName' | 'level' | 'entries'>): StoredLedger[] =>
  (entries ?? []).map((entry) => ({ projectName, level, ...entry }));

/**
 * Takes `amount` tickets with the entry `ref` held in the balance item: one UpdateItem, refused when the balance
 * is short. Answers false when short; true when taken, including when the SDK's retry of a taken deduction
 * found its entry there. Moves a page out when the balance holds HOLD_MAX entries (movePage).
 */
export async function debitHeld(deps: PlatformDeps, target: TicketTarget, amount: number, ref: string): Promise<boolean> {
  const entry: HeldEntry = { ref, change: -amount, created_at: deps.now().toISOString() };
  const update = {
    TableName: deps.table,
    Key: balanceKey(target),
    UpdateExpression: 'SET balance = balance - :amount, updated_at = :now, entries = list_append(if_not_exists(entries, :none), :entry)',
    ConditionExpression: 'balance >= :amount AND NOT contains(entries, :held)',
    ExpressionAttributeValues: { ':amount': amount, ':now': entry.created_at, ':none': [], ':entry': [entry], ':held': entry },
    ReturnValues: 'UPDATED_NEW' as const,
    ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const,
  };
  const held = await retrying(
    async () => {
      try {
        const out = await deps.db.send(new UpdateCommand(update));
        return z.array(HeldEntry).parse(out.Attributes?.entries);
      } catch (error) {
        const refused = conditionalFailure(error);
        if (!refused) throw error;
        return z
          .optional(z.array(HeldEntry))
          .parse(refused.item?.entries)
          ?.some((stored) => stored.ref === ref)
          ? []
          : undefined;
      }
    },
    {
      retryOn: isWriteConflict,
      giveUp: () => {
        throw new ConcurrentChange(`amount: the balance of ${target.projectName} level ${target.level} changed concurrently; retry`);
      },
    },
  );
  if (held === undefined) return false;
  if (held.length >= HOLD_MAX) await movePage(deps, target, held.slice(0, PAGE_ENTRIES));
  return true;
}

/**
 * Moves the oldest held entries into a page: the balance loses them on condition it still holds them first, and
 * the page is written, in one transaction. Best effort: when it fails (another deduction moved them, or a
 * transaction in flight held the balance), the entries stay held and the next deduction that finds HOLD_MAX
 * moves them; the deduction already answered its tickets taken.
 */
async function movePage(deps: PlatformDeps, target: TicketTarget, entries: HeldEntry[]): Promise<void> {
  try {
    await deps.db.send(new TransactWriteCommand({ TransactItems: pageMoveItems(deps.table, target, entries) }));
  } catch (error) {
    // Cancelled: another deduction moved them, or a transaction held the balance. Anything else is worth a line.
    if ((error as { name?: unknown }).name === 'TransactionCanceledException') return;
    await logError('tickets: a page of held ledger entries was not moved; the next deduction moves it', { error: describeError(error) });
  }
}

/** The page move's transaction items (movePage). */
export function pageMoveItems(table: string, target: TicketTarget, entries: HeldEntry[]): TransactItem[] {
  const first = entries[0]!;
  return [
    {
      Update: {
        TableName: table,
        Key: balanceKey(target),
        UpdateExpression: `REMOVE ${entries.map((_, i) => `entries[${i}]`).join(', ')} SET pages = if_not_exists(pages, :zero) + :one`,
        ConditionExpression: 'entries[0].#ref = :first',
        ExpressionAttributeNames: { '#ref': 'ref' },
        ExpressionAttributeValues: { ':first': first.ref, ':zero': 0, ':one': 1 },
      },
    },
    { Put: { TableName: table, Item: pageItem(target, entries), ConditionExpression: 'attribute_not_exists(pk)' } },
  ];
}

/**
 * The page of `entries` (oldest first, at least one) in `target.uid`'s ledger: the page a move writes, or the one
 * a deletion keeps of the entries a forfeited balance held (core/tickets/items.ts).
 */
export function pageItem(target: TicketTarget, entries: HeldEntry[]): Record<string, unknown> {
  const first = entries[0]!;
  return ledgerItem({
    uid: target.uid,
    projectName: target.projectName,
    level: target.level,
    ref: `${PAGE_REF}${first.ref}`,
    change: entries.reduce((sum, entry) => sum + entry.change, 0),
    created_at: first.created_at,
    entries,
  });
}
