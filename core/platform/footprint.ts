import { presentItems, readItems, type Item, type ItemKey } from './batch.js';
import type { PlatformDeps } from './deps.js';
import { fitsKey, type PlayerKind, type PlayerRef, type Reach } from './item-kinds.js';
import { queryItems } from './query.js';

/**
 * Everything the table holds about one player, found by keys and indexes, never by a scan: the items of each of the
 * kinds a deletion walks (core/privacy/player-kinds.ts for a player, core/partner-store/user-kinds.ts for a store
 * user), read as its declaration says (core/platform/item-kinds.ts `Reach`). docs/data-model.md "Item kinds and a
 * player's data" lists them; docs/security.md "Deleting a player's account" says what happens to each.
 *
 * One Query reads the player's partition and one each index partition the kinds name (several kinds may share
 * one: gsi6's kinds are told apart by their index sort key); a kind reached through another is read as soon as
 * that one is, so the reads take as many round trips as the longest chain (three: the ledger, its goods orders,
 * their lookup copies). An item of a read partition that no kind declares stops the read: nothing would say what
 * its deletion does.
 */
/** Each kind's items; `D`, the deps the kinds' releases take (a hero's release needs the chain). */
export type Footprint<D = never> = ReadonlyMap<PlayerKind<D>, Item[]>;
/** Reading needs no kind's deps: any kind is one. */
type Kind = PlayerKind<never>;

type Deps = Pick<PlatformDeps, 'db' | 'table'>;

/** The items of one kind in the footprint (none when the kind is not there). */
export const itemsOf = <D>(footprint: Footprint<D>, kind: Kind): Item[] => footprint.get(kind as PlayerKind<D>) ?? [];

/**
 * How many items a round has yet to write: a finished deletion leaves none (the item that marks it as running, a
 * `deletedLast` kind's, is its end's to delete).
 */
export const footprintSize = <D>(footprint: Footprint<D>) =>
  [...footprint].reduce((sum, [kind, items]) => sum + (kind.player.deletion.does === 'deletedLast' ? 0 : items.length), 0);

/** The player's items; `player.address` is the wallet address the account had (kept by a deletion while it runs). */
export async function readFootprint<D>(deps: Deps, player: PlayerRef, kinds: readonly PlayerKind<D>[]): Promise<Footprint<D>> {
  const partitions = new Map<string, Promise<Item[]>>();
  const loaded = new Map<Kind, Promise<Item[]>>();
  const byKey = readByKey(deps, player, kinds);
  const load = (kind: Kind): Promise<Item[]> => {
    let items = loaded.get(kind);
    if (!items) {
      items = 'keys' in kind.player.reach ? byKey.then((read) => read.get(kind) ?? []) : readKind(deps, player, kind, kinds, partitions, load);
      loaded.set(kind, items);
    }
    return items;
  };
  const read = await Promise.all(kinds.map(async (kind) => [kind, await load(kind)] as const));
  return new Map(read);
}

async function readKind(
  deps: Deps,
  player: PlayerRef,
  kind: Kind,
  kinds: readonly Kind[],
  partitions: Map<string, Promise<Item[]>>,
  load: (kind: Kind) => Promise<Item[]>,
): Promise<Item[]> {
  const reach = kind.player.reach;
  if ('keys' in reach) throw new Error(`${kind.name} is read with the other kinds found by key`);
  if ('via' in reach) {
    const sources = (await load(reach.via as Kind)).filter((item) => reach.sortPrefix === undefined || String(item.sk).startsWith(reach.sortPrefix));
    return presentItems(deps, distinct(sources.flatMap(reach.keysOf)));
  }
  const partition = 'own' in reach ? reach.own(player.uid) : reach.partition(player);
  if (partition === undefined) return [];
  const sharing = kinds.filter((other) => samePartition(other.player.reach, reach, player));
  const id = `${'index' in reach ? reach.index : 'table'} ${partition}`;
  let listed = partitions.get(id);
  if (!listed) {
    listed = listPartition(deps, reach, partition, sharing);
    partitions.set(id, listed);
  }
  const mine = (await listed).filter((item) => kindOfListed(item, sharing) === kind);
  return 'index' in reach && reach.keysOnly ? presentItems(deps, mine.map(keyOf)) : mine;
}

/** The kinds whose keys are built from the player, all in one BatchGetItem: each kind's items. */
async function readByKey(deps: Deps, player: PlayerRef, kinds: readonly Kind[]): Promise<Map<Kind, Item[]>> {
  const wanted = kinds.flatMap((kind) => ('keys' in kind.player.reach ? kind.player.reach.keys(player).map((key) => ({ kind, key })) : []));
  const read = await readItems(
    deps,
    wanted.map(({ key }) => key),
  );
  const found = new Map<Kind, Item[]>();
  wanted.forEach(({ kind }, i) => {
    const item = read[i];
    if (item) found.set(kind, [...(found.get(kind) ?? []), item]);
  });
  return found;
}

const samePartition = (a: Reach, b: Reach, player: PlayerRef) =>
  ('own' in a && 'own' in b && a.own(player.uid) === b.own(player.uid)) ||
  ('index' in a && 'index' in b && a.index === b.index && a.partition(player) === b.partition(player));

/** Reads a whole partition of the table or an index; every item in it must be one of the kinds that share it. */
async function listPartition(deps: Deps, reach: Reach, partition: string, sharing: readonly Kind[]): Promise<Item[]> {
  const items =
    'index' in reach
      ? await queryItems(deps, {
          IndexName: reach.index,
          KeyConditionExpression: `${reach.index}pk = :pk`,
          ExpressionAttributeValues: { ':pk': partition },
        })
      : await queryItems(deps, { KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': partition }, ConsistentRead: true });
  const undeclared = items.find((item) => kindOfListed(item, sharing) === undefined);
  // A defect of the code, not of the request: the kind's declaration is missing (core/<domain>/items.ts).
  if (undeclared) throw new Error(`a player's item of no declared kind (pk ${String(undeclared.pk)}, sk ${String(undeclared.sk)}): its deletion is not stated`);
  return items;
}

/**
 * The kind of an item listed from a partition the kinds share: in the player's partition the one whose declared sort
 * key shape fits it (an exact key before a prefix, a longer prefix before a shorter); in an index the one whose index
 * sort key it has, else the one that takes all.
 */
function kindOfListed(item: Item, sharing: readonly Kind[]): Kind | undefined {
  let found: Kind | undefined;
  let specific = -1;
  for (const kind of sharing) {
    const reach = kind.player.reach;
    if ('own' in reach) {
      const shape = kind.keys.sk;
      const specificity = 'equals' in shape ? Number.POSITIVE_INFINITY : shape.prefix.length;
      if (fitsKey(shape, item.sk) && specificity > specific) [found, specific] = [kind, specificity];
    }
    if ('index' in reach && reach.sortEquals !== undefined && item[`${reach.index}sk`] === reach.sortEquals) return kind;
    if ('index' in reach && reach.sortEquals === undefined) found = kind;
  }
  return found;
}

const keyOf = (item: Item): ItemKey => ({ pk: String(item.pk), sk: String(item.sk) });

/** Each key once: several items may name one (a partner's grant of three holdings, one ledger entry each). */
const distinct = (keys: ItemKey[]) => [...new Map(keys.map((key) => [`${key.pk}\u0000${key.sk}`, key])).values()];
