import { randomUUID } from 'node:crypto';
import { ownerOf } from '../access/owners.js';
import { unbindNft } from '../heroes/bindings.js';
import { OrderStatus } from '../payments/models.js';
import { ledgerKey } from '../tickets/balances.js';
import { DomainError } from '../platform/errors.js';
import type { Item } from '../platform/batch.js';
import { ConcurrentChange, transactOrFailures, type TransactItem } from '../platform/transactions.js';
import type { PrivacyDeps } from './deps.js';
import type { Footprint } from './footprint.js';
import { scoreSeasonsOf } from './rank-pages.js';
import { deleteUnchanged, keepScrubbed, type Personal } from './scrub.js';

/**
 * One round of a deletion (deletion.ts): what happens to each item of the player's footprint
 * (docs/security.md "Deleting a player's account" has the table).
 * - Kept, pseudonymized (accounting): pay orders, payment events and stranded records of the wallet, vendor
 *   goods orders with their copies, vendor rewards, reward history entries (without the signed claim), the
 *   ledger (moved to `USER#<pseudonym>`), results;
 * - forfeited: every ticket balance (a ledger entry `forfeit#<project>#<level>#<id>` of minus the balance, then
 *   the balance goes), so each pseudonym's ledger still sums to its balances (none);
 * - released: hero NFTs bound to the player (the binding keeps the hero's level, as an unbind does);
 * - deleted: everything else.
 * Items found through another (vendor orders through ledger entries, social accounts through the listing,
 * NFT bindings through heroes) are dealt with first; the player's own partition only in a round where all of
 * those were written, so a crash never loses the way to one.
 */
export interface Learned {
  /** Texts that identify the player: the uid, wallet addresses (with and without 0x). */
  identifiers: string[];
  /** The player's names on boards. */
  names: string[];
  /** The studios (console account ids) whose games or projects the player used. */
  studios: string[];
  /** The hero NFTs bound to the player when the deletion found them. */
  nfts: string[];
  /** The seasons the player had scores in (rank-pages.ts), for the sweep to take them off those boards. */
  seasons: string[];
}

interface Subject extends Learned {
  uid: string;
  address?: string;
  pseudonym: string;
}

/** Items per TransactWriteItems: a unit (1-2 items) never splits, and a lost race costs a bounded redo. */
const ITEMS_PER_TRANSACTION = 50;

const union = (known: string[], more: Iterable<string | undefined>) => {
  const all = new Set(known);
  for (const value of more) if (value) all.add(value);
  return all.size === known.length ? known : [...all];
};
const text = (value: unknown) => (typeof value === 'string' && value.length > 0 ? value : undefined);
const withoutPrefix = (address: string | undefined) => (address?.startsWith('0x') ? address.slice(2) : undefined);

/** What the footprint adds to what the deletion knows; the same object when nothing is new. */
export async function learnedFrom(deps: PrivacyDeps, subject: Subject, footprint: Footprint): Promise<Subject> {
  const addresses = [
    subject.address,
    ...footprint.history.map((entry) => text(entry.wallet_address)),
    ...footprint.history.map((entry) => text((entry.claim as Item | undefined)?.recipient)),
  ];
  const identifiers = union(subject.identifiers, [subject.uid, ...addresses, ...addresses.map(withoutPrefix)]);
  const names = union(
    subject.names,
    footprint.indexed.filter((item) => item.gsi6sk === 'SCORE').map((item) => text(item.game_player_name)),
  );
  const nfts = union(
    subject.nfts,
    footprint.user.filter((item) => String(item.sk).startsWith('HERO#')).map((item) => text(item.nftObjectId)),
  );
  const studios = union(subject.studios, await studiosOf(deps, footprint));
  const seasons = union(subject.seasons, scoreSeasonsOf(footprint.indexed));
  const same = identifiers === subject.identifiers && names === subject.names && nfts === subject.nfts && studios === subject.studios;
  if (same && seasons === subject.seasons) return subject;
  return { ...subject, identifiers, names, nfts, studios, seasons };
}

async function studiosOf(deps: PrivacyDeps, footprint: Footprint): Promise<string[]> {
  const projects = new Set<string>();
  const games = new Set<string>();
  const studios = new Set<string>();
  for (const item of footprint.user) if (text(item.projectName)) projects.add(String(item.projectName));
  for (const order of footprint.orders) if (text(order.project_name)) projects.add(String(order.project_name));
  for (const item of [...footprint.indexed, ...footprint.history]) if (text(item.game_code)) games.add(String(item.game_code));
  for (const item of [...footprint.vendorOrders, ...footprint.vendorRewards]) if (text(item.accountId)) studios.add(String(item.accountId));
  const owners = await Promise.all([...[...projects].map((name) => ownerOf(deps, 'project', name)), ...[...games].map((code) => ownerOf(deps, 'game', code))]);
  for (const owner of owners) if (owner) studios.add(owner);
  return [...studios];
}

/** Deletes or pseudonymizes what the footprint holds; true when every write of the round went through. */
export async function eraseRound(deps: PrivacyDeps, subject: Subject, footprint: Footprint): Promise<boolean> {
  const personal: Personal = { identifiers: subject.identifiers, names: subject.names, pseudonym: subject.pseudonym };
  const keep = (item: Item, drop: string[] = [], set: Item = {}) => keepScrubbed(deps.table, item, personal, drop, set);
  const released = await releaseHeroes(deps, subject.uid, footprint.user);
  const dependents: TransactItem[][] = [
    ...footprint.social.filter((item) => item.uid === subject.uid).map((item) => [deleteUnchanged(deps.table, item)]),
    ...footprint.wallet.filter((item) => item.uid === undefined || item.uid === subject.uid).map((item) => [remove(deps, item)]),
    ...footprint.indexed.map((item) => (item.gsi6sk === 'RESULT' ? keep(item) : [remove(deps, item)])),
    // A pending order no payment has reached is cancelled: no one can complete it now, and a payment that still
    // arrives for its bill is then a stranded one its merchant sees and can refund.
    ...footprint.orders.map((item) => (unpaid(item) ? keep(item, [], { status: OrderStatus.cancelled }) : keep(item))),
    // The signed claim names the recipient inside its signed bytes: a kept entry keeps its state, not the claim.
    ...footprint.history.map((item) => keep(item, ['claim'])),
    ...[...footprint.payments, ...footprint.stranded, ...footprint.vendorOrders, ...footprint.vendorRewards].map((item) => keep(item)),
  ];
  if (!(await writeUnits(deps, dependents)) || !released) return false;
  const own = footprint.user.map((item) => {
    const sk = String(item.sk);
    if (sk.startsWith('TICKETS#')) return forfeit(deps, item, subject.pseudonym);
    if (sk.startsWith('LEDGER#')) return keep(item);
    return [remove(deps, item)];
  });
  return writeUnits(deps, own);
}

const unpaid = (order: Item) => order.status === OrderStatus.pending && order.payment_seen === undefined;

const remove = (deps: PrivacyDeps, item: Item): TransactItem => ({ Delete: { TableName: deps.table, Key: { pk: item.pk, sk: item.sk } } });

/**
 * The balance's tickets, forfeited: a ledger entry under the pseudonym of minus the balance, and the balance
 * deleted on condition it is still the one read, in one transaction: that condition makes it once. The entry's
 * key is new for each forfeit, so a balance that appears again in the same level (a credit that landed during
 * the deletion) is forfeited by a later round too, instead of failing on the first one's entry at every retry.
 */
function forfeit(deps: PrivacyDeps, balance: Item, pseudonym: string): TransactItem[] {
  const tickets = Number(balance.balance ?? 0);
  if (tickets === 0) return [deleteUnchanged(deps.table, balance)];
  const ref = `forfeit#${String(balance.projectName)}#${String(balance.level)}#${randomUUID()}`;
  return [
    deleteUnchanged(deps.table, balance),
    {
      Put: {
        TableName: deps.table,
        Item: {
          ...ledgerKey(pseudonym, ref),
          type: 'ledger',
          uid: pseudonym,
          projectName: balance.projectName,
          level: balance.level,
          ref,
          change: -tickets,
          created_at: deps.now().toISOString(),
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
  ];
}

/** Unbinds each hero NFT bound to the player (heroes/bindings.ts: the binding keeps the level); true when all were. */
async function releaseHeroes(deps: PrivacyDeps, uid: string, user: Item[]): Promise<boolean> {
  let all = true;
  for (const hero of user.filter((item) => String(item.sk).startsWith('HERO#') && text(item.nftObjectId))) {
    try {
      await unbindNft(deps, uid, String(hero.nftObjectId));
    } catch (error) {
      // Released already (a crash after the unbind): the hero item goes with the partition. Anything else: next round.
      if (error instanceof DomainError && error.code === 'hero.not_bound') continue;
      if (!(error instanceof DomainError)) throw error;
      all = false;
    }
  }
  return all;
}

/** Writes the units in transactions of at most ITEMS_PER_TRANSACTION items; true when none lost a race. */
async function writeUnits(deps: PrivacyDeps, units: TransactItem[][]): Promise<boolean> {
  let all = true;
  let batch: TransactItem[] = [];
  const flush = async () => {
    if (batch.length === 0) return;
    try {
      if ((await transactOrFailures(deps, batch)).length > 0) all = false;
    } catch (error) {
      if (!(error instanceof ConcurrentChange)) throw error;
      all = false;
    }
    batch = [];
  };
  for (const unit of units.filter((u) => u.length > 0)) {
    if (batch.length + unit.length > ITEMS_PER_TRANSACTION) await flush();
    batch.push(...unit);
  }
  await flush();
  return all;
}
