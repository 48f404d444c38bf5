import {
  ChainState,
  fullCoinType,
  randomAddress,
  randomDigest,
  SUI,
  type ScriptBalanceChange,
  type ScriptEvent,
} from '../../tools/local/dev-chain/chain-script.js';
import { startRawLoopback, type Loopback, type RawAnswer } from '../../tools/local/dev-chain/loopback.js';

export {
  randomAddress,
  randomDigest,
  renderMoveJson,
  SUI,
  type ScriptBalanceChange,
  type ScriptEvent,
  type ScriptObject,
} from '../../tools/local/dev-chain/chain-script.js';
export { startRawLoopback, type Failure, type Loopback, type RawAnswer, type RawRequest } from '../../tools/local/dev-chain/loopback.js';

/**
 * A loopback Sui full node: JSON-RPC 2.0 on 127.0.0.1, answering `suix_queryEvents` and
 * `sui_getTransactionBlock` from a scripted chain, in the real node's response format, with the real node's
 * behaviours the indexer depends on: ascending order unless `descending` is true, `limit` capped at 50 (as
 * QUERY_MAX_RESULT_LIMIT), an empty page answering the cursor it was given, -32602 "Could not find the
 * referenced transaction" for an unknown digest. Failures can be switched on per request: a JSON-RPC error,
 * an HTTP 503, a dropped connection, or no answer at all (for timeouts). Every request is logged.
 *
 * The chain script (tools/local/dev-chain/chain-script.ts: events, the transactions that emitted them, live
 * objects) is shared with the loopback GraphQL service (sui-graphql.ts) and gRPC full node (sui-grpc.ts), so every API can be asked about the
 * same chain.
 */

/** The chain script of the tests: the chain's state, and payments made as a wallet makes them. */
export class ChainScript extends ChainState {
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

/** A coin type as JSON-RPC's balance changes render it: the framework's 0x1/0x2 short, other packages in full. */
export const rpcCoinType = (type: string) => fullCoinType(type).replace(/0x0{62}0([12])(?=::)/g, '0x$1');

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
