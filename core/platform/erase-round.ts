import type { Item } from './batch.js';
import type { PlatformDeps } from './deps.js';
import type { Footprint } from './footprint.js';
import type { DeletionRun, PlayerKind } from './item-kinds.js';
import { deleteUnchanged, keepScrubbed, type Personal } from './scrub.js';
import { ConcurrentChange, transactOrFailures, type TransactItem } from './transactions.js';

/**
 * One round of a deletion, for a player (core/privacy/deletion.ts) or a partner store's user
 * (core/partner-store/deletion.ts) alike: each item of the footprint is deleted, pseudonymized, forfeited or
 * released as its kind declares (core/platform/item-kinds.ts `Deletion`). The state machine around the rounds (who
 * runs them, what is kept between them, when the deletion ends) is each deletion's own.
 */

/** Items per TransactWriteItems: a unit (1-3 items) never splits, and a lost race costs a bounded redo. */
const ITEMS_PER_TRANSACTION = 50;

/**
 * Deletes, forfeits, releases or pseudonymizes what the footprint holds; true when every write of the round went
 * through. What is held outside the table is released first; then the kinds are written in phases, a kind after
 * every kind reached through it and the own partition last, each phase only once the ones before it went through:
 * a crash or a lost race never loses the way to an item.
 */
export async function eraseRound<D extends Pick<PlatformDeps, 'db' | 'table'>>(
  deps: D,
  footprint: Footprint<D>,
  run: DeletionRun,
  personal: Personal,
): Promise<boolean> {
  const released = await releaseAll(deps, run.uid, footprint);
  const kinds = [...footprint.keys()];
  const phases = new Map<number, TransactItem[][]>();
  for (const [kind, items] of footprint) {
    const phase = phaseOf(kind, kinds);
    phases.set(phase, [...(phases.get(phase) ?? []), ...items.map((item) => writesOf(deps.table, kind, item, run, personal))]);
  }
  for (const phase of [...phases.keys()].sort((a, b) => a - b)) {
    // The own partition (the last phase) waits for the items held outside the table too.
    if (phase === OWN_PHASE && !released) return false;
    if (!(await writeUnits(deps, phases.get(phase)!))) return false;
  }
  return released;
}

/** The own partition's phase: after every other. */
const OWN_PHASE = Number.MAX_SAFE_INTEGER;

/** A kind's phase: 0 when nothing is reached through it, else one after the latest of those reached through it. */
function phaseOf<D>(kind: PlayerKind<D>, kinds: readonly PlayerKind<D>[]): number {
  if ('own' in kind.player.reach) return OWN_PHASE;
  const dependents = kinds.filter((other) => 'via' in other.player.reach && other.player.reach.via === kind);
  return dependents.length === 0 ? 0 : 1 + Math.max(...dependents.map((other) => phaseOf(other, kinds)));
}

/** The writes that do to one item what its kind's deletion says. */
function writesOf<D>(table: string, kind: PlayerKind<D>, item: Item, run: DeletionRun, personal: Personal): TransactItem[] {
  const deletion = kind.player.deletion;
  switch (deletion.does) {
    case 'deleted':
      // An item that is no longer the player's stays; one that is goes only as it was read (it is not taken meanwhile).
      if (!deletion.owned) return [remove(table, item)];
      return deletion.owned(item, run.uid) ? [deleteUnchanged(table, item)] : [];
    case 'pseudonymized':
      return keepScrubbed(table, item, personal, deletion.drop, deletion.set?.(item));
    case 'forfeited':
      return forfeit(table, item, deletion.kept(item, run));
    case 'released':
      return [remove(table, item)];
    case 'deletedLast':
      return [];
  }
}

/** Releases what the items of `released` kinds hold outside the table; true when all are released. */
async function releaseAll<D>(deps: D, uid: string, footprint: Footprint<D>): Promise<boolean> {
  let all = true;
  for (const [kind, items] of footprint) {
    const deletion = kind.player.deletion;
    if (deletion.does !== 'released') continue;
    for (const item of items) if (!(await deletion.release(deps, uid, item))) all = false;
  }
  return all;
}

const remove = (table: string, item: Item): TransactItem => ({ Delete: { TableName: table, Key: { pk: item.pk, sk: item.sk } } });

/**
 * A balance forfeited: the ledger items that take its place under the pseudonym (new: their keys are taken once),
 * and the balance deleted on condition it is still the one read, in one transaction: that condition makes it once.
 * An empty balance that holds nothing else just goes.
 */
function forfeit(table: string, balance: Item, kept: Item[]): TransactItem[] {
  // Its lists as read too: what it holds (the ledger entries a balance holds) is what `kept` keeps. A scalar does not
  // always tell: a balance's first page move adds `pages`, which the condition cannot name when the item read had none.
  return [
    deleteUnchanged(table, balance, { documents: true }),
    ...kept.map((Item) => ({ Put: { TableName: table, Item, ConditionExpression: 'attribute_not_exists(pk)' } })),
  ];
}

/** Writes the units in transactions of at most ITEMS_PER_TRANSACTION items; true when none lost a race. */
async function writeUnits(deps: Pick<PlatformDeps, 'db' | 'table'>, units: TransactItem[][]): Promise<boolean> {
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
