import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod/mini';
import { objectOf } from '../shared/records.js';
import { VendorPaymentEvent } from './models.js';
import type { ChainDeps } from './deps.js';
import { conditionHeld } from '../platform/conditional-failure.js';
import { readItems } from '../platform/batch.js';
import { logError } from '../platform/log.js';
import { cursorKey } from './keys.js';
import { canonicalType } from './names.js';
import type { ChainEvent, EventCursor, EventPage } from './types.js';
import { wait } from '../platform/loop.js';
import { AGAIN, retrying } from '../platform/retry.js';

/**
 * The chain indexer (docs/api.md, "Chain sources and reads"): for each Move event type it has a handler for, reads
 * the events after the type's stored cursor, oldest first, a page at a time, hands each event to the handler in order
 * and then saves the cursor after the page.
 *
 * - Resumes where it stopped: the cursor is in the table (pk `CURSOR#<eventType>`, sk `CURSOR`).
 * - Never stores twice: the cursor moves only after every event of the page was handled, so a crash mid-page
 *   re-reads that page, and handlers are idempotent (storePaymentEvent writes each event's own key once).
 * - Survives a failing node: a page that fails is retried with exponential backoff; after the last attempt
 *   that type stops for this run with its cursor where it was, and the next run tries again.
 * - Concurrent runs (a slow run overlapping the next scheduled one) are safe: the cursor is saved on condition
 *   that it is still the version this run read, so a run that finds another ahead of it stops that type.
 * New event kinds (e.g. reward claims) are new entries in `handlers`; the loop does not change.
 */

/** What to do with one event; it must be idempotent (a page may be handled again after a crash). */
export type EventHandler<D extends IndexerDeps = IndexerDeps> = (deps: D, event: ChainEvent) => Promise<void>;
export type IndexerDeps = Pick<ChainDeps, 'db' | 'table' | 'now' | 'chain'>;

export interface IndexerOptions<D extends IndexerDeps = IndexerDeps> {
  /** Event type (fully qualified Move type) -> what to do with each of its events. */
  handlers: Record<string, EventHandler<D>>;
  /** Pages per event type per run; default 100. */
  maxPages?: number;
  /** Epoch ms after which no new page or retry is started (a Lambda's remaining time). */
  deadline?: number;
  /** Waits between retries; tests pass one that does not wait. */
  sleep?: (ms: number) => Promise<void>;
  /** Attempts per page before the type gives up for this run; default 4. */
  attempts?: number;
  /** First retry delay, doubled at each further retry; default 500 ms. */
  backoffMs?: number;
  /** Stops the run between pages (the local loop's stop()). */
  signal?: AbortSignal;
}

/** The options that bound a run, whatever its handlers. */
type RunLimits = Omit<IndexerOptions, 'handlers'>;

/** Why a type stopped in this run. */
export type StopReason = 'caught-up' | 'max-pages' | 'deadline' | 'aborted' | 'node-error' | 'handler-error' | 'overtaken';

export interface TypeSummary {
  pages: number;
  events: number;
  errors: number;
  stopped: StopReason;
}

/** Events per page: the most a JSON-RPC node or the GraphQL service serves in one. */
const PAGE_SIZE = 50;
const DEFAULT_MAX_PAGES = 100;
const DEFAULT_ATTEMPTS = 4;
const DEFAULT_BACKOFF_MS = 500;

/** One pass over every handled event type (in parallel: one slow type does not hold the others up). */
export async function indexEvents<D extends IndexerDeps>(deps: D, options: IndexerOptions<D>): Promise<Record<string, TypeSummary>> {
  if (!deps.chain) return {};
  const types = Object.keys(options.handlers);
  const summaries = await Promise.all(types.map((type) => indexType(deps, type, options)));
  return Object.fromEntries(types.map((type, i) => [type, summaries[i]!]));
}

async function indexType<D extends IndexerDeps>(deps: D, eventType: string, options: IndexerOptions<D>): Promise<TypeSummary> {
  const chain = deps.chain!;
  const handler = options.handlers[eventType]!;
  const maxPages = options.maxPages ?? DEFAULT_MAX_PAGES;
  const summary: TypeSummary = { pages: 0, events: 0, errors: 0, stopped: 'caught-up' };
  let { cursor, version } = await readCursor(deps, eventType);
  if (cursor && !fits(cursor, chain.config.kind)) {
    // The stage switched between JSON-RPC and GraphQL: their cursors do not translate, so the stream is read
    // again from its start. Nothing is stored twice (handlers are idempotent); it only costs the re-reading.
    await logError('chain indexer: stored cursor is of the other source kind; reading from the start', { eventType, kind: chain.config.kind });
    cursor = null;
  }

  for (;;) {
    const halt = haltReason(options, summary.pages, maxPages);
    if (halt) return { ...summary, stopped: halt };

    const page = await fetchPage(deps, eventType, cursor, options, summary);
    if (typeof page === 'string') return { ...summary, stopped: page };
    summary.pages++;

    try {
      for (const event of page.events) {
        await handler(deps, event);
        summary.events++;
      }
    } catch (error) {
      // The cursor stays before this page: the next run reads it again and the handler skips what it did.
      summary.errors++;
      await logError('chain indexer: handler failed; the page will be read again', { eventType, error: describe(error) });
      return { ...summary, stopped: 'handler-error' };
    }

    if (page.events.length > 0 && page.nextCursor) {
      const saved = await saveCursor(deps, eventType, page.nextCursor, version);
      if (saved === undefined) return { ...summary, stopped: 'overtaken' };
      cursor = page.nextCursor;
      version = saved;
    }
    if (!page.hasNextPage) return summary;
  }
}

function haltReason(options: RunLimits, pages: number, maxPages: number): StopReason | undefined {
  if (options.signal?.aborted) return 'aborted';
  if (options.deadline !== undefined && Date.now() >= options.deadline) return 'deadline';
  if (pages >= maxPages) return 'max-pages';
  return undefined;
}

/** One page, retried with exponential backoff; a StopReason when the node kept failing or time ran out. */
async function fetchPage(deps: IndexerDeps, eventType: string, cursor: EventCursor | null, options: RunLimits, summary: TypeSummary) {
  const attempts = options.attempts ?? DEFAULT_ATTEMPTS;
  const sleep = options.sleep ?? ((ms: number) => wait(ms, options.signal));
  const delay = (attempt: number) => (options.backoffMs ?? DEFAULT_BACKOFF_MS) * 2 ** (attempt - 1);
  return retrying<EventPage | 'aborted' | 'deadline' | 'node-error'>(
    async (attempt) => {
      // Stopped during the pause after a failed read.
      if (attempt > 1 && options.signal?.aborted) return 'aborted';
      try {
        return await deps.chain!.source.queryEvents(eventType, cursor, PAGE_SIZE);
      } catch (error) {
        summary.errors++;
        await logError('chain indexer: page read failed', { eventType, attempt, error: describe(error) });
        // No time left for the pause before another read.
        if (attempt < attempts && options.deadline !== undefined && Date.now() + delay(attempt) >= options.deadline) return 'deadline';
        return AGAIN;
      }
    },
    { attempts, pause: (attempt) => sleep(delay(attempt)), giveUp: () => 'node-error' },
  );
}

const fits = (cursor: EventCursor, kind: 'jsonrpc' | 'graphql') => ('graphql' in cursor ? kind === 'graphql' : kind === 'jsonrpc');

/**
 * "an event type's cursor" (cursorKey): where its stream was left, a JSON-RPC event id (as a payment record keeps
 * its own) or a GraphQL cursor, and the version each save checks.
 */
export const StoredCursor = z.lazy(() =>
  z.object({ cursor: z.union([objectOf(VendorPaymentEvent).shape.cursor, z.object({ graphql: z.string() })]), version: z.int() }),
);

/**
 * What a pass did, for its run's record (core/platform/job-runs.ts): its counts, and its checkpoint: where each
 * event type's stream is left after it (`<module>::<event>: <txDigest>#<eventSeq>`, or the GraphQL cursor),
 * read in one batch read of the types' cursors.
 */
export async function passReport(deps: Pick<IndexerDeps, 'db' | 'table'>, summaries: Record<string, TypeSummary>, failures: readonly StopReason[]) {
  const types = Object.keys(summaries);
  const list = Object.values(summaries);
  const cursors = types.length === 0 ? [] : await readItems(deps, types.map(cursorKey));
  const checkpoint = types
    .map((type, i) => {
      const stored = cursors[i] ? StoredCursor.parse(cursors[i]).cursor : null;
      const at = stored === null ? 'not started' : 'graphql' in stored ? stored.graphql : `${stored.txDigest}#${stored.eventSeq}`;
      return `${canonicalType(type).split('::').slice(-2).join('::')}: ${at}`;
    })
    .join('; ');
  const sum = (field: 'pages' | 'events' | 'errors') => list.reduce((total, summary) => total + summary[field], 0);
  return {
    did: {
      event_types: types.length,
      pages: sum('pages'),
      events: sum('events'),
      read_errors: sum('errors'),
      types_failed: list.filter((summary) => failures.includes(summary.stopped)).length,
    },
    checkpoint: types.length === 0 ? null : checkpoint,
  };
}

async function readCursor(deps: IndexerDeps, eventType: string): Promise<{ cursor: EventCursor | null; version: number }> {
  const out = await deps.db.send(new GetCommand({ TableName: deps.table, Key: cursorKey(eventType), ConsistentRead: true }));
  return out.Item ? StoredCursor.parse(out.Item) : { cursor: null, version: 0 };
}

/** Saves the cursor if no other run moved it since `version`; the new version, or undefined if one did. */
async function saveCursor(deps: IndexerDeps, eventType: string, cursor: EventCursor, version: number) {
  const saved = await conditionHeld(
    deps.db.send(
      new PutCommand({
        TableName: deps.table,
        Item: { ...cursorKey(eventType), type: 'chain_cursor', event_type: eventType, cursor, version: version + 1, updated_at: deps.now().toISOString() },
        ConditionExpression: 'attribute_not_exists(pk) OR #version = :version',
        ExpressionAttributeNames: { '#version': 'version' },
        ExpressionAttributeValues: { ':version': version },
      }),
    ),
  );
  // Another run got further; it carries on from there, and this one leaves the type to it.
  if (!saved) return undefined;
  return version + 1;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
