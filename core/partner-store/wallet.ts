import * as z from 'zod/mini';
import { readItems } from '../platform/batch.js';
import type { PartnerStoreDeps } from './deps.js';
import { storeError } from './errors.js';
import { answerOf, fingerprintOf, referenceReused } from '../platform/idempotency.js';
import { answerTextOf, eitherForm, keptAnswer } from '../platform/kept-answers.js';
import { isPseudonym } from '../platform/players.js';
import { queryItems } from '../platform/query.js';
import { ConcurrentChange, transactOrFailures, type TransactItem } from '../platform/transactions.js';
import { objectOf } from '../shared/records.js';
import { type GrantBody, GrantResult } from './models.js';
import type { StoreRegion } from './regions.js';
import { liveUserCheck, StoredUser, userLive } from './sessions.js';
import { storeUserKey, BALANCE_PREFIX, balanceKey, type Holding, storeLedgerKey, storePartition, grantKey } from './keys.js';

/**
 * A store user's currencies and items (docs/api.md, "Partner store: currencies, items and pets": currencies_list,
 * premium-currencies-balance, balances_item_balance, and the partner's grants). Balances are integers in the user's
 * partition, changed only by conditional writes inside transactions, each change with a ledger entry whose key makes
 * it happen once; never below zero. Access patterns:
 * - "a balance": pk `STOREUSER#<uid>`, sk `BAL#currency#<code>` or `BAL#item#<code>`;
 * - "a user's item balances": the same partition, sk begins_with `BAL#item#`;
 * - "a ledger entry": the same partition, sk `LEDGER#<ref>`;
 * - "a partner's grant, once per reference": pk `STOREGRANT#<client_id>#<reference>`, sk `STOREGRANT` (kept). Its
 *   ledger entries' `ref` (`grant#<client_id>#<reference>`) leads to it from the user: that is how the user's
 *   deletion finds it, and keeps it with the user's uid replaced by the deletion's pseudonym.
 */
export const CURRENCIES = [
  { code: 'coin', kind: 'soft', name: 'Coins' },
  { code: 'gem', kind: 'premium', name: 'Gems' },
] as const;
export const PREMIUM = 'gem';

/** currencies_list: the store's currencies (a copy: the list itself is never handed out). */
export const currencies = () => ({ currencies: CURRENCIES.map((currency) => ({ ...currency })) });

/** Items a user can hold; food feeds pets (the experience each gives). */
export const ITEMS = [
  { code: 'kibble', kind: 'food', name: 'Kibble', experience: 10 },
  { code: 'fish', kind: 'food', name: 'Fish', experience: 25 },
  { code: 'cake', kind: 'food', name: 'Cake', experience: 60 },
] as const;

/** "a balance" (balanceKey) as stored: an integer, never below zero; the item is made by the first credit. */
export const StoredBalance = z.object({ balance: z.int() });

/** One change of one holding, as a ledger entry records it. */
const LedgerChange = z.object({ holding: z.enum(['currency', 'item']), code: z.string(), change: z.int() });

/**
 * "a ledger entry" (storeLedgerKey) of one holding, as stored: its change and the ref that makes it once. A user's
 * deletion moves the entries under its pseudonym (the uid in them replaced), with a forfeit entry of each balance.
 */
export const StoredLedgerChange = z.extend(LedgerChange, { ref: z.string() });

/**
 * "a ledger entry" as stored: one holding's change, or a partner's grant, which records every holding it changed
 * in one entry (`changes`), so that a grant writes one entry however many holdings it credits. Grants made before
 * wrote an entry per holding (`<ref>#<holding>#<code>`), which stay as they are.
 */
export const StoredLedgerEntry = z.union([StoredLedgerChange, z.object({ changes: z.array(LedgerChange), ref: z.string() })]);

/** A balance's update adding `amount` (negative: taking, on condition the balance covers it). */
function balanceChange(deps: Pick<PartnerStoreDeps, 'table'>, uid: string, holding: Holding, code: string, amount: number, now: string): TransactItem {
  return amount >= 0
    ? {
        Update: {
          TableName: deps.table,
          Key: balanceKey(uid, holding, code),
          UpdateExpression: 'ADD balance :n SET updated_at = :now',
          ExpressionAttributeValues: { ':n': amount, ':now': now },
        },
      }
    : {
        Update: {
          TableName: deps.table,
          Key: balanceKey(uid, holding, code),
          UpdateExpression: 'SET balance = balance - :n, updated_at = :now',
          ConditionExpression: 'balance >= :n',
          ExpressionAttributeValues: { ':n': -amount, ':now': now },
        },
      };
}

/** A new ledger entry (`fields`: one change, or a grant's `changes`) at `key`, written once (its key is new). */
const ledgerPut = (
  deps: Pick<PartnerStoreDeps, 'table'>,
  uid: string,
  key: string,
  ref: string,
  fields: Record<string, unknown>,
  now: string,
): TransactItem => ({
  Put: {
    TableName: deps.table,
    Item: { ...storeLedgerKey(uid, key), type: 'store_ledger', uid, ...fields, ref, created_at: now },
    ConditionExpression: 'attribute_not_exists(pk)',
  },
});

/** Transaction items adding `amount` (negative: taking, on condition the balance covers it) with its ledger entry. */
export function changeItems(
  deps: Pick<PartnerStoreDeps, 'table' | 'now'>,
  uid: string,
  holding: Holding,
  code: string,
  amount: number,
  ref: string,
): TransactItem[] {
  const now = deps.now().toISOString();
  return [balanceChange(deps, uid, holding, code, amount, now), ledgerPut(deps, uid, `${ref}#${holding}#${code}`, ref, { holding, code, change: amount }, now)];
}

/** A grant's credits: each balance's `ADD`, then one ledger entry recording them all (keyed by the grant's ref). */
function grantCredits(deps: Pick<PartnerStoreDeps, 'table' | 'now'>, uid: string, changes: GrantAnswer['granted'], ref: string): TransactItem[] {
  const now = deps.now().toISOString();
  return [
    ...changes.map((c) => balanceChange(deps, uid, c.holding, c.code, c.amount, now)),
    ledgerPut(deps, uid, ref, ref, { changes: changes.map((c) => ({ holding: c.holding, code: c.code, change: c.amount })) }, now),
  ];
}

/**
 * What premium-currencies-balance reads first (core/http/operation.ts FirstReads): the premium balance, strongly
 * consistent. For a session, the authorization layer reads it with the session's user: one request.
 */
export const premiumReads = (uid: string) => [balanceKey(uid, 'currency', PREMIUM)];

export const premiumBalance = async (deps: Pick<PartnerStoreDeps, 'db' | 'table'>, uid: string) => {
  const [item] = await readItems(deps, premiumReads(uid));
  return { currency: PREMIUM, balance: item ? StoredBalance.parse(item).balance : 0 };
};

/** Every item the catalogue has, with the user's balance of it (0 where none): one Query. */
export async function itemBalances(deps: Pick<PartnerStoreDeps, 'db' | 'table'>, uid: string) {
  const held = await queryItems(deps, {
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :items)',
    ExpressionAttributeValues: { ':pk': storePartition(uid), ':items': `${BALANCE_PREFIX}item#` },
    ConsistentRead: true,
  });
  const byCode = new Map(held.map((item) => [String(item.sk).slice('BAL#item#'.length), StoredBalance.parse(item).balance]));
  return { items: ITEMS.map((item) => ({ item: item.code, kind: item.kind, balance: byCode.get(item.code) ?? 0 })) };
}

/**
 * A partner's grant of currencies and items to a store user of its region, once per (client, reference): the
 * grant's record (kept for good) is written with the credits in one transaction, so the same request again
 * answers the first answer and credits nothing; the reference with another body is 422. A grant whose user has
 * since deleted their store account keeps its reference taken: it answers 404 to a request naming a user who is
 * not there (that user), 422 to one naming a user who is; its record no longer says whom it credited.
 */
export async function grant(deps: PartnerStoreDeps, region: StoreRegion, clientId: string, body: z.infer<typeof GrantBody>) {
  const request = { key: body.reference, fingerprint: fingerprintOf(body) };
  const [user, granted] = await readItems(deps, [storeUserKey(body.uid), grantKey(clientId, body.reference)]);
  const noUser = () => storeError('store.user_not_found', `body.uid: no store user ${body.uid} in this region`);
  if (granted) {
    if (!pseudonymized(granted)) return answerOf<GrantAnswer>(granted, request, referenceReused('client'));
    if (!userLive(user)) throw noUser();
    throw referenceReused('client')(body.reference);
  }
  if (!userLive(user) || StoredUser.parse(user).region !== region) throw noUser();
  const changes = [
    ...Object.entries(body.currencies ?? {}).map(([code, amount]) => ({ holding: 'currency' as const, code, amount })),
    ...Object.entries(body.items ?? {}).map(([code, amount]) => ({ holding: 'item' as const, code, amount })),
  ].filter((change) => change.amount > 0);
  if (changes.length === 0) throw storeError('store.grant_empty', 'body: grants nothing: give a positive amount of a currency or an item');
  const answer: GrantAnswer = { uid: body.uid, reference: body.reference, granted: changes };
  const ref = `grant#${clientId}#${body.reference}`;
  const failed = await transactOrFailures(deps, [
    {
      Put: {
        TableName: deps.table,
        Item: {
          ...grantKey(clientId, body.reference),
          type: 'store_grant',
          fingerprint: request.fingerprint,
          ...keptAnswer(answer),
          created_at: deps.now().toISOString(),
        },
        ConditionExpression: 'attribute_not_exists(pk)',
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      },
    },
    ...grantCredits(deps, body.uid, changes, ref),
    liveUserCheck(deps, body.uid),
  ]).catch(async (error: unknown) => {
    // Still colliding after the platform's retries (the same grant sent many times at once): the winner's
    // record answers it, once it is written.
    if (!(error instanceof ConcurrentChange)) throw error;
    const [stored] = await readItems(deps, [grantKey(clientId, body.reference)], { consistent: true });
    if (!stored) throw error;
    return [{ index: 0, item: stored }];
  });
  const first = failed.find((failure) => failure.index === 0)?.item;
  if (first) return answerOf<GrantAnswer>(first, request, referenceReused('client'));
  // After the record, each balance and the one ledger entry: the user's check is last.
  if (failed.some((failure) => failure.index === changes.length + 2)) throw noUser();
  if (failed.length > 0) throw new Error('store grant: a ledger entry of a new grant existed');
  return answer;
}

/**
 * "a partner's grant" (grantKey) as stored: its request's fingerprint (which the user's deletion drops) and its
 * answer, as JSON text or, written before answers were kept as text, as the map itself.
 */
export const StoredGrant = z.lazy(() =>
  z
    .object({
      fingerprint: z.optional(z.string()),
      answer: z.optional(objectOf(GrantResult)),
      answer_json: z.optional(answerTextOf(objectOf(GrantResult))),
    })
    .check(eitherForm()),
);

/** A grant kept by its user's deletion (core/partner-store/deletion.ts): it names the deletion's pseudonym, not a user. */
const pseudonymized = (granted: Record<string, unknown>) => {
  const { answer, answer_json } = StoredGrant.parse(granted);
  return isPseudonym((answer_json ?? answer)!.uid);
};

interface GrantAnswer {
  uid: string;
  reference: string;
  granted: { holding: Holding; code: string; amount: number }[];
}
