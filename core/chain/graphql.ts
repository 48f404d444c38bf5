import { SuiGraphQLClient, type GraphQLQueryResult } from '@mysten/sui/graphql';
import { graphql, type ResultOf } from '@mysten/sui/graphql/schema';
import { isValidTransactionDigest } from '@mysten/sui/utils';
import { ChainNodeError, nodeFailure } from './errors.js';
import { canonicalType, networkOf } from './names.js';
import type { BalanceChange, ChainEvent, ChainSource, EventCursor } from './types.js';

/**
 * The chain source on Sui's GraphQL service (the successor of JSON-RPC, and the default source), through
 * `@mysten/sui`'s GraphQL client. Queries are written against the schema the SDK ships (`graphql` from
 * `@mysten/sui/graphql/schema` checks every field at compile time). Events come out exactly as the JSON-RPC
 * source gives them, so the indexer, the stored records and their keys do not depend on which source a
 * stage uses.
 */

/** The service's default maximum page size; it refuses (not caps) a larger `first`. */
export const MAX_PAGE = 50;

const EventFields = graphql(`
  fragment EventFields on Event @_unmask {
    sequenceNumber
    timestamp
    sender { address }
    contents { json type { repr layout } }
  }
`);

const EventsQuery = graphql(
  `
  query Events($type: String!, $first: Int!, $after: String) {
    events(first: $first, after: $after, filter: { type: $type }) {
      pageInfo { hasNextPage endCursor }
      nodes { ...EventFields transaction { digest } }
    }
  }
`,
  [EventFields],
);

const TransactionEventsQuery = graphql(
  `
  query TransactionEvents($digest: String!, $first: Int!, $after: String) {
    transaction(digest: $digest) {
      digest
      effects {
        events(first: $first, after: $after) {
          pageInfo { hasNextPage endCursor }
          nodes { ...EventFields }
        }
      }
    }
  }
`,
  [EventFields],
);

const BalanceChangesQuery = graphql(`
  query TransactionBalanceChanges($digest: String!, $first: Int!, $after: String) {
    transaction(digest: $digest) {
      digest
      effects {
        balanceChanges(first: $first, after: $after) {
          pageInfo { hasNextPage endCursor }
          nodes { amount coinType { repr } owner { address } }
        }
      }
    }
  }
`);

type EventNode = ResultOf<typeof EventFields>;
type BalanceChangeNode = NonNullable<
  NonNullable<NonNullable<ResultOf<typeof BalanceChangesQuery>['transaction']>['effects']>['balanceChanges']
>['nodes'][number];

export function graphqlSource(url: string, { timeoutMs }: { timeoutMs: number }): ChainSource {
  const client = new SuiGraphQLClient({ url, network: networkOf(url) });

  /** Awaits a query; GraphQL reports failures in `errors` with status 200, so those are node errors too. */
  async function run<R>(what: string, request: (signal: AbortSignal) => Promise<GraphQLQueryResult<R>>): Promise<R> {
    let result: GraphQLQueryResult<R>;
    try {
      result = await request(AbortSignal.timeout(timeoutMs));
    } catch (error) {
      throw nodeFailure(what, error, timeoutMs);
    }
    if (result.errors?.length) throw new ChainNodeError(`${what}: ${result.errors.map((e) => e.message).join('; ')}`);
    if (!result.data) throw new ChainNodeError(`${what}: the service answered without data`);
    return result.data;
  }

  return {
    async queryEvents(eventType, cursor, limit) {
      if (cursor && !('graphql' in cursor)) throw new ChainNodeError('a GraphQL service cannot resume from a JSON-RPC cursor');
      const first = Math.min(Math.max(1, Math.floor(limit)), MAX_PAGE);
      const after = cursor?.graphql ?? null;
      const data = await run('events', (signal) => client.query({ query: EventsQuery, variables: { type: eventType, first, after }, signal }));
      const connection = data.events;
      if (!connection) throw new ChainNodeError('events: the service answered without an event connection');
      const events = connection.nodes.map((node) => toChainEvent(node, node.transaction?.digest));
      const { endCursor, hasNextPage } = connection.pageInfo;
      // An empty page has no end cursor: the next page still starts where this one did.
      const nextCursor: EventCursor | null = endCursor ? { graphql: endCursor } : cursor;
      return { events, nextCursor, hasNextPage };
    },

    async transactionEvents(digest) {
      if (!isValidTransactionDigest(digest)) return undefined;
      const events: ChainEvent[] = [];
      let after: string | null = null;
      // A transaction may emit up to 1,024 events: read them all, a page at a time.
      for (;;) {
        const data: ResultOf<typeof TransactionEventsQuery> = await run('transaction', (signal) =>
          client.query({ query: TransactionEventsQuery, variables: { digest, first: MAX_PAGE, after }, signal }),
        );
        if (!data.transaction) return undefined;
        const connection = data.transaction.effects?.events;
        if (!connection) return events;
        events.push(...connection.nodes.map((node) => toChainEvent(node, data.transaction!.digest)));
        if (!connection.pageInfo.hasNextPage || !connection.pageInfo.endCursor) return events;
        after = connection.pageInfo.endCursor;
      }
    },

    async balanceChanges(digest) {
      if (!isValidTransactionDigest(digest)) return undefined;
      const changes: BalanceChange[] = [];
      let after: string | null = null;
      for (;;) {
        const data: ResultOf<typeof BalanceChangesQuery> = await run('transaction balance changes', (signal) =>
          client.query({ query: BalanceChangesQuery, variables: { digest, first: MAX_PAGE, after }, signal }),
        );
        if (!data.transaction) return undefined;
        const connection = data.transaction.effects?.balanceChanges;
        if (!connection) return changes;
        changes.push(...connection.nodes.map(toBalanceChange));
        if (!connection.pageInfo.hasNextPage || !connection.pageInfo.endCursor) return changes;
        after = connection.pageInfo.endCursor;
      }
    },
  };
}

/** A GraphQL balance change in the JSON-RPC source's conventions (owner and coin type in full, amount as text). */
function toBalanceChange(node: BalanceChangeNode): BalanceChange {
  const amount = node.amount as unknown;
  const coinType = node.coinType?.repr;
  const text = typeof amount === 'string' || typeof amount === 'number' ? String(amount) : '';
  if (!coinType || !/^-?\d+$/.test(text)) throw new ChainNodeError('the service answered a balance change without its coin type or an integer amount');
  const owner = node.owner?.address as string | undefined;
  const address = typeof owner === 'string' && /^0x[0-9a-fA-F]{1,64}$/.test(owner) ? `0x${owner.slice(2).toLowerCase().padStart(64, '0')}` : '';
  return { owner: address, coinType: canonicalType(coinType), amount: text };
}

/** A GraphQL event as a ChainEvent, in the JSON-RPC source's conventions. */
function toChainEvent(node: EventNode, txDigest: string | undefined): ChainEvent {
  const type = node.contents?.type?.repr;
  if (!txDigest || !type) throw new ChainNodeError('the service answered an event without its transaction digest or type');
  const json = withByteArrays(node.contents?.json, node.contents?.type?.layout);
  const millis = node.timestamp ? Date.parse(node.timestamp as string) : NaN;
  return {
    type: canonicalType(type),
    txDigest,
    // The event's position among its transaction's events: JSON-RPC's eventSeq.
    eventSeq: String(node.sequenceNumber),
    sender: (node.sender?.address as string | undefined) ?? '',
    parsedJson: isObject(json) ? json : {},
    ...(Number.isFinite(millis) ? { timestampMs: String(millis) } : {}),
  };
}

/**
 * GraphQL renders a `vector<u8>` as Base64 text where JSON-RPC's parsedJson has an array of numbers; every
 * other value (u64 as decimal text, addresses, strings, structs) is rendered alike. The event type's layout
 * says which fields are byte vectors, so they are turned back into arrays: a bill number sent as bytes then
 * reads the same from either source, and is stored under the same key.
 */
function withByteArrays(value: unknown, layout: unknown): unknown {
  if (!isObject(layout)) return value;
  if ('vector' in layout) {
    if (layout.vector === 'u8' && typeof value === 'string') return [...Buffer.from(value, 'base64')];
    return Array.isArray(value) ? value.map((item) => withByteArrays(item, layout.vector)) : value;
  }
  const struct = layout.struct as { fields?: { name: string; layout: unknown }[] } | undefined;
  if (struct?.fields && isObject(value)) {
    const layouts = new Map(struct.fields.map((field) => [field.name, field.layout]));
    return Object.fromEntries(Object.entries(value).map(([name, field]) => [name, withByteArrays(field, layouts.get(name))]));
  }
  return value;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
