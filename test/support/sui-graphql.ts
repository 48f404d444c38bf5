import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { GraphQLError, buildSchema, graphql, type GraphQLSchema } from 'graphql';
import { ChainScript, fullCoinType, renderMoveJson, startLoopback, type Loopback, type ScriptBalanceChange, type ScriptEvent } from './sui-node.js';

/**
 * A loopback Sui GraphQL service over a chain script. Queries are executed by graphql-js against the schema
 * `@mysten/sui` ships (src/graphql/generated/schema.graphql, the one `@mysten/sui/graphql/schema` types
 * queries with), so a query that names a field the real service lacks fails here as it would there, and answers have GraphQL's real shape: `{data}`, connections with
 * `pageInfo {hasNextPage, endCursor}`, `{errors: [{message, locations, path}]}`. Move values are rendered as
 * the service renders them: `vector<u8>` as Base64, u64 as text. A `first` above 50 is refused, as the
 * service's default page limit is.
 */

const SCHEMA_PATH = fileURLToPath(new URL('../../node_modules/@mysten/sui/src/graphql/generated/schema.graphql', import.meta.url));
let schema: GraphQLSchema | undefined;
const suiSchema = () => (schema ??= buildSchema(readFileSync(SCHEMA_PATH, 'utf8')));

const MAX_PAGE_SIZE = 50;

export interface SuiGraphQL extends Loopback {
  script: ChainScript;
  /** The logged queries with their variables. */
  queries(): { n: number; query: string; variables: Record<string, unknown> }[];
}

interface GraphQLRequest {
  query: string;
  variables?: Record<string, unknown>;
  operationName?: string;
}

export async function startSuiGraphQL(script = new ChainScript()): Promise<SuiGraphQL> {
  const loopback = await startLoopback(
    async (body) => {
      const { query, variables, operationName } = (body ?? {}) as GraphQLRequest;
      return graphql({ schema: suiSchema(), source: query, variableValues: variables ?? null, operationName: operationName ?? null, rootValue: root(script) });
    },
    // The service's answer when its store fails: status 200, no data, one error with an extensions code.
    () => ({ data: null, errors: [{ message: 'Internal error occurred while processing request', extensions: { code: 'INTERNAL_SERVER_ERROR' } }] }),
  );
  return {
    ...loopback,
    script,
    queries: () => loopback.requests.map((r) => ({ n: r.n, query: (r.body as GraphQLRequest).query, variables: (r.body as GraphQLRequest).variables ?? {} })),
  };
}

interface PageArgs {
  first?: number | null;
  after?: string | null;
}

/** Resolvers: graphql-js calls a function-valued field with its arguments. */
function root(script: ChainScript) {
  return {
    events: (args: PageArgs & { filter?: { type?: string } | null }) => {
      const type = args.filter?.type;
      const events = type ? script.events.filter((e) => e.type === type) : script.events;
      return connection(events, args, (event) => ({ ...eventNode(event), transaction: { digest: event.txDigest } }));
    },
    transaction: ({ digest }: { digest: string }) => {
      const events = script.transaction(digest);
      if (!events) return null;
      return {
        digest,
        effects: {
          events: (args: PageArgs) => connection(events, args, eventNode),
          balanceChanges: (args: PageArgs) => connection(script.balanceChanges.get(digest) ?? [], args, balanceChangeNode),
        },
      };
    },
  };
}

/** A forward connection over `items`; the cursor is the item's index, opaque to the client. */
function connection<T>(items: T[], { first, after }: PageArgs, node: (item: T) => unknown) {
  const size = first ?? MAX_PAGE_SIZE;
  if (size > MAX_PAGE_SIZE)
    throw new GraphQLError(`Connection's page size of ${size} exceeds max of ${MAX_PAGE_SIZE}`, { extensions: { code: 'BAD_USER_INPUT' } });
  const start = after ? decodeCursor(after) + 1 : 0;
  const page = items.slice(start, start + size);
  const cursors = page.map((_, i) => encodeCursor(start + i));
  return {
    edges: page.map((item, i) => ({ cursor: cursors[i], node: node(item) })),
    nodes: page.map(node),
    pageInfo: {
      hasNextPage: items.length > start + size,
      hasPreviousPage: start > 0,
      startCursor: cursors[0] ?? null,
      endCursor: cursors.at(-1) ?? null,
    },
  };
}

const encodeCursor = (index: number) => Buffer.from(JSON.stringify({ i: index })).toString('base64');
function decodeCursor(cursor: string): number {
  try {
    const { i } = JSON.parse(Buffer.from(cursor, 'base64').toString('utf8')) as { i: unknown };
    if (typeof i === 'number' && Number.isInteger(i)) return i;
  } catch {
    // fall through
  }
  throw new GraphQLError(`Failed to parse "String" value: invalid cursor`, { extensions: { code: 'BAD_USER_INPUT' } });
}

function eventNode(event: ScriptEvent) {
  return {
    sequenceNumber: event.eventSeq,
    timestamp: new Date(Number(event.timestampMs)).toISOString(),
    sender: { address: event.sender },
    contents: { json: renderMoveJson(event.parsedJson, event.layout), type: { repr: event.type, layout: event.layout } },
  };
}

/** GraphQL's BalanceChange: the owner as an Address, the coin type's repr with every address in full. */
function balanceChangeNode(change: ScriptBalanceChange) {
  return { owner: { address: change.owner }, coinType: { repr: fullCoinType(change.coinType) }, amount: change.amount };
}
