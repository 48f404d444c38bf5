import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod/mini';
import type { PlatformDeps } from '../platform/deps.js';
import { ticketError } from './errors.js';
import { isNotGoneCheck, isPseudonym, notGoneCheck } from '../platform/players.js';
import type { TransactItem } from '../platform/transactions.js';
import { userPartition } from '../identity/keys.js';

/**
 * Ticket balances: integers per (user, project, level), changed only by condition expressions inside
 * transactions, each change with a ledger entry whose key makes it happen once (an order, an
 * Idempotency-Key, a goods order). Access patterns:
 * - "balance of a user in a project level": pk `USER#<uid>`, sk `TICKETS#<project>#<level>`;
 * - "all balances of a user": the same partition, sk begins_with `TICKETS#`;
 * - "ledger entry": pk `USER#<uid>`, sk `LEDGER#<ref>` (ref: `grant#merchant:<accountId>#<Idempotency-Key>`, `order#<id>`, `minus#<caller>#<Idempotency-Key>` or `minus#<random id>`, `goods#<id>`, `reward#<billNo>`, `hero-upgrade#<id>#<price level>`, …).
 */
export interface TicketTarget {
  uid: string;
  projectName: string;
  level: number;
}

/** A ledger entry held in the balance item, or in a page of them (held-ledger.ts). */
export const HeldEntry = z.object({ ref: z.string(), change: z.int(), created_at: z.string() });
export type HeldEntry = z.infer<typeof HeldEntry>;

/**
 * "balance of a user in a project level", "all balances of a user" (balanceKey): the balance item, with the
 * ledger entries it holds (held-ledger.ts).
 */
export const StoredBalance = z.object({ projectName: z.string(), level: z.number(), balance: z.number(), entries: z.optional(z.array(HeldEntry)) });
export const storedBalance = (item: Record<string, unknown>) => StoredBalance.parse(item);

/** Sort key prefixes of the balances and the ledger entries in a player's partition. */
export const BALANCE_PREFIX = 'TICKETS#';
export const LEDGER_PREFIX = 'LEDGER#';
/** The first sort key past every ledger entry's (`$` follows `#`): what a read of the partition less its ledger starts again at. */
export const LEDGER_END = 'LEDGER$';

export const balanceKey = ({ uid, projectName, level }: TicketTarget) => ({ pk: userPartition(uid), sk: `${BALANCE_PREFIX}${projectName}#${level}` });
export const ledgerKey = (uid: string, ref: string) => ({ pk: userPartition(uid), sk: `${LEDGER_PREFIX}${ref}` });

export interface LedgerEntry extends TicketTarget {
  ref: string;
  /** Positive for credits, negative for debits. */
  change: number;
  created_at: string;
  /** For a change made under an Idempotency-Key (core/platform/idempotency.ts): the key's caller and key, */
  caller?: string;
  key?: string;
  /** the request's fingerprint, so that the key reused for another request is refused, */
  fingerprint?: string;
  /**
   * and what the change answered, for retries: a text, which the table keeps byte for byte (a map would come
   * back with its keys reordered: such an answer is kept as core/platform/kept-answers.ts keeps it).
   */
  answer?: string;
  /** or, for an answer that is a record, its JSON text (core/platform/kept-answers.ts keptAnswer). */
  answer_json?: string;
  /** A studio's grant or take-back (grants.ts): why, and the console account that made it. */
  reason?: string;
  granted_by?: string;
}

/**
 * Transaction items that add `amount` tickets once (the ledger entry `ref` must not exist yet), and only while the
 * player has not deleted their account (the last item, a notGoneCheck: `creditRefusedAsGone` tells that refusal
 * apart). A deleted player's balances are forfeited, so nothing is credited to them from their deletion's start,
 * nor ever to the pseudonym their kept orders name (`playerDeleted`, before anything is sent).
 */
export function creditItems(deps: PlatformDeps, target: TicketTarget, amount: number, ref: string, extra: Partial<LedgerEntry> = {}): TransactItem[] {
  if (isPseudonym(target.uid)) throw playerDeleted('user_id');
  const now = deps.now().toISOString();
  return [
    {
      Update: {
        TableName: deps.table,
        Key: balanceKey(target),
        UpdateExpression: 'ADD balance :amount SET projectName = :project, #level = :level, updated_at = :now, #type = :type',
        ExpressionAttributeNames: { '#level': 'level', '#type': 'type' },
        ExpressionAttributeValues: { ':amount': amount, ':project': target.projectName, ':level': target.level, ':now': now, ':type': 'tickets' },
      },
    },
    ledgerPut(deps, target, amount, ref, now, extra),
    notGoneCheck(deps.table, target.uid),
  ];
}

/** Whether a refused transaction holding creditItems was refused because the credited player's deletion had started. */
export const creditRefusedAsGone = (items: TransactItem[], failed: number[]) => failed.some((index) => isNotGoneCheck(items[index]));

/** The 409 of a credit to a player who deleted their account; `whose` names what named the player (the message's field). */
export const playerDeleted = (whose: string, instead = '') =>
  ticketError('tickets.player_deleted', `${whose}: the player deleted their account (their balances are forfeited), so nothing is credited${instead}`);

/**
 * Transaction items that take `amount` tickets once: the balance's condition keeps it from going below zero
 * (item 0 fails when short), the ledger entry's keeps a retried request from taking twice (item 1 fails).
 */
export function debitItems(deps: PlatformDeps, target: TicketTarget, amount: number, ref: string, extra: Partial<LedgerEntry> = {}): TransactItem[] {
  const now = deps.now().toISOString();
  return [
    {
      Update: {
        TableName: deps.table,
        Key: balanceKey(target),
        UpdateExpression: 'SET balance = balance - :amount, updated_at = :now',
        ConditionExpression: 'balance >= :amount',
        ExpressionAttributeValues: { ':amount': amount, ':now': now },
      },
    },
    ledgerPut(deps, target, -amount, ref, now, extra),
  ];
}

/** The ledger item of an entry (its key in `entry.uid`'s ledger, its type, the entry): the shape every writer of one uses. */
export const ledgerItem = <Entry extends LedgerEntry>(entry: Entry) => ({ ...ledgerKey(entry.uid, entry.ref), type: 'ledger', ...entry });

function ledgerPut(deps: PlatformDeps, target: TicketTarget, change: number, ref: string, now: string, extra: Partial<LedgerEntry>): TransactItem {
  return {
    Put: {
      TableName: deps.table,
      Item: ledgerItem({ ...target, ref, change, created_at: now, ...extra }),
      ConditionExpression: 'attribute_not_exists(pk)',
      // A retried change is answered from the entry that made it, with no read.
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    },
  };
}

export async function balanceOf(deps: PlatformDeps, target: TicketTarget): Promise<number> {
  const out = await deps.db.send(new GetCommand({ TableName: deps.table, Key: balanceKey(target), ConsistentRead: true }));
  return Number(out.Item?.balance ?? 0);
}

/** Every balance of a user (one Query), optionally of one project. */
export async function balancesOf(deps: PlatformDeps, uid: string, projectName?: string) {
  const out = await deps.db.send(
    new QueryCommand({
      TableName: deps.table,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': userPartition(uid), ':prefix': projectName ? `${BALANCE_PREFIX}${projectName}#` : BALANCE_PREFIX },
      ConsistentRead: true,
    }),
  );
  return (out.Items ?? []).map(storedBalance);
}

/** A stored ledger entry, as a studio's view of a player reads it (ledger-page.ts). */
export const StoredLedger = z.object({
  ref: z.string(),
  projectName: z.string(),
  level: z.number(),
  change: z.number(),
  created_at: z.string(),
  reason: z.optional(z.string()),
  granted_by: z.optional(z.string()),
  balance_after: z.optional(z.number()),
  /** A page's entries (held-ledger.ts): the page's change is their sum. */
  entries: z.optional(z.array(HeldEntry)),
});
export type StoredLedger = z.infer<typeof StoredLedger>;
