import type { Item, ItemKey } from './batch.js';
import type { PlatformDeps } from './deps.js';
import type { tableDefinition } from './table.js';

/**
 * The declaration of a kind of stored item, made once in the domain that owns it (`core/<domain>/items.ts`): its
 * name, how its items are found from a player, and what a player's deletion and export do with them. The
 * privacy domain walks these declarations (core/privacy/player-kinds.ts lists them): a new kind that holds a
 * player's data is deleted and exported because it is declared, not because someone remembered to add it there.
 * A kind that holds none is declared too (`holdsNoPlayerData`), in its domain's `ITEM_KINDS` with the others.
 * docs/data-model.md "Item kinds and a player's data" explains the vocabulary.
 */
export interface ItemKind<Deps = PlatformDeps> {
  /** What the item is, as docs/data-model.md names it ("ticket balance", "pay order", …). */
  readonly name: string;
  /**
   * The value of the item's `type` attribute, which the stored items of this kind carry (none for a kind whose items
   * have no `type`, as a score or a counter). test/player-kinds.test.ts holds every `type` that core/ writes to one kind.
   */
  readonly type?: string;
  /**
   * The shape of its items' `pk` and `sk`, made of the same constants its key builders (the domain's keys module)
   * use: how a stored item is known to be of this kind. test/stored-items.test.ts holds every item the suite's tables
   * keep to exactly one kind by it.
   */
  readonly keys: { readonly pk: KeyShape; readonly sk: KeyShape };
  /** The secondary indexes its items have entries in: the only `gsiNpk`/`gsiNsk` attributes they carry. None: in no index. */
  readonly indexes?: readonly IndexName[];
  /** The model its items are read with (parsed, never cast): every item of the kind the suite stores parses with it. */
  readonly model: { readonly parse: (item: unknown) => unknown };
  readonly player: PlayerData<Deps>;
}

/** How a key attribute of a kind reads: exactly `equals`, or beginning with `prefix`. */
export type KeyShape = { readonly equals: string } | { readonly prefix: string };
export const exactly = (equals: string): KeyShape => ({ equals });
export const startsWith = (prefix: string): KeyShape => ({ prefix });
/** A key whose text has nothing fixed (it begins with a time, or is a code alone): any text. */
export const anyKey: KeyShape = startsWith('');
/** Whether a stored key attribute reads as `shape` says: the one test of a key's shape, for the deletion, the export and the walk test. */
export const fitsKey = (shape: KeyShape, value: unknown): boolean =>
  typeof value === 'string' && ('equals' in shape ? value === shape.equals : value.startsWith(shape.prefix));

/** The table's secondary indexes (core/platform/table.ts). */
export type IndexName = keyof typeof tableDefinition.indexes;

/** The player whose items are walked: their id, and the wallet address their account had (none without one). */
export interface PlayerRef {
  uid: string;
  address: string | undefined;
}

/**
 * How a kind's items are found from a player, never by a scan:
 * - `own`: in the player's own partition (`own` builds it from the uid: `USER#<uid>` for a player, `STOREUSER#<uid>`
 *   for a partner store's user), its sort keys those the kind's `keys.sk` shape fits;
 * - `index`: in a partition of an index that the player names (`gsi1` `USER_ORDERS#<uid>`, …), every entry or
 *   those whose index sort key is `sortEquals`; `keysOnly` where the index projects only keys (the items are then
 *   read by key);
 * - `keys`: items whose keys are built from the player (their wallet address's binding);
 * - `via`: items that another kind's items name (a goods order through its ledger entry), from the items of `kind`
 *   whose sort key begins with `sortPrefix` when one is given.
 */
export type Reach =
  | { readonly own: (uid: string) => string }
  | {
      readonly index: 'gsi1' | 'gsi2' | 'gsi6';
      readonly partition: (player: PlayerRef) => string | undefined;
      readonly sortEquals?: string;
      readonly keysOnly?: boolean;
    }
  | { readonly keys: (player: PlayerRef) => ItemKey[] }
  | { readonly via: ItemKind<never>; readonly sortPrefix?: string; readonly keysOf: (item: Item) => ItemKey[] };

/**
 * What a player's deletion does to an item of the kind:
 * - `deleted`: the item goes;
 * - `pseudonymized`: it stays as the platform's accounting needs it, with every identifier of the player replaced by
 *   the deletion's pseudonym (a key that held one moves), less the attributes in `drop`, with those `set` gives;
 * - `forfeited`: a balance: `kept` builds the ledger items that take its place under the pseudonym, written with the
 *   balance's deletion in one transaction: the entry of minus it (none for an empty balance), and any ledger entries
 *   the balance item itself holds (the deletion is then on condition they are still the ones read);
 * - `released`: `release` first gives back what the item holds outside the table (a hero's NFT), then it goes;
 * - `deletedLast`: the item that marks the deletion as running (a store user's): no round writes it, the deletion's
 *   end deletes it with its record.
 * `owned` keeps an item that is no longer the player's (a wallet binding the address moved to another player).
 */
export type Deletion<Deps = PlatformDeps> =
  | { readonly does: 'deleted'; readonly owned?: (item: Item, uid: string) => boolean }
  | { readonly does: 'pseudonymized'; readonly drop?: readonly string[]; readonly set?: (item: Item) => Item }
  | { readonly does: 'forfeited'; readonly kept: (balance: Item, run: DeletionRun) => Item[] }
  | { readonly does: 'released'; readonly release: (deps: Deps, uid: string, item: Item) => Promise<boolean> }
  | { readonly does: 'deletedLast' };

/** The deletion a round belongs to: whose, under which pseudonym, started when, and the time of this round. */
export interface DeletionRun {
  uid: string;
  pseudonym: string;
  deletedAt: string;
  now: Date;
}

/**
 * A kind's player data: none (`holdsNoPlayerData`, a kind the deletion never looks at); data that a flow of its own
 * domain takes care of when the player goes, which `ownFlow` names (an item no reach finds from the player, as a
 * zkLogin salt keyed by the identity's subject, or a board's head listing many players); or where a player's items
 * of it are, what their deletion does, and the section of their export that shows them (none: not exported, as a
 * nonce or an idempotency record). `lines` parts an item that holds several records into those (a ledger page, its
 * entries: each as an item of its own); `record` turns an item into the exported record when it is not the stored one.
 */
export type PlayerData<Deps = PlatformDeps> =
  | { readonly holdsNoPlayerData: true }
  | { readonly ownFlow: string }
  | {
      readonly reach: Reach;
      readonly deletion: Deletion<Deps>;
      readonly export?: { readonly section: string; readonly lines?: (item: Item) => Item[]; readonly record?: (item: Item) => unknown };
    };

/** A kind that holds a player's data (the declarations the deletion and the export walk). */
export type PlayerKind<Deps = PlatformDeps> = ItemKind<Deps> & {
  readonly player: Exclude<PlayerData<Deps>, { holdsNoPlayerData: true } | { ownFlow: string }>;
};

/**
 * Declares a kind: the one place its player-data policy is stated (the type makes it required). A kind's `release`
 * may need more than the platform's deps (the heroes' chain): `never` accepts any, and the list the deletion walks
 * states the deps it has.
 */
export const itemKind = <const Kind extends ItemKind<never>>(kind: Kind): Kind => kind;
