import { ScanCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type * as z from 'zod/mini';
import { conditionHeld } from './conditional-failure.js';
import type { PlatformDeps } from './deps.js';
import { tableDefinition } from './table.js';

/**
 * The one-off pass that gives items written before an index the keys the writes of this version set on them
 * (docs/data-model.md "Items written before an index"; `npm run admin -- backfill-indexes`). Each domain
 * describes its kinds of items (indexBackfill) in a module beside its keys, `<domain>/…-backfill.ts`, computing them
 * with the function its writes use; this module scans and writes, knowing no domain.
 *
 * An update only adds the kind's index attributes, on condition the item is still there, still of its kind,
 * still without them, and still holds the values the keys were computed from. So it never overwrites what a live
 * write set meanwhile, running it again changes nothing, and it writes no other attribute.
 */

/** Which items are of a kind: those with this `type` attribute, or (kinds whose items have none) keys starting so. */
type KindMatch = { type: string } | { pkPrefix: string; skPrefix: string };

/** What a kind's item needs: the keys its write sets now, none (that write sets none on it), or its source unreadable. */
type Needed = { keys: Record<string, string> } | { none: true } | { unreadable: string };

export interface IndexBackfill {
  /** The kind's name in the summary. */
  readonly kind: string;
  readonly match: KindMatch;
  /** The top-level attributes the keys are computed from: what the Scan reads of an item beside its keys, type and index attributes. */
  readonly reads: readonly string[];
  needed(item: Record<string, unknown>): Needed;
}

/**
 * A kind of items and the index keys of its write: `source` parses what the keys are computed from (the item's
 * model, picked), `keys` is the write's own key function applied to it (undefined when the write sets none).
 */
export function indexBackfill<Source extends z.ZodMiniObject>(spec: {
  kind: string;
  match: KindMatch;
  source: Source;
  keys: (source: z.infer<Source>) => Record<string, string> | undefined;
}): IndexBackfill {
  return {
    kind: spec.kind,
    match: spec.match,
    reads: Object.keys(spec.source.shape),
    needed(item) {
      const parsed = spec.source.safeParse(item);
      if (!parsed.success) return { unreadable: parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ') };
      const keys = spec.keys(parsed.data);
      return keys === undefined ? { none: true } : { keys };
    },
  };
}

/** What the pass did with one kind's items (with `dryRun`, `updated` counts the items it would have updated). */
export interface BackfillCounts {
  /** Items of the kind the Scan read. */
  scanned: number;
  updated: number;
  /** Items that had the keys already (written by this version, or by an earlier run). */
  already_set: number;
  /** Items the kind's write gives no keys (a result record naming no player). */
  without_keys: number;
  /** Items whose source attributes do not parse: left as they are, each reported through `onUnreadable`. */
  unreadable: number;
  /** Updates refused by their condition: the item changed, went or got its keys between the Scan and the update. */
  changed_meanwhile: number;
}

export interface BackfillOptions {
  dryRun?: boolean;
  /** Parallel Scan segments. */
  segments?: number;
  /** Items each Scan request evaluates at most (before the filter): a page's updates finish before the next page. */
  pageItems?: number;
  /** Updates in flight at once, across all segments; the SDK retries a throttled one with its back-off. */
  concurrentUpdates?: number;
  onUnreadable?: (kind: string, key: { pk: string; sk: string }, problem: string) => void;
}

const DEFAULTS = { segments: 4, pageItems: 200, concurrentUpdates: 8 };

/** Runs the pass over the whole table for `kinds`; the counts by kind. */
export async function backfillIndexes(
  deps: Pick<PlatformDeps, 'db' | 'table'>,
  kinds: readonly IndexBackfill[],
  options: BackfillOptions = {},
): Promise<Record<string, BackfillCounts>> {
  const { segments, pageItems, concurrentUpdates } = { ...DEFAULTS, ...options };
  const counts = Object.fromEntries(
    kinds.map((kind) => [kind.kind, { scanned: 0, updated: 0, already_set: 0, without_keys: 0, unreadable: 0, changed_meanwhile: 0 }]),
  );
  const scan = scanOf(deps.table, kinds, pageItems);
  const slot = slots(concurrentUpdates);

  const visit = async (item: Record<string, unknown>) => {
    const kind = kinds.find((candidate) => matches(candidate.match, item));
    if (!kind) return;
    const count = counts[kind.kind]!;
    count.scanned++;
    const needed = kind.needed(item);
    if ('unreadable' in needed) {
      count.unreadable++;
      options.onUnreadable?.(kind.kind, { pk: String(item.pk), sk: String(item.sk) }, needed.unreadable);
      return;
    }
    if ('none' in needed) {
      count.without_keys++;
      return;
    }
    if (Object.keys(needed.keys).every((name) => name in item)) {
      count.already_set++;
      return;
    }
    if (options.dryRun) {
      count.updated++;
      return;
    }
    const written = await slot(() => setKeys(deps, kind, item, needed.keys));
    if (written) count.updated++;
    else count.changed_meanwhile++;
  };

  await Promise.all(
    Array.from({ length: segments }, async (_, segment) => {
      let start: Record<string, unknown> | undefined;
      do {
        const out = await deps.db.send(new ScanCommand({ ...scan, Segment: segment, TotalSegments: segments, ExclusiveStartKey: start }));
        await Promise.all((out.Items ?? []).map(visit));
        start = out.LastEvaluatedKey;
      } while (start);
    }),
  );
  return counts;
}

const matches = (match: KindMatch, item: Record<string, unknown>) =>
  'type' in match ? item.type === match.type : String(item.pk).startsWith(match.pkPrefix) && String(item.sk).startsWith(match.skPrefix);

/** The Scan of every kind's items at once (one read of the table), projected to what the pass reads. */
function scanOf(table: string, kinds: readonly IndexBackfill[], pageItems: number) {
  const indexAttributes = Object.values(tableDefinition.indexes).flat();
  const attributes = [...new Set(['pk', 'sk', 'type', ...indexAttributes, ...kinds.flatMap((kind) => kind.reads)])];
  const names: Record<string, string> = Object.fromEntries(attributes.map((name, i) => [`#a${i}`, name]));
  const alias = (name: string) => `#a${attributes.indexOf(name)}`;
  const values: Record<string, string> = {};
  const terms = kinds.map(({ match }, i) => {
    if ('type' in match) {
      values[`:t${i}`] = match.type;
      return `${alias('type')} = :t${i}`;
    }
    values[`:p${i}`] = match.pkPrefix;
    values[`:s${i}`] = match.skPrefix;
    return `(begins_with(${alias('pk')}, :p${i}) AND begins_with(${alias('sk')}, :s${i}))`;
  });
  return {
    TableName: table,
    Limit: pageItems,
    FilterExpression: terms.join(' OR '),
    ProjectionExpression: Object.keys(names).join(', '),
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
  };
}

/**
 * Sets `keys` on the item as read; false when the condition refused it. The condition: the item is there, of
 * its kind, without any of the keys, and every scalar attribute the keys come from is as read (a map among them,
 * such as a stored answer, is written once with its item and never changed).
 */
async function setKeys(deps: Pick<PlatformDeps, 'db' | 'table'>, kind: IndexBackfill, item: Record<string, unknown>, keys: Record<string, string>) {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const terms = ['attribute_exists(pk)'];
  if ('type' in kind.match) {
    names['#type'] = 'type';
    values[':type'] = kind.match.type;
    terms.push('#type = :type');
  }
  const sets = Object.entries(keys).map(([name, value], i) => {
    names[`#k${i}`] = name;
    values[`:k${i}`] = value;
    terms.push(`attribute_not_exists(#k${i})`);
    return `#k${i} = :k${i}`;
  });
  kind.reads.forEach((name, i) => {
    const value = item[name];
    if (!['string', 'number', 'boolean'].includes(typeof value)) return;
    names[`#s${i}`] = name;
    values[`:s${i}`] = value;
    terms.push(`#s${i} = :s${i}`);
  });
  return conditionHeld(
    deps.db.send(
      new UpdateCommand({
        TableName: deps.table,
        Key: { pk: item.pk, sk: item.sk },
        UpdateExpression: `SET ${sets.join(', ')}`,
        ConditionExpression: terms.join(' AND '),
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
      }),
    ),
  );
}

/** Runs tasks with at most `size` at once; a finished task hands its slot straight to the next one waiting. */
function slots(size: number) {
  let busy = 0;
  const waiting: (() => void)[] = [];
  return async <T>(task: () => Promise<T>): Promise<T> => {
    if (busy < size) busy++;
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await task();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else busy--;
    }
  };
}
