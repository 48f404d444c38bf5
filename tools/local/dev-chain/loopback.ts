import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

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
 * fails it as scheduled (`error` renders the API's own error format for the `error` failure). The development
 * chain routes GraphQL and its faucet through it; the tests' JSON APIs use startLoopback (test/support/sui-node.ts)
 * and their gRPC-web node (test/support/sui-grpc.ts) answers protobuf frames.
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

/** A request's body, whole. */
export function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}
