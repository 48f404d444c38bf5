import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { toBase58 } from '@mysten/sui/utils';
import { readBody } from './read-body.js';

/**
 * A loopback Sui full node: JSON-RPC 2.0 on 127.0.0.1, answering `suix_queryEvents` and
 * `sui_getTransactionBlock` from a scripted chain, in the real node's response format, with the real node's
 * behaviours the indexer depends on: ascending order unless `descending` is true, `limit` capped at 50 (as
 * QUERY_MAX_RESULT_LIMIT), an empty page answering the cursor it was given, -32602 "Could not find the
 * referenced transaction" for an unknown digest. Failures can be switched on per request: a JSON-RPC error,
 * an HTTP 503, a dropped connection, or no answer at all (for timeouts). Every request is logged.
 *
 * The chain script (events, the transactions that emitted them, live objects) is shared with the loopback
 * GraphQL service (sui-graphql.ts) and gRPC full node (sui-grpc.ts), so every API can be asked about the
 * same chain.
 */

/** One event on the scripted chain, as the JSON-RPC node renders it, plus its type's layout for GraphQL. */
export interface ScriptEvent {
  txDigest: string;
  eventSeq: number;
  /** Fully qualified Move type, addresses in full. */
  type: string;
  sender: string;
  /** JSON-RPC's parsedJson: u64 as text, `vector<u8>` as an array of numbers. */
  parsedJson: Record<string, unknown>;
  timestampMs: string;
  /** The Move type layout (GraphQL's MoveTypeLayout), which says how GraphQL renders each field. */
  layout: unknown;
}

/** One balance change of a scripted transaction: an address gained (positive) or spent (negative) a coin. */
export interface ScriptBalanceChange {
  /** An address in full (0x and 64 hex digits). */
  owner: string;
  /** The coin type, addresses in full or short (`0x2::sui::SUI`); each server renders it as its API does. */
  coinType: string;
  /** Signed decimal text of base units. */
  amount: string;
}

/** Who owns a scripted object, in the gRPC Owner's terms (kind, and the owning address or object id). */
export type ScriptOwner = { kind: 'ADDRESS' | 'CONSENSUS_ADDRESS' | 'OBJECT'; address: string } | { kind: 'SHARED' } | { kind: 'IMMUTABLE' };

/** A live object on the scripted chain. */
export interface ScriptObject {
  /** 0x and 64 hex digits. */
  objectId: string;
  version: number;
  /** Fully qualified Move type, addresses in full. */
  type: string;
  owner: ScriptOwner;
  /** The object's fields as JSON-RPC's parsedJson renders them (u64 as text, `vector<u8>` as numbers). */
  fields: Record<string, unknown>;
  /** The type's layout, which says how the gRPC and GraphQL renderings differ (byte vectors). */
  layout: unknown;
}

/**
 * The chain: events in chain order (oldest first), transactions known to the node without events, the
 * balance changes of transactions (a transaction without scripted changes has none), and live objects by id
 * (deleting or wrapping one takes it out: a node keeps only live objects by id).
 */
export class ChainScript {
  readonly events: ScriptEvent[] = [];
  readonly quietTransactions = new Set<string>();
  readonly balanceChanges = new Map<string, ScriptBalanceChange[]>();
  readonly objects = new Map<string, ScriptObject>();
  /** Ids of objects that were live and no longer are, and why. */
  readonly goneObjects = new Map<string, 'deleted' | 'wrapped'>();

  /** Creates or writes an object (a new version when it exists). */
  putObject(object: Omit<ScriptObject, 'version'> & { version?: number }) {
    const version = object.version ?? (this.objects.get(object.objectId)?.version ?? 0) + 1;
    this.objects.set(object.objectId, { ...object, version });
    this.goneObjects.delete(object.objectId);
    return this;
  }

  /** Deletes an object, or wraps it in another (its id then names nothing live until it is unwrapped). */
  removeObject(objectId: string, how: 'deleted' | 'wrapped') {
    this.objects.delete(objectId);
    this.goneObjects.set(objectId, how);
    return this;
  }

  add(...events: ScriptEvent[]) {
    this.events.push(...events);
    return this;
  }

  /** Gives a transaction balance changes (the node then knows it, events or not). */
  changes(digest: string, ...changes: ScriptBalanceChange[]) {
    this.balanceChanges.set(digest, [...(this.balanceChanges.get(digest) ?? []), ...changes]);
    return this;
  }

  /** The events of a transaction, or undefined when the node does not know it. */
  transaction(digest: string): ScriptEvent[] | undefined {
    const events = this.events.filter((e) => e.txDigest === digest);
    return events.length > 0 || this.quietTransactions.has(digest) || this.balanceChanges.has(digest) ? events : undefined;
  }

  /**
   * A payment as a wallet makes it: the payment event (emitting coin_type as text or as a TypeName struct, or
   * not at all) and the transaction's balance changes: the payer spends the amount in the coin and gas in SUI,
   * the receiver gains the amount. `extra` adds changes (a second coin sent along).
   */
  pay(options: PaymentOptions & { coinType: string; emit?: 'string' | 'type_name' | false; extra?: ScriptBalanceChange[] }): ScriptEvent {
    const from = options.from ?? randomAddress();
    const to = options.to ?? randomAddress();
    const amount = options.amount ?? '1000000';
    const event = paymentEvent({ ...options, from, to, amount, ...(options.emit === false ? {} : { coinTypeAs: options.emit ?? 'string' }) });
    const changes: ScriptBalanceChange[] = [
      { owner: from, coinType: options.coinType, amount: `-${amount}` },
      { owner: to, coinType: options.coinType, amount },
      { owner: from, coinType: SUI, amount: '-1997880' },
      ...(options.extra ?? []),
    ];
    this.add(event).changes(event.txDigest, ...changes);
    return event;
  }
}

export const SUI = '0x2::sui::SUI';

/** A coin type in full form (64 hex digits), as GraphQL and type_name render it. */
export const fullCoinType = (type: string) => type.replace(/0x([0-9a-fA-F]{1,64})(?=::)/g, (_, hex: string) => `0x${hex.toLowerCase().padStart(64, '0')}`);

/** A coin type as JSON-RPC's balance changes render it: the framework's 0x1/0x2 short, other packages in full. */
export const rpcCoinType = (type: string) => fullCoinType(type).replace(/0x0{62}0([12])(?=::)/g, '0x$1');

/** A fresh transaction digest: 32 random bytes in base58, as Sui's are. */
export const randomDigest = () => toBase58(randomBytes(32));
export const randomAddress = () => `0x${randomBytes(32).toString('hex')}`;

export const PACKAGE = `0x${'ab'.repeat(32)}`;
export const PAYMENT_TYPE = `${PACKAGE}::pay::PaymentEvent`;

const u8Vector = { vector: 'u8' };
const moveString = { struct: { type: `0x${'0'.repeat(63)}1::string::String`, fields: [{ name: 'bytes', layout: u8Vector }] } };

const asciiString = { struct: { type: `0x${'0'.repeat(63)}1::ascii::String`, fields: [{ name: 'bytes', layout: u8Vector }] } };
const typeName = { struct: { type: `0x${'0'.repeat(63)}1::type_name::TypeName`, fields: [{ name: 'name', layout: asciiString }] } };

/**
 * The layout of our payment event, with bill_no as a Move String or as vector<u8>, and optionally coin_type
 * as a Move String or as a `std::type_name::TypeName`.
 */
export function paymentLayout(type: string, billNoAs: 'string' | 'bytes', coinTypeAs?: 'string' | 'type_name') {
  return {
    struct: {
      type,
      fields: [
        { name: 'bill_no', layout: billNoAs === 'bytes' ? u8Vector : moveString },
        { name: 'amount', layout: 'u64' },
        { name: 'from', layout: 'address' },
        { name: 'to', layout: 'address' },
        ...(coinTypeAs ? [{ name: 'coin_type', layout: coinTypeAs === 'string' ? moveString : typeName }] : []),
      ],
    },
  };
}

let clock = Date.UTC(2026, 0, 1);

export interface PaymentOptions {
  billNo: string;
  amount?: string;
  from?: string;
  to?: string;
  /** Send bill_no as vector<u8> (UTF-8 bytes) instead of a Move String. */
  billNoAsBytes?: boolean;
  txDigest?: string;
  eventSeq?: number;
  type?: string;
}

/**
 * A payment event in our layout; a new transaction unless `txDigest` is given. With `coinType` and
 * `coinTypeAs`, the event carries coin_type: as text (`string`, as given) or as the TypeName `type_name::get`
 * makes (`type_name`: `{name}`, 64 hex digits without 0x).
 */
export function paymentEvent(options: PaymentOptions & { coinType?: string; coinTypeAs?: 'string' | 'type_name' }): ScriptEvent {
  const type = options.type ?? PAYMENT_TYPE;
  const from = options.from ?? randomAddress();
  clock += 1000;
  return {
    txDigest: options.txDigest ?? randomDigest(),
    eventSeq: options.eventSeq ?? 0,
    type,
    sender: from,
    parsedJson: {
      bill_no: options.billNoAsBytes ? [...Buffer.from(options.billNo, 'utf8')] : options.billNo,
      amount: options.amount ?? '1000000',
      from,
      to: options.to ?? randomAddress(),
      ...(options.coinType && options.coinTypeAs
        ? { coin_type: options.coinTypeAs === 'string' ? options.coinType : { name: fullCoinType(options.coinType).replace(/0x(?=[0-9a-f]{64}::)/g, '') } }
        : {}),
    },
    timestampMs: String(clock),
    layout: paymentLayout(type, options.billNoAsBytes ? 'bytes' : 'string', options.coinType ? options.coinTypeAs : undefined),
  };
}

/**
 * Move values as Sui's GraphQL and gRPC APIs render them as JSON (both through sui_types' proto_value
 * visitor): as JSON-RPC's parsedJson, but byte vectors as Base64 text. The layout says which fields are bytes.
 */
export function renderMoveJson(value: unknown, layout: unknown): unknown {
  if (typeof layout !== 'object' || layout === null) return value;
  const shape = layout as { vector?: unknown; struct?: { fields: { name: string; layout: unknown }[] }; enum?: unknown };
  if (shape.enum !== undefined && typeof value === 'object' && value !== null) {
    // JSON-RPC's `{variant, fields}` is `{"@variant", ...fields}` in the proto_value rendering.
    const { variant, fields } = value as { variant: string; fields?: Record<string, unknown> };
    return { '@variant': variant, ...fields };
  }
  if (shape.vector === 'u8' && Array.isArray(value)) return Buffer.from(value as number[]).toString('base64');
  if (shape.vector !== undefined && Array.isArray(value)) return value.map((item) => renderMoveJson(item, shape.vector));
  if (shape.struct && typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const fields = new Map(shape.struct.fields.map((f) => [f.name, f.layout]));
    return Object.fromEntries(Object.entries(value).map(([name, field]) => [name, renderMoveJson(field, fields.get(name))]));
  }
  return value;
}

/** How a request can be made to fail. `error` is the API's own error format (JSON-RPC or GraphQL). */
export type Failure = 'error' | 'http-503' | 'drop' | 'hang';

export interface LoggedRequest {
  /** 1-based, over every request the server received. */
  n: number;
  body: unknown;
  failed?: Failure;
}

/** What both loopback servers share: numbering, logging and scripted failures of requests. */
export interface Loopback {
  url: string;
  requests: LoggedRequest[];
  /** Makes request number `n` (1-based, counting from the server's start) fail. */
  failAt(n: number, failure: Failure): void;
  /** Makes the next `times` requests fail. */
  failNext(failure: Failure, times?: number): void;
  /** Forgets every failure still scheduled: the node answers again. */
  recover(): void;
  stop(): Promise<void>;
}

/** A request as the loopback server received it. */
export interface RawRequest {
  path: string;
  contentType: string;
  body: Buffer;
}

/** An HTTP answer: status, headers and body. */
export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string | Buffer;
}

/**
 * Starts a loopback HTTP server that logs each request as `decode` reads it, answers it with `answer`, or
 * fails it as scheduled (`error` renders the API's own error format for the `error` failure). The JSON APIs
 * use startLoopback below; the gRPC-web one (sui-grpc.ts) answers protobuf frames.
 */
export async function startRawLoopback(api: {
  decode: (request: RawRequest) => unknown;
  answer: (request: RawRequest, decoded: unknown) => Promise<RawAnswer> | RawAnswer;
  error: (request: RawRequest, decoded: unknown) => RawAnswer;
}): Promise<Loopback> {
  const requests: LoggedRequest[] = [];
  const failures = new Map<number, Failure>();
  const hanging: ServerResponse[] = [];
  const send = (res: ServerResponse, { status, headers, body }: RawAnswer) => res.writeHead(status, headers).end(body);

  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const request: RawRequest = { path: req.url ?? '/', contentType: req.headers['content-type'] ?? '', body: await readBody(req) };
    let body: unknown;
    try {
      body = api.decode(request);
    } catch {
      body = undefined;
    }
    const n = requests.length + 1;
    const failed = failures.get(n);
    requests.push({ n, body, ...(failed ? { failed } : {}) });
    if (failed === 'hang') return void hanging.push(res);
    if (failed === 'drop') return void res.socket?.destroy();
    if (failed === 'http-503') return void res.writeHead(503, { 'content-type': 'text/plain' }).end('upstream unavailable');
    if (failed === 'error') return send(res, api.error(request, body));
    try {
      send(res, await api.answer(request, body));
    } catch (error) {
      send(res, { status: 500, headers: { 'content-type': 'text/plain' }, body: String(error) });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url,
    requests,
    failAt: (n, failure) => void failures.set(n, failure),
    failNext(failure, times = 1) {
      for (let i = 1; i <= times; i++) failures.set(requests.length + i, failure);
    },
    recover: () => failures.clear(),
    async stop() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
    },
  };
}

/**
 * Starts a loopback HTTP server for a JSON API: each POSTed JSON body is logged and answered with `answer`'s
 * JSON, or failed as scheduled (`errorBody` renders the API's error format for the `error` failure).
 */
export function startLoopback(answer: (body: unknown) => Promise<unknown> | unknown, errorBody: (body: unknown) => unknown): Promise<Loopback> {
  const json = (status: number, body: unknown): RawAnswer => ({ status, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return startRawLoopback({
    decode: (request) => JSON.parse(request.body.toString('utf8')),
    answer: async (_, body) => {
      try {
        return json(200, await answer(body));
      } catch (error) {
        return json(500, { message: String(error) });
      }
    },
    error: (_, body) => json(200, errorBody(body)),
  });
}

/** The node's page size limit (QUERY_MAX_RESULT_LIMIT): a larger, zero or missing limit is served as 50. */
const QUERY_MAX_RESULT_LIMIT = 50;

export interface SuiNode extends Loopback {
  script: ChainScript;
  /** The logged JSON-RPC calls of one method, with their params. */
  calls(method: string): { n: number; params: unknown[] }[];
}

interface RpcRequest {
  jsonrpc: '2.0';
  id: number | string | null;
  method: string;
  params?: unknown[];
}

class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/** Starts the loopback JSON-RPC node over `script` (a fresh empty one by default). */
export async function startSuiNode(script = new ChainScript()): Promise<SuiNode> {
  const reply = (id: unknown, result: unknown) => ({ jsonrpc: '2.0', result, id });
  const fail = (id: unknown, code: number, message: string) => ({ jsonrpc: '2.0', error: { code, message }, id });

  const loopback = await startLoopback(
    (body) => {
      const request = body as RpcRequest | undefined;
      if (request?.jsonrpc !== '2.0' || typeof request.method !== 'string') return fail(null, -32700, 'Parse error');
      try {
        if (request.method === 'suix_queryEvents') return reply(request.id, queryEvents(script, request.params ?? []));
        if (request.method === 'sui_getTransactionBlock') return reply(request.id, transactionBlock(script, request.params ?? []));
        return fail(request.id, -32601, 'Method not found');
      } catch (error) {
        if (error instanceof RpcError) return fail(request.id, error.code, error.message);
        throw error;
      }
    },
    // What a node under load answers (jsonrpsee's internal error), with status 200 as JSON-RPC errors have.
    (body) => fail((body as RpcRequest | undefined)?.id ?? null, -32603, 'Internal error'),
  );

  return {
    ...loopback,
    script,
    calls: (method) =>
      loopback.requests
        .filter((r) => (r.body as RpcRequest | undefined)?.method === method)
        .map((r) => ({ n: r.n, params: (r.body as RpcRequest).params ?? [] })),
  };
}

/** The node's JSON rendering of an event (SuiEvent). */
function renderEvent(event: ScriptEvent) {
  return {
    id: { txDigest: event.txDigest, eventSeq: String(event.eventSeq) },
    packageId: event.type.split('::')[0],
    transactionModule: event.type.split('::')[1],
    sender: event.sender,
    type: event.type,
    parsedJson: event.parsedJson,
    bcsEncoding: 'base64',
    bcs: '',
    timestampMs: event.timestampMs,
  };
}

/** `suix_queryEvents(query, cursor, limit, descending_order)`. */
function queryEvents(script: ChainScript, params: unknown[]) {
  const [query, cursor, limit, descending] = params as [
    { MoveEventType?: string } | undefined,
    { txDigest: string; eventSeq: string } | null | undefined,
    number | null | undefined,
    boolean | null | undefined,
  ];
  if (typeof query?.MoveEventType !== 'string') throw new RpcError(-32602, 'Invalid params: expected an event filter');
  const matching = script.events.filter((e) => e.type === query.MoveEventType);
  const ordered = descending ? [...matching].reverse() : matching;
  let start = 0;
  if (cursor) {
    const at = ordered.findIndex((e) => e.txDigest === cursor.txDigest && String(e.eventSeq) === cursor.eventSeq);
    if (at < 0) throw new RpcError(-32602, `Could not find the referenced transaction events [TransactionDigest(${cursor.txDigest})].`);
    start = at + 1;
  }
  const size = !limit || limit > QUERY_MAX_RESULT_LIMIT ? QUERY_MAX_RESULT_LIMIT : limit;
  const data = ordered.slice(start, start + size).map(renderEvent);
  const last = data.at(-1);
  return { data, nextCursor: last ? last.id : (cursor ?? null), hasNextPage: ordered.length > start + size };
}

/**
 * `sui_getTransactionBlock(digest, options)`: only the parts this project reads (digest, time, events, balance
 * changes). Balance changes are rendered as the node does: `{owner: {AddressOwner}, coinType, amount}`, the
 * framework's coin types short (`0x2::sui::SUI`).
 */
function transactionBlock(script: ChainScript, params: unknown[]) {
  const [digest, options] = params as [string, { showEvents?: boolean; showBalanceChanges?: boolean } | null | undefined];
  const events = script.transaction(digest);
  if (!events) throw new RpcError(-32602, `Could not find the referenced transaction [TransactionDigest(${digest})].`);
  return {
    digest,
    timestampMs: events[0]?.timestampMs ?? String(Date.UTC(2026, 0, 1)),
    checkpoint: '1000',
    ...(options?.showEvents ? { events: events.map(renderEvent) } : {}),
    ...(options?.showBalanceChanges
      ? {
          balanceChanges: (script.balanceChanges.get(digest) ?? []).map((change) => ({
            owner: { AddressOwner: change.owner },
            coinType: rpcCoinType(change.coinType),
            amount: change.amount,
          })),
        }
      : {}),
  };
}
