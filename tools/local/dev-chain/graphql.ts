import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { GraphQLError, buildSchema, graphql, type GraphQLSchema } from 'graphql';
import { type ChainState, fullCoinType, renderMoveJson, type ScriptBalanceChange, type ScriptEvent, type ScriptObject } from './chain-script.js';
import type { ExecutedTransaction } from './transactions.js';

/**
 * Sui's GraphQL service over a chain state. Queries are executed by graphql-js against the schema `@mysten/sui`
 * ships (src/graphql/generated/schema.graphql, the one `@mysten/sui/graphql/schema` types queries with), so a
 * query that names a field the real service lacks fails here as it would there, and answers have GraphQL's real
 * shape: `{data}`, connections with `pageInfo {hasNextPage, endCursor}`, `{errors: [{message, locations,
 * path}]}`. Move values are rendered as the service renders them: `vector<u8>` as Base64, u64 as text. A `first`
 * above 50 is refused, as the service's default page limit is.
 *
 * What it answers: events by type, transactions by digest (events, balance changes, status, signatures), the
 * epoch's reference gas price, an address's objects by type (its coins), and, when an executor is given (the
 * development chain), the executeTransaction mutation.
 */

const SCHEMA_PATH = fileURLToPath(new URL('../../../node_modules/@mysten/sui/src/graphql/generated/schema.graphql', import.meta.url));
let schema: GraphQLSchema | undefined;
const suiSchema = () => (schema ??= buildSchema(readFileSync(SCHEMA_PATH, 'utf8')));

const MAX_PAGE_SIZE = 50;

/** The reference gas price the development chain's epoch answers, in MIST per unit (testnet's for years). */
export const REFERENCE_GAS_PRICE = 1000n;

export interface GraphQLRequest {
  query: string;
  variables?: Record<string, unknown>;
  operationName?: string;
}

/** What the service needs beyond the state: the transactions executed here, and how to execute one. */
export interface GraphQLChain {
  state: ChainState;
  executed?: (digest: string) => ExecutedTransaction | undefined;
  execute?: (transactionDataBcs: string, signatures: string[]) => Promise<ExecutedTransaction>;
}

/** Answers one GraphQL request as the service does. */
export function answerGraphQL(chain: GraphQLChain, body: unknown) {
  const { query, variables, operationName } = (body ?? {}) as GraphQLRequest;
  return graphql({ schema: suiSchema(), source: query, variableValues: variables ?? null, operationName: operationName ?? null, rootValue: root(chain) });
}

/** The service's answer when its store fails: status 200, no data, one error with an extensions code. */
export const graphQLStoreFailure = () => ({
  data: null,
  errors: [{ message: 'Internal error occurred while processing request', extensions: { code: 'INTERNAL_SERVER_ERROR' } }],
});

interface PageArgs {
  first?: number | null;
  after?: string | null;
}

/** Resolvers: graphql-js calls a function-valued field with its arguments. */
function root(chain: GraphQLChain) {
  const { state } = chain;
  const transactionNode = (digest: string) => {
    const events = state.transaction(digest);
    const executed = chain.executed?.(digest);
    if (!events && !executed) return null;
    return renderTransaction(state, digest, events ?? [], executed);
  };
  return {
    events: (args: PageArgs & { filter?: { type?: string } | null }) => {
      const type = args.filter?.type;
      const events = type ? state.events.filter((e) => e.type === type) : state.events;
      return connection(events, args, (event) => ({ ...eventNode(event), transaction: { digest: event.txDigest } }));
    },
    transaction: ({ digest }: { digest: string }) => transactionNode(digest),
    epoch: () => ({ epochId: 1, referenceGasPrice: REFERENCE_GAS_PRICE.toString() }),
    address: ({ address }: { address: string }) => ({
      address,
      objects: (args: PageArgs & { filter?: { type?: string } | null }) => {
        const type = args.filter?.type && fullCoinType(args.filter.type);
        const owned = [...state.objects.values()].filter(
          (object) => object.owner.kind === 'ADDRESS' && object.owner.address === address && (!type || object.type === type),
        );
        return connection(owned, args, objectNode);
      },
    }),
    executeTransaction: async ({ transactionDataBcs, signatures }: { transactionDataBcs: string; signatures: string[] }) => {
      if (!chain.execute) throw new GraphQLError('Transaction execution is not served here', { extensions: { code: 'BAD_USER_INPUT' } });
      const executed = await chain.execute(transactionDataBcs, signatures);
      return { effects: { transaction: transactionNode(executed.digest) } };
    },
  };
}

/** A transaction as TRANSACTION_FIELDS reads it: digest, signatures and effects (status, time, events, balance changes). */
function renderTransaction(state: ChainState, digest: string, events: ScriptEvent[], executed: ExecutedTransaction | undefined) {
  const changes = state.balanceChanges.get(digest) ?? [];
  const timestampMs = executed?.timestampMs ?? Number(events[0]?.timestampMs ?? Date.UTC(2026, 0, 1));
  return {
    digest,
    signatures: (executed?.signatures ?? []).map((signatureBytes) => ({ signatureBytes })),
    effects: {
      status: executed?.error ? 'FAILURE' : 'SUCCESS',
      timestamp: new Date(timestampMs).toISOString(),
      checkpoint: { sequenceNumber: 1000 },
      epoch: { epochId: 1 },
      executionError: executed?.error
        ? {
            message: executed.error.message,
            abortCode: executed.error.abortCode?.toString() ?? null,
            module: executed.error.module ? { name: executed.error.module, package: { address: executed.error.package } } : null,
            function: executed.error.function ? { name: executed.error.function } : null,
          }
        : null,
      events: (args: PageArgs) => connection(events, args, eventNode),
      balanceChanges: (args: PageArgs) => connection(changes, args, balanceChangeNode),
      // gRPC's BalanceChange as JSON, which the SDK reads for `include: {balanceChanges}`.
      balanceChangesJson: changes.map((change) => ({ address: change.owner, coinType: fullCoinType(change.coinType), amount: change.amount })),
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

/** A MoveObject: id, version, digest, owner (the Owner union, by __typename) and contents. */
function objectNode(object: ScriptObject) {
  const owner = object.owner;
  return {
    address: object.objectId,
    version: object.version,
    digest: object.digest,
    owner:
      owner.kind === 'ADDRESS'
        ? { __typename: 'AddressOwner', address: { address: owner.address } }
        : owner.kind === 'SHARED'
          ? { __typename: 'Shared', initialSharedVersion: 1 }
          : owner.kind === 'IMMUTABLE'
            ? { __typename: 'Immutable' }
            : owner.kind === 'OBJECT'
              ? { __typename: 'ObjectOwner', address: { address: owner.address } }
              : { __typename: 'ConsensusAddressOwner', startVersion: 1, address: { address: owner.address } },
    contents: { json: renderMoveJson(object.fields, object.layout), type: { repr: object.type, layout: object.layout } },
  };
}
