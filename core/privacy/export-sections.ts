import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { playerRewardsPartition } from '../identity/accounts.js';
import { readItems, type Item, type ItemKey } from '../platform/batch.js';
import type { PlatformDeps } from '../platform/deps.js';
import { PLAYER_ITEMS_INDEX, playerItemsPartition } from '../platform/players.js';
import { toScoreItem } from '../rankings/reports.js';
import { decodeCursor, encodeCursor, type StartKey } from '../platform/cursors.js';
import { exportedItem } from './exported-items.js';
import { userPartition } from './footprint.js';
import type { ExportedScore, ExportSection } from './models.js';

/**
 * The long sections of a player's export, each read a page at a time by one Query of the player's own
 * partition of the table or of an index (the same ones core/privacy/footprint.ts reads to delete them), so
 * nothing of another player can be on a page:
 * - ledger: `USER#<uid>`, sort keys `LEDGER#…`;
 * - orders: gsi1 `USER_ORDERS#<uid>` (pay orders, with the App Store and Google Play purchases that paid them);
 * - payments: gsi2 `PAYER#<the account's address>` (the payment events the wallet paid);
 * - vendor_orders, vendor_rewards: the ledger entries `LEDGER#goods#<id>`, `LEDGER#reward#<billNo>`, and the
 *   goods orders and reward records they name (BatchGetItem);
 * - history: gsi1 `REWARDS#<uid>` (reward history entries, with their claims);
 * - scores: gsi6 `PLAYER_ITEMS#<uid>`, kind `SCORE` (keys only), and the score items they name (BatchGetItem).
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

interface Section {
  /** The index the section is listed from; the table itself when absent. */
  index?: 'gsi1' | 'gsi2' | typeof PLAYER_ITEMS_INDEX;
  /** The player's partition of it; none when the player has none (no account: no address, no payments). */
  partition: (who: Who) => string | undefined;
  /** Which sort keys of the partition: all, those that begin with `prefix`, or the one equal to `equals`. */
  sort?: { prefix: string } | { equals: string };
  /** The listed items as exported records (some sections list keys, and export what those lead to). */
  records: (deps: Pick<PlatformDeps, 'db' | 'table'>, listed: Item[]) => Promise<unknown[]>;
}

const asStored = async (_deps: unknown, items: Item[]) => items.map(exportedItem);

/** The records a page of ledger entries of one kind (`goods`, `reward`) names, by the ref after the kind. */
const named = (kind: string, keyOf: (ref: string) => ItemKey) => async (deps: Pick<PlatformDeps, 'db' | 'table'>, entries: Item[]) =>
  (
    await present(
      deps,
      entries.map((entry) => keyOf(String(entry.sk).slice(`LEDGER#${kind}#`.length))),
    )
  ).map(exportedItem);

const sections: Record<ExportSection, Section> = {
  ledger: { partition: ({ uid }) => userPartition(uid), sort: { prefix: 'LEDGER#' }, records: asStored },
  orders: { index: 'gsi1', partition: ({ uid }) => `USER_ORDERS#${uid}`, records: asStored },
  payments: { index: 'gsi2', partition: ({ address }) => (address ? `PAYER#${address}` : undefined), records: asStored },
  vendor_orders: {
    partition: ({ uid }) => userPartition(uid),
    sort: { prefix: 'LEDGER#goods#' },
    records: named('goods', (id) => ({ pk: `VORDER#${id}`, sk: 'VORDER' })),
  },
  vendor_rewards: {
    partition: ({ uid }) => userPartition(uid),
    sort: { prefix: 'LEDGER#reward#' },
    records: named('reward', (billNo) => ({ pk: `BILL#${billNo}`, sk: 'REWARD' })),
  },
  history: { index: 'gsi1', partition: ({ uid }) => playerRewardsPartition(uid), records: asStored },
  scores: {
    index: PLAYER_ITEMS_INDEX,
    partition: ({ uid }) => playerItemsPartition(uid),
    sort: { equals: 'SCORE' },
    records: async (deps, keys) =>
      (
        await present(
          deps,
          keys.map((key) => ({ pk: String(key.pk), sk: String(key.sk) })),
        )
      ).map(toExportedScore),
  },
};

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
  const section = sections[name];
  const partition = section.partition(who);
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
  return { items: await section.records(deps, page), next: last ? encodeCursor(deps, who.uid, name, last) : null };
}

/** Whether a cursor's sort key is one the section's read covers (DynamoDB refuses a start key outside it). */
function sortIn(section: Section, sortKey: string): boolean {
  if (section.sort === undefined) return true;
  return 'prefix' in section.sort ? sortKey.startsWith(section.sort.prefix) : sortKey === section.sort.equals;
}

const keyOf = (item: Item, attributes: readonly string[]): StartKey => Object.fromEntries(attributes.map((name) => [name, String(item[name])]));

async function present(deps: Pick<PlatformDeps, 'db' | 'table'>, keys: ItemKey[]): Promise<Item[]> {
  if (keys.length === 0) return [];
  return (await readItems(deps, keys)).filter((item): item is Item => item !== undefined);
}

function toExportedScore(item: Item): ExportedScore {
  const score = toScoreItem(item);
  return {
    game_code: score.game_code,
    season_type: score.season_type,
    season_range: score.season_range,
    name: score.game_player_name,
    kills: score.kills,
    wins: score.wins,
    wallet_address: score.wallet_address ?? null,
  };
}
