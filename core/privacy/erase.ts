import { randomUUID } from 'node:crypto';
import { ownerOf } from '../access/owners.js';
import { goodsOrder, goodsOrderCopy, partnerReward } from '../goods/items.js';
import { hero, heroGrant } from '../heroes/items.js';
import { payOrder } from '../payments/items.js';
import type { Item } from '../platform/batch.js';
import type { PlayerKind } from '../platform/item-kinds.js';
import { idempotencyRecord } from '../platform/items.js';
import { ConcurrentChange, transactOrFailures, type TransactItem } from '../platform/transactions.js';
import { result, score } from '../rankings/items.js';
import { historyEntry } from '../rewards/items.js';
import { ledgerKey } from '../tickets/balances.js';
import type { PrivacyDeps } from './deps.js';
import { itemsOf, type Footprint } from './footprint.js';
import { scoreSeasonsOf } from './rank-pages.js';
import { deleteUnchanged, keepScrubbed, type Personal } from './scrub.js';

type Kind = PlayerKind<PrivacyDeps>;

/**
 * One round of a deletion (deletion.ts): each item of the player's footprint is deleted, pseudonymized, forfeited
 * or released as its kind declares (core/<domain>/items.ts; docs/security.md "Deleting a player's account" has the
 * table). The round also learns what identifies the player and who to tell (learnedFrom), from the kinds that
 * carry it.
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
  const history = itemsOf(footprint, historyEntry);
  const scores = itemsOf(footprint, score);
  const addresses = [
    subject.address,
    ...history.map((entry) => text(entry.wallet_address)),
    ...history.map((entry) => text((entry.claim as Item | undefined)?.recipient)),
  ];
  const identifiers = union(subject.identifiers, [subject.uid, ...addresses, ...addresses.map(withoutPrefix)]);
  const names = union(
    subject.names,
    scores.map((item) => text(item.game_player_name)),
  );
  const nfts = union(
    subject.nfts,
    itemsOf(footprint, hero).map((item) => text(item.nftObjectId)),
  );
  const studios = union(subject.studios, await studiosOf(deps, footprint));
  const seasons = union(subject.seasons, scoreSeasonsOf(scores));
  const same = identifiers === subject.identifiers && names === subject.names && nfts === subject.nfts && studios === subject.studios;
  if (same && seasons === subject.seasons) return subject;
  return { ...subject, identifiers, names, nfts, studios, seasons };
}

async function studiosOf(deps: PrivacyDeps, footprint: Footprint): Promise<string[]> {
  const projects = new Set<string>();
  const games = new Set<string>();
  const studios = new Set<string>();
  for (const [kind, items] of footprint) {
    if ('own' in kind.player.reach) for (const item of items) if (text(item.projectName)) projects.add(String(item.projectName));
  }
  for (const order of itemsOf(footprint, payOrder)) if (text(order.project_name)) projects.add(String(order.project_name));
  for (const kind of [score, result, idempotencyRecord, heroGrant, historyEntry]) {
    for (const item of itemsOf(footprint, kind)) if (text(item.game_code)) games.add(String(item.game_code));
  }
  for (const kind of [goodsOrder, goodsOrderCopy, partnerReward]) {
    for (const item of itemsOf(footprint, kind)) if (text(item.accountId)) studios.add(String(item.accountId));
  }
  const owners = await Promise.all([...[...projects].map((name) => ownerOf(deps, 'project', name)), ...[...games].map((code) => ownerOf(deps, 'game', code))]);
  for (const owner of owners) if (owner) studios.add(owner);
  return [...studios];
}

/**
 * Deletes, forfeits, releases or pseudonymizes what the footprint holds, as each kind declares; true when every
 * write of the round went through. What is held outside the table is released first; then the kinds are written in
 * phases, a kind after every kind reached through it and the player's own partition last, each phase only once the
 * ones before it went through: a crash or a lost race never loses the way to an item.
 */
export async function eraseRound(deps: PrivacyDeps, subject: Subject, footprint: Footprint): Promise<boolean> {
  const personal: Personal = { identifiers: subject.identifiers, names: subject.names, pseudonym: subject.pseudonym };
  const released = await releaseAll(deps, subject.uid, footprint);
  const phases = new Map<number, TransactItem[][]>();
  for (const [kind, items] of footprint) {
    const phase = phaseOf(kind, [...footprint.keys()]);
    phases.set(phase, [...(phases.get(phase) ?? []), ...items.map((item) => writesOf(deps, kind, item, subject, personal))]);
  }
  for (const phase of [...phases.keys()].sort((a, b) => a - b)) {
    // The player's own partition (the last phase) waits for the items held outside the table too.
    if (phase === OWN_PHASE && !released) return false;
    if (!(await writeUnits(deps, phases.get(phase)!))) return false;
  }
  return released;
}

/** The own partition's phase: after every other. */
const OWN_PHASE = Number.MAX_SAFE_INTEGER;

/** A kind's phase: 0 when nothing is reached through it, else one after the latest of those reached through it. */
function phaseOf(kind: Kind, kinds: readonly Kind[]): number {
  if ('own' in kind.player.reach) return OWN_PHASE;
  const dependents = kinds.filter((other) => 'via' in other.player.reach && other.player.reach.via === kind);
  return dependents.length === 0 ? 0 : 1 + Math.max(...dependents.map((other) => phaseOf(other, kinds)));
}

/** The writes that do to one item what its kind's deletion says. */
function writesOf(deps: PrivacyDeps, kind: Kind, item: Item, subject: Subject, personal: Personal): TransactItem[] {
  const deletion = kind.player.deletion;
  switch (deletion.does) {
    case 'deleted':
      // An item that is no longer the player's stays; one that is goes only as it was read (it is not taken meanwhile).
      if (!deletion.owned) return [remove(deps, item)];
      return deletion.owned(item, subject.uid) ? [deleteUnchanged(deps.table, item)] : [];
    case 'pseudonymized':
      return keepScrubbed(deps.table, item, personal, deletion.drop, deletion.set?.(item));
    case 'forfeited':
      return forfeit(deps, item, subject.pseudonym);
    case 'released':
      return [remove(deps, item)];
  }
}

/** Releases what the items of `released` kinds hold outside the table; true when all are released. */
async function releaseAll(deps: PrivacyDeps, uid: string, footprint: Footprint): Promise<boolean> {
  let all = true;
  for (const [kind, items] of footprint) {
    const deletion = kind.player.deletion;
    if (deletion.does !== 'released') continue;
    for (const item of items) if (!(await deletion.release(deps, uid, item))) all = false;
  }
  return all;
}

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
