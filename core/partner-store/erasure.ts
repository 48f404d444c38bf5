import { readItems, type Item, type ItemKey } from '../platform/batch.js';
import { answerKept, keptAnswer } from '../platform/kept-answers.js';
import { PLAYER_ITEMS_INDEX, playerItemsPartition } from '../platform/players.js';
import { queryItems } from '../platform/query.js';
import { ConcurrentChange, transactOrFailures, type TransactItem } from '../platform/transactions.js';
import type { PartnerStoreDeps } from './deps.js';
import { scrubbed, type Personal } from './pseudonyms.js';
import type { StoreRegion } from './regions.js';
import { grantKey } from '././wallet.js';
import { storeLedgerKey, storePartition } from './keys.js';

/**
 * One round of a store user's deletion (deletion.ts): what happens to each item of the user
 * (docs/security.md "The partner store's users" has the table). Everything is found by keys and indexes:
 * - the user's partition `STOREUSER#<uid>`: balances are forfeited (a ledger entry of minus the balance under the
 *   pseudonym, then the balance goes, in one transaction), ledger entries move to `STOREUSER#<pseudonym>` with the
 *   uid replaced, pets (and with them their place on the region's board, gsi4), the adoption count and the
 *   feedings are deleted; the user item itself goes last, with the deletion's record;
 * - the partner grants the ledger names (`grant#<client_id>#<reference>`, in either partition): kept, the uid
 *   in their answer replaced and their request fingerprint dropped (it was taken over the uid);
 * - the user's items that no key leads to (gsi6 `PLAYER_ITEMS#<uid>`): OAuth codes, token families, refresh
 *   tokens and Idempotency-Key records, deleted.
 */
export interface Subject {
  region: StoreRegion;
  clientId: string;
  /** The partner's user id. */
  sub: string;
  uid: string;
  pseudonym: string;
  deletedAt: string;
}

/** What is left of the user: their partition but the user item, the grants still naming them, their indexed items. */
interface Left {
  user: Item | undefined;
  own: Item[];
  grants: Item[];
  indexed: ItemKey[];
}

/** Items per TransactWriteItems: a unit (1-2 items) never splits, and a lost race costs a bounded redo. */
const ITEMS_PER_TRANSACTION = 50;

const keyOf = (item: Item): ItemKey => ({ pk: String(item.pk), sk: String(item.sk) });
const idOf = (key: ItemKey) => `${key.pk}\u0000${key.sk}`;

/** What is left of the user; `deleted`: index entries this run deleted already (the index may still list them). */
export async function leftOf(deps: Pick<PartnerStoreDeps, 'db' | 'table'>, subject: Subject, deleted: Set<string>): Promise<Left> {
  const [own, keptGrants, indexed] = await Promise.all([
    queryItems(deps, { KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': storePartition(subject.uid) }, ConsistentRead: true }),
    queryItems(deps, {
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :grants)',
      ExpressionAttributeValues: { ':pk': storePartition(subject.pseudonym), ':grants': 'LEDGER#grant#' },
      ConsistentRead: true,
    }),
    queryItems(deps, {
      IndexName: PLAYER_ITEMS_INDEX,
      KeyConditionExpression: 'gsi6pk = :pk',
      ExpressionAttributeValues: { ':pk': playerItemsPartition(subject.uid) },
    }),
  ]);
  const refs = new Set([...own, ...keptGrants].map((item) => String(item.ref ?? '')).filter((ref) => ref.startsWith('grant#')));
  const grantKeys = [...refs].map((ref) => {
    // `grant#<client_id>#<reference>`: a reference has no `#` (core/partner-store/models.ts GrantBody).
    const last = ref.lastIndexOf('#');
    return grantKey(ref.slice('grant#'.length, last), ref.slice(last + 1));
  });
  const grants = (grantKeys.length === 0 ? [] : await readItems(deps, grantKeys)).filter(
    (grant): grant is Item => grant !== undefined && (answerKept(grant) as { uid?: unknown } | undefined)?.uid === subject.uid,
  );
  return {
    user: own.find((item) => item.sk === 'STOREUSER'),
    own: own.filter((item) => item.sk !== 'STOREUSER'),
    grants,
    indexed: indexed.map(keyOf).filter((key) => !deleted.has(idOf(key))),
  };
}

export const nothingLeft = (left: Left) => left.own.length === 0 && left.grants.length === 0 && left.indexed.length === 0;

/** Deletes, forfeits or pseudonymizes what is left; true when every write went through. */
export async function eraseRound(deps: PartnerStoreDeps, subject: Subject, left: Left, deleted: Set<string>): Promise<boolean> {
  const name = typeof left.user?.name === 'string' ? [left.user.name] : [];
  const personal: Personal = { uid: subject.uid, whole: [subject.sub, ...name], pseudonym: subject.pseudonym };
  const remove = (key: ItemKey): TransactItem => ({ Delete: { TableName: deps.table, Key: key } });
  const units: TransactItem[][] = [
    ...left.grants.map((grant) => keepGrant(deps, grant, subject, personal)),
    ...left.own.map((item) => {
      const sk = String(item.sk);
      if (sk.startsWith('BAL#')) return forfeit(deps, item, subject);
      if (sk.startsWith('LEDGER#')) return moveEntry(deps, item, personal);
      return [remove(keyOf(item))];
    }),
  ];
  const own = await writeUnits(deps, units);
  // Unconditional deletes: they fail only when the table does, so a batch written is a batch gone.
  const indexed = await writeUnits(
    deps,
    left.indexed.map((key) => [remove(key)]),
    (written) => {
      for (const [remove] of written) deleted.add(idOf(remove!.Delete!.Key as ItemKey));
    },
  );
  return own && indexed;
}

/**
 * The balance forfeited: a ledger entry under the pseudonym of minus the balance (its key makes it once per
 * balance), and the balance deleted on condition it is still the one read, in one transaction. A zero balance
 * just goes.
 */
function forfeit(deps: PartnerStoreDeps, balance: Item, subject: Subject): TransactItem[] {
  const [, holding, code] = String(balance.sk).split('#') as [string, string, string];
  const amount = typeof balance.balance === 'number' ? balance.balance : undefined;
  const remove: TransactItem = {
    Delete: {
      TableName: deps.table,
      Key: keyOf(balance),
      ...(amount === undefined
        ? { ConditionExpression: 'attribute_not_exists(balance)' }
        : { ConditionExpression: 'balance = :read', ExpressionAttributeValues: { ':read': amount } }),
    },
  };
  if (!amount) return [remove];
  const entry = {
    ...storeLedgerKey(subject.pseudonym, `forfeit#${holding}#${code}`),
    type: 'store_ledger',
    uid: subject.pseudonym,
    holding,
    code,
    change: -amount,
    ref: 'forfeit',
    created_at: subject.deletedAt,
  };
  return [remove, { Put: { TableName: deps.table, Item: entry, ConditionExpression: 'attribute_not_exists(pk)' } }];
}

/** A ledger entry moved to the pseudonym's partition, the uid replaced: put there and deleted here together. */
function moveEntry(deps: PartnerStoreDeps, entry: Item, personal: Personal): TransactItem[] {
  return [
    { Put: { TableName: deps.table, Item: scrubbed(entry, personal) as Item, ConditionExpression: 'attribute_not_exists(pk)' } },
    { Delete: { TableName: deps.table, Key: keyOf(entry), ConditionExpression: 'attribute_exists(pk)' } },
  ];
}

/**
 * A partner grant kept for accounting: the reference stays taken (once per reference holds for good) and says what
 * it granted, but no longer whom. The fingerprint goes: it was taken over a body that named the user. Written on
 * condition the grant still names the user; a reference that held the uid itself moves to its scrubbed key, as
 * the ledger entries naming it do.
 */
function keepGrant(deps: PartnerStoreDeps, grant: Item, subject: Subject, personal: Personal): TransactItem[] {
  const { fingerprint: _dropped, answer_json: text, ...rest } = grant;
  const kept = scrubbed(rest, personal) as Item;
  // An answer kept as JSON text (core/platform/kept-answers.ts) is scrubbed as the value it holds, so that a whole
  // value (a name, the partner's user id) is replaced inside it too; unchanged since read, it still names the user.
  if (typeof text === 'string') Object.assign(kept, keptAnswer(scrubbed(JSON.parse(text), personal)));
  const namesUser =
    typeof text === 'string'
      ? { ConditionExpression: 'answer_json = :read', ExpressionAttributeValues: { ':read': text } }
      : {
          ConditionExpression: '#answer.#uid = :uid',
          ExpressionAttributeNames: { '#answer': 'answer', '#uid': 'uid' },
          ExpressionAttributeValues: { ':uid': subject.uid },
        };
  if (idOf(keyOf(kept)) === idOf(keyOf(grant))) return [{ Put: { TableName: deps.table, Item: kept, ...namesUser } }];
  return [
    { Put: { TableName: deps.table, Item: kept, ConditionExpression: 'attribute_not_exists(pk)' } },
    { Delete: { TableName: deps.table, Key: keyOf(grant), ...namesUser } },
  ];
}

/**
 * Writes the units in transactions of at most ITEMS_PER_TRANSACTION items; true when all went through. A
 * transaction refused by a condition or by concurrent ones (another run of the same deletion got there first)
 * leaves its units to the next round. `onWritten` hears of each transaction's units once written.
 */
async function writeUnits(deps: PartnerStoreDeps, units: TransactItem[][], onWritten?: (written: TransactItem[][]) => void): Promise<boolean> {
  let all = true;
  let batch: TransactItem[][] = [];
  const flush = async () => {
    if (batch.length === 0) return;
    const written = batch;
    batch = [];
    try {
      if ((await transactOrFailures(deps, written.flat())).length > 0) all = false;
      else onWritten?.(written);
    } catch (error) {
      if (!(error instanceof ConcurrentChange)) throw error;
      all = false;
    }
  };
  let size = 0;
  for (const unit of units) {
    if (size + unit.length > ITEMS_PER_TRANSACTION) {
      await flush();
      size = 0;
    }
    batch.push(unit);
    size += unit.length;
  }
  await flush();
  return all;
}
