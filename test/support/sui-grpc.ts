import { GrpcTypes } from '@mysten/sui/grpc';
import {
  ChainScript,
  renderMoveJson,
  startRawLoopback,
  type Loopback,
  type RawAnswer,
  type RawRequest,
  type ScriptEvent,
  type ScriptObject,
} from './sui-node.js';

/**
 * A loopback Sui full node's gRPC API as `@mysten/sui`'s SuiGrpcClient reaches it: gRPC-web over HTTP/1.1
 * (`POST /sui.rpc.v2.LedgerService/<Method>`), in either of its formats (`application/grpc-web+proto`, or
 * `application/grpc-web-text`, Base64, the SDK's default), answering in the format asked. Messages are the
 * protobuf definitions the SDK ships (GrpcTypes): a request is decoded with the method's input type, an answer
 * is written as proto3 JSON and encoded with the output type, so a field the real API lacks cannot be sent.
 *
 * Framing, as gRPC-web defines it: each message is a frame of one flag byte (0 for data), four bytes of
 * big-endian length and the message; a successful answer is a data frame then a trailers frame (flag 0x80)
 * holding `grpc-status:0`. A failed call is "trailers-only", as the node's tonic-web layer sends it: status
 * 200, `grpc-status` and a percent-encoded `grpc-message` in the headers, no body.
 *
 * The node's behaviours the client depends on: read masks are honoured (a field not asked for is not sent);
 * BatchGetObjects answers each id with the object or a per-id NOT_FOUND status, `Object <id> not found`, for
 * an id with no live object, deleted and wrapped ones included (the node keeps only live objects by id);
 * GetTransaction is NOT_FOUND for a digest it does not know. Failures are scheduled as for the other
 * loopbacks; `error` is the status INTERNAL.
 */

const { LedgerService } = GrpcTypes;
const SERVICE_PATH = `/${LedgerService.typeName}/`;

/** gRPC status codes (google.rpc.Code) this server answers. */
const Status = { OK: 0, NOT_FOUND: 5, INTERNAL: 13, UNIMPLEMENTED: 12, INVALID_ARGUMENT: 3 } as const;

export interface SuiGrpc extends Loopback {
  script: ChainScript;
  /** The logged calls of one method, with their requests as proto3 JSON. */
  calls(method: string): { n: number; request: Record<string, unknown> }[];
}

interface DecodedCall {
  method: string;
  request: Record<string, unknown>;
}

class GrpcStatusError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

export async function startSuiGrpc(script = new ChainScript()): Promise<SuiGrpc> {
  const loopback = await startRawLoopback({
    decode: (request): DecodedCall => {
      const method = methodOf(request);
      if (!method) return { method: request.path, request: {} };
      return { method: method.name, request: method.I.toJson(method.I.fromBinary(readFrame(request))) as Record<string, unknown> };
    },
    answer: (request, decoded) => {
      const method = methodOf(request);
      if (!method) return trailersOnly(request, Status.UNIMPLEMENTED, `unknown method ${request.path}`);
      const call = decoded as DecodedCall | undefined;
      if (!call) return trailersOnly(request, Status.INTERNAL, 'could not decode the request message');
      try {
        const json = answer(script, call);
        return dataAndTrailers(request, method.O.toBinary(method.O.fromJson(json as never)));
      } catch (error) {
        if (error instanceof GrpcStatusError) return trailersOnly(request, error.code, error.message);
        throw error;
      }
    },
    error: (request) => trailersOnly(request, Status.INTERNAL, 'Internal error'),
  });
  return {
    ...loopback,
    script,
    calls: (method) =>
      loopback.requests
        .filter((r) => (r.body as DecodedCall | undefined)?.method === method)
        .map((r) => ({ n: r.n, request: (r.body as DecodedCall).request })),
  };
}

function methodOf(request: RawRequest) {
  if (!request.path.startsWith(SERVICE_PATH)) return undefined;
  const name = request.path.slice(SERVICE_PATH.length);
  return LedgerService.methods.find((m) => m.name === name && !m.serverStreaming);
}

const isText = (request: RawRequest) => request.contentType.startsWith('application/grpc-web-text');

/** The request's one message: the payload of its first data frame. */
function readFrame(request: RawRequest): Uint8Array {
  const bytes = isText(request) ? Buffer.from(request.body.toString('latin1'), 'base64') : request.body;
  if (bytes.length < 5 || bytes[0] !== 0) throw new Error('not a gRPC-web data frame');
  const length = bytes.readUInt32BE(1);
  return bytes.subarray(5, 5 + length);
}

function frame(flag: number, payload: Uint8Array): Buffer {
  const header = Buffer.alloc(5);
  header[0] = flag;
  header.writeUInt32BE(payload.length, 1);
  return Buffer.concat([header, payload]);
}

function contentType(request: RawRequest) {
  return isText(request) ? 'application/grpc-web-text+proto' : 'application/grpc-web+proto';
}

function dataAndTrailers(request: RawRequest, message: Uint8Array): RawAnswer {
  const body = Buffer.concat([frame(0x00, message), frame(0x80, Buffer.from('grpc-status:0\r\ngrpc-message:\r\n', 'latin1'))]);
  return { status: 200, headers: { 'content-type': contentType(request) }, body: isText(request) ? body.toString('base64') : body };
}

function trailersOnly(request: RawRequest, code: number, message: string): RawAnswer {
  return { status: 200, headers: { 'content-type': contentType(request), 'grpc-status': String(code), 'grpc-message': encodeURIComponent(message) }, body: '' };
}

/** The answer to a call as proto3 JSON of the method's output message. */
function answer(script: ChainScript, { method, request }: DecodedCall): unknown {
  const mask = readMask(request);
  switch (method) {
    case 'BatchGetObjects': {
      const requests = (request.requests ?? []) as { objectId?: string }[];
      return {
        objects: requests.map(({ objectId }) => {
          const object = objectId ? script.objects.get(fullId(objectId)) : undefined;
          if (!object) return { error: { code: Status.NOT_FOUND, message: `Object ${objectId} not found` } };
          return { object: masked(objectJson(object), mask) };
        }),
      };
    }
    case 'GetObject': {
      const object = script.objects.get(fullId(String(request.objectId)));
      if (!object) throw new GrpcStatusError(Status.NOT_FOUND, `Object ${String(request.objectId)} not found`);
      return { object: masked(objectJson(object), mask) };
    }
    case 'GetTransaction': {
      const digest = String(request.digest ?? '');
      const events = script.transaction(digest);
      if (!events) throw new GrpcStatusError(Status.NOT_FOUND, `Transaction ${digest} not found`);
      return { transaction: masked(transactionJson(digest, events), mask) };
    }
    default:
      throw new GrpcStatusError(Status.UNIMPLEMENTED, `${method} is not served by this loopback node`);
  }
}

const fullId = (id: string) => `0x${id.replace(/^0x/, '').toLowerCase().padStart(64, '0')}`;

/** A FieldMask's paths (proto3 JSON gives them comma-separated, in lowerCamelCase). */
function readMask(request: Record<string, unknown>): string[] | undefined {
  const mask = request.readMask;
  return typeof mask === 'string' ? mask.split(',').filter(Boolean) : undefined;
}

/**
 * `value` with only the fields the mask names (paths are dotted; a path into a repeated field applies to each
 * element). No mask: everything.
 */
function masked(value: unknown, paths: string[] | undefined): unknown {
  if (!paths) return value;
  const tree = new Map<string, string[]>();
  for (const path of paths) {
    const [head, ...rest] = path.split('.');
    if (!tree.has(head!)) tree.set(head!, []);
    if (rest.length === 0) tree.set(head!, ['']);
    else if (tree.get(head!)![0] !== '') tree.get(head!)!.push(rest.join('.'));
  }
  const pick = (item: unknown): unknown => {
    if (Array.isArray(item)) return item.map(pick);
    if (typeof item !== 'object' || item === null) return item;
    const out: Record<string, unknown> = {};
    for (const [field, sub] of tree) {
      const key = camel(field);
      if (!(key in item)) continue;
      const fieldValue = (item as Record<string, unknown>)[key];
      out[key] = sub[0] === '' ? fieldValue : masked(fieldValue, sub);
    }
    return out;
  };
  return pick(value);
}

const camel = (name: string) => name.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

/** sui.rpc.v2.Object as proto3 JSON: uint64 as text, enums by name, `json` a google.protobuf.Value. */
function objectJson(object: ScriptObject) {
  return {
    objectId: object.objectId,
    version: String(object.version),
    digest: '11111111111111111111111111111111',
    owner: 'address' in object.owner ? { kind: object.owner.kind, address: object.owner.address } : { kind: object.owner.kind },
    objectType: object.type,
    hasPublicTransfer: true,
    json: renderMoveJson(object.fields, object.layout),
  };
}

/** sui.rpc.v2.ExecutedTransaction as proto3 JSON, with the parts a read of events needs. */
function transactionJson(digest: string, events: ScriptEvent[]) {
  const timestampMs = Number(events[0]?.timestampMs ?? Date.UTC(2026, 0, 1));
  return {
    digest,
    transaction: { digest },
    signatures: [],
    effects: { digest, status: { success: true } },
    events: {
      events: events.map((event) => ({
        packageId: event.type.split('::')[0],
        module: event.type.split('::')[1],
        sender: event.sender,
        eventType: event.type,
        json: renderMoveJson(event.parsedJson, event.layout),
      })),
    },
    checkpoint: '1000',
    timestamp: new Date(timestampMs).toISOString(),
  };
}
