import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { presentItems, type Item } from '../platform/batch.js';
import type { PlatformDeps } from '../platform/deps.js';
import { fitsKey, type KeyShape, type PlayerKind } from '../platform/item-kinds.js';
import { decodeCursor, encodeCursor, type StartKey } from '../platform/cursors.js';
import type { PrivacyDeps } from './deps.js';
import { exportedItem } from './exported-items.js';
import type { ExportSection } from './models.js';
import { PLAYER_KINDS } from './player-kinds.js';

type Kind = PlayerKind<PrivacyDeps>;

/**
 * The long sections of a player's export, each the items of the kind whose declaration names it
 * (core/<domain>/items.ts), read a page at a time by one Query of the player's own partition of the table or of an
 * index (the same ones core/platform/footprint.ts reads to delete them), so nothing of another player can be on a
 * page: the ledger, pay orders, payment events, vendor goods orders and rewards (listed by the ledger entries that
 * name them, then read by key), reward history entries and scores (listed by key from gsi6, then read).
 * A page's cursor is the key of its last item, sealed and bound to the player and the section (core/platform/cursors.ts).
 */
export interface Who {
  uid: string;
  /** The wallet address of the player's account, for the payments section (none without an account). */
  address: string | undefined;
}

export interface SectionPage {
  items: unknown[];
  next: string | null;
}

/** The kind a section shows: the one whose declaration names the section (test/player-kinds.test.ts: one each). */
const kindOf = (name: ExportSection): Kind => {
  const kind = PLAYER_KINDS.find((k) => k.player.export?.section === name);
  if (!kind) throw new Error(`no kind declares the export section ${name}`);
  return kind;
};

/**
 * Where a section lists from: the kind's own partition or index partition, or, for a kind reached through another
 * (a goods order through its ledger entry), that kind's, narrowed to the entries that name one.
 */
type Listing = { index?: 'gsi1' | 'gsi2' | 'gsi6'; partition: string | undefined; sort?: KeyShape };

function listingOf(kind: Kind, who: Who): Listing {
  const reach = kind.player.reach;
  if ('via' in reach) {
    const listed = listingOf(reach.via as Kind, who);
    return { ...listed, ...(reach.sortPrefix === undefined ? {} : { sort: { prefix: reach.sortPrefix } }) };
  }
  if ('own' in reach) {
    const shape = kind.keys.sk;
    // A sort key with nothing fixed narrows nothing (and DynamoDB refuses an empty begins_with).
    return { partition: reach.own(who.uid), ...('prefix' in shape && shape.prefix === '' ? {} : { sort: shape }) };
  }
  if ('index' in reach) {
    return {
      index: reach.index,
      partition: reach.partition(who),
      ...(reach.sortEquals === undefined ? {} : { sort: { equals: reach.sortEquals } }),
    };
  }
  throw new Error(`the kind ${kind.name} is read by key: it cannot be a section`);
}

/**
 * The listed items as the section's records: the items they name or are (read by key where listed by key), an item
 * that holds several records parted into them (a ledger page, its entries). A page of the section holds `limit`
 * items, so it can hold more records; its cursor is still its last item's key, so each record comes once.
 */
async function recordsOf(deps: Pick<PlatformDeps, 'db' | 'table'>, kind: Kind, listed: Item[]): Promise<unknown[]> {
  const lines = kind.player.export?.lines ?? ((item: Item) => [item]);
  return (await itemsOfListed(deps, kind, listed)).flatMap(lines).map(kind.player.export?.record ?? exportedItem);
}

async function itemsOfListed(deps: Pick<PlatformDeps, 'db' | 'table'>, kind: Kind, listed: Item[]): Promise<Item[]> {
  const reach = kind.player.reach;
  if ('via' in reach) return presentItems(deps, listed.flatMap(reach.keysOf));
  if ('index' in reach && reach.keysOnly)
    return presentItems(
      deps,
      listed.map((item) => ({ pk: String(item.pk), sk: String(item.sk) })),
    );
  return listed;
}

/**
 * One page of a section: at most `limit` items after the cursor's (from the first without one). `next` is null
 * once no item follows: one more item is read to know it, so the last page is never an empty one.
 */
export async function readSection(
  deps: Pick<PlatformDeps, 'db' | 'table' | 'cursorKey'>,
  name: ExportSection,
  who: Who,
  cursor: string | undefined,
  limit: number,
): Promise<SectionPage> {
  const kind = kindOf(name);
  const section = listingOf(kind, who);
  const partition = section.partition;
  const [pkName, skName] = section.index ? [`${section.index}pk`, `${section.index}sk`] : ['pk', 'sk'];
  const attributes = section.index ? ['pk', 'sk', pkName, skName] : ['pk', 'sk'];
  const start =
    cursor === undefined
      ? undefined
      : decodeCursor(deps, cursor, { owner: who.uid, scope: name, attributes, within: (key) => key[pkName] === partition && sortIn(section, key[skName]!) });
  if (partition === undefined) return { items: [], next: null };
  const sort = section.sort === undefined ? '' : 'prefix' in section.sort ? ` AND begins_with(${skName}, :sort)` : ` AND ${skName} = :sort`;
  const out = await deps.db.send(
    new QueryCommand({
      TableName: deps.table,
      ...(section.index ? { IndexName: section.index } : { ConsistentRead: true }),
      KeyConditionExpression: `${pkName} = :pk${sort}`,
      ExpressionAttributeValues: {
        ':pk': partition,
        ...(section.sort ? { ':sort': 'prefix' in section.sort ? section.sort.prefix : section.sort.equals } : {}),
      },
      ExclusiveStartKey: start,
      Limit: limit + 1,
    }),
  );
  const listed = out.Items ?? [];
  const page = listed.slice(0, limit);
  // More than a page read: the page ends at its last item. Else DynamoDB's own LastEvaluatedKey, when its 1 MB
  // read stopped short of the limit.
  const last = listed.length > limit ? keyOf(page.at(-1)!, attributes) : (out.LastEvaluatedKey as StartKey | undefined);
  return { items: await recordsOf(deps, kind, page), next: last ? encodeCursor(deps, who.uid, name, last) : null };
}

/** Whether a cursor's sort key is one the section's read covers (DynamoDB refuses a start key outside it). */
const sortIn = (section: Listing, sortKey: string): boolean => section.sort === undefined || fitsKey(section.sort, sortKey);

const keyOf = (item: Item, attributes: readonly string[]): StartKey => Object.fromEntries(attributes.map((name) => [name, String(item[name])]));
