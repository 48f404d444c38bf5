import { mkdtempSync } from 'node:fs';
import { Agent, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JSON_BODY_LIMIT } from '../core/http/json-body.js';
import { DISCARD_LIMIT } from '../tools/local/unread-body.js';
import { killLocalServers, onWorkersDynamo, startLocalServer, type LocalServer } from './support/local-server.js';
import { sendChunks } from './support/chunked-body.js';
import { documentErrors, servedDocument } from './support/openapi-check.js';

/**
 * `npm start` and keep-alive connections (tools/local/unread-body.ts; docs/api.md "Answers given before the
 * body is read"): a request the service answers before reading its body (413, 415, 401, 404) must not cost a
 * keep-alive client the requests it sends after it on the same connection. Either the rest of the body is read
 * off the connection and the connection kept, or the answer says `Connection: close` and the connection ends,
 * closed in stages: a client still sending its body reads the answer, and the connection is gone after it (within
 * LINGER_MS of it: test/unread-body.test.ts, on the test's clock).
 */
const base = '/v2-testing';
const document = servedDocument(base);
let server: LocalServer;
let port: number;

beforeAll(async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'keep-alive-'));
  server = await startLocalServer({ DATA_DIR: dataDir, ...onWorkersDynamo(dataDir) });
  port = Number(new URL(server.base).port);
}, 120_000);

afterAll(() => killLocalServers());

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
  /** The connection it came on. */
  socket: Socket;
}

interface Sent {
  method: string;
  path: string;
  headers?: Record<string, string>;
  /** Sent with its Content-Length. */
  body?: Buffer;
  /** Sent in chunks (Transfer-Encoding: chunked), without a Content-Length. */
  chunks?: Buffer[];
}

/** A client of one connection at most: node:http's keep-alive Agent with one socket, as a load tool or SDK uses it. */
function keepAliveClient() {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const watched = new Set<Socket>();
  /** The connections that closed, in order. */
  const closed: Socket[] = [];
  const send = (sent: Sent) =>
    new Promise<Answer>((resolve, reject) => {
      const headers = { ...sent.headers, ...(sent.body && { 'content-length': String(sent.body.length) }) };
      const req = httpRequest({ host: '127.0.0.1', port, agent, method: sent.method, path: `${base}${sent.path}`, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode!, headers: res.headers, body: JSON.parse(Buffer.concat(chunks).toString('utf8')), socket: req.socket! }),
        );
      });
      req.on('socket', (socket) => {
        if (watched.has(socket)) return;
        watched.add(socket);
        socket.once('close', () => closed.push(socket));
      });
      req.on('error', reject);
      if (sent.body) req.write(sent.body);
      for (const chunk of sent.chunks ?? []) req.write(chunk);
      req.end();
    });
  return { send, closed, close: () => agent.destroy() };
}

const json = { 'content-type': 'application/json' };
const login = (body: string | Buffer, headers: Record<string, string> = json): Sent => ({
  method: 'POST',
  path: '/merchant/login',
  headers,
  body: Buffer.from(body),
});
/** A sign-in body of about `bytes` bytes: valid JSON, its email padded. */
const padded = (bytes: number) => JSON.stringify({ email: `${'x'.repeat(bytes)}@example.com`, password: 'a password' });
const inChunks = (data: Buffer, size = 64 * 1024) => Array.from({ length: Math.ceil(data.length / size) }, (_, i) => data.subarray(i * size, (i + 1) * size));
const health: Sent = { method: 'GET', path: '/health' };

/** Answers the service gives before (or without) reading the whole body, each with a body well past the first read. */
const early: { what: string; sent: Sent; status: number; message: RegExp }[] = [
  { what: 'a 2 MB JSON body, refused from its Content-Length', sent: login(padded(2_000_000)), status: 413, message: /^body: larger than the 256 KiB/ },
  {
    what: 'a 2 MB JSON body sent in chunks, refused once it passes 256 KiB',
    sent: { method: 'POST', path: '/merchant/login', headers: json, chunks: inChunks(Buffer.from(padded(2_000_000))) },
    status: 413,
    message: /^body: larger than the 256 KiB/,
  },
  {
    what: 'a 2 MB body of another media type',
    sent: login(padded(2_000_000), { 'content-type': 'text/plain' }),
    status: 415,
    message: /^body: Content-Type must be application\/json/,
  },
  {
    what: 'a 200 KB JSON body to an operation that needs a token, sent without one',
    sent: { method: 'POST', path: '/merchant/create', headers: json, body: Buffer.from(JSON.stringify({ merchant_name: 'x'.repeat(200_000) })) },
    status: 401,
    message: /./,
  },
  { what: '200 KB of malformed JSON', sent: login(`{"email": ${' '.repeat(200_000)}`), status: 400, message: /^body: must be valid JSON$/ },
  { what: 'JSON nested 10,000 deep', sent: login('['.repeat(10_000) + ']'.repeat(10_000)), status: 400, message: /^body: nested deeper than/ },
  {
    what: 'a 2 MB body to a path with no route',
    sent: { method: 'POST', path: '/merchant/nowhere', headers: json, body: Buffer.from(padded(2_000_000)) },
    status: 404,
    message: /^no route/,
  },
];

describe('npm start keeps a keep-alive connection after an answer given before the body was read', () => {
  it('answers every such request and each request after it on the one connection, which stays open', async () => {
    const client = keepAliveClient();
    try {
      const first = await client.send(health);
      const connection = first.socket;
      for (const { what, sent, status, message } of early) {
        const answer = await client.send(sent);
        expect({ status: answer.status, message: answer.body.message }, what).toEqual({ status, message: expect.stringMatching(message) });
        if (status !== 404) expect(documentErrors(document, sent.path, sent.method.toLowerCase(), answer.status, answer.body), what).toEqual([]);
        // Kept: not announced as closing, and on the same connection as everything before it.
        expect(answer.headers.connection, what).toBe('keep-alive');
        expect(answer.socket === connection, `${what}: answered on another connection`).toBe(true);
        for (let i = 0; i < 3; i++) {
          const next = await client.send(health);
          expect(next.status, `request ${i + 1} after ${what}`).toBe(200);
          expect(next.socket === connection, `request ${i + 1} after ${what}: the connection was lost`).toBe(true);
        }
      }
      // @hono/node-server used to destroy such a connection 500 ms after the answer: it is still there a second later.
      await sleep(1_000);
      const later = await client.send(health);
      expect(later.status).toBe(200);
      expect(later.socket === connection, 'the connection was closed after the last answer').toBe(true);
      expect(client.closed).toEqual([]);
    } finally {
      client.close();
    }
  }, 60_000);
});

/** A request's answer as read off the connection, and what the connection did after it. */
interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: unknown;
  /** The server ended its side of the connection (a FIN) after the answer. */
  ended: boolean;
  /** What failed on the connection, if anything (a write to a connection the server reset). */
  error?: string;
}

/** The answer at the start of `data`, once it is all there: its head and its Content-Length's worth of body. */
function answerIn(data: Buffer) {
  const end = data.indexOf('\r\n\r\n');
  if (end < 0) return undefined;
  const [statusLine, ...lines] = data.subarray(0, end).toString('latin1').split('\r\n');
  const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
  const body = data.subarray(end + 4, end + 4 + Number(headers['content-length']));
  if (body.length < Number(headers['content-length'])) return undefined;
  return { status: Number(statusLine!.split(' ')[1]), headers, body: JSON.parse(body.toString('utf8')) as unknown };
}

/**
 * One request on a connection of its own, written as raw bytes by `write` (which may stop before the body ends,
 * and is told when the whole answer is in), and the answer the server sends before it closes the connection.
 * The client's side stays open when the server ends its own (allowHalfOpen): whether it sends on is `write`'s
 * choice. Resolves only once the connection has closed; rejects if it closed before the whole answer came.
 */
function rawExchange(head: string, write: (socket: Socket, answered: Promise<void>) => Promise<void>) {
  return new Promise<RawAnswer>((resolve, reject) => {
    const socket = connect({ port, host: '127.0.0.1', allowHalfOpen: true });
    const received: Buffer[] = [];
    let answer: ReturnType<typeof answerIn>;
    let ended = false;
    let error: string | undefined;
    let answered!: () => void;
    const whenAnswered = new Promise<void>((resolve) => (answered = resolve));
    socket.on('data', (chunk: Buffer) => {
      received.push(chunk);
      if (answer) return;
      answer = answerIn(Buffer.concat(received));
      if (!answer) return;
      answered();
    });
    socket.on('end', () => (ended = true));
    socket.on('error', (e: NodeJS.ErrnoException) => (error = e.code ?? e.message));
    socket.on('close', () => {
      if (!answer) {
        const data = Buffer.concat(received).toString('latin1').slice(0, 200);
        return reject(new Error(`no answer before the connection closed (${error ?? 'no error'}): ${JSON.stringify(data)}`));
      }
      resolve({ ...answer, ended, error });
    });
    socket.once('connect', () => {
      socket.write(head);
      // A write on a closed connection fails: that shows in `error`.
      write(socket, whenAnswered).catch(() => undefined);
    });
  });
}

describe(`a body larger than the ${DISCARD_LIMIT / 1024 / 1024} MiB the server reads off the connection`, () => {
  const tooLarge = { code: 413, message: expect.stringMatching(/^body: larger than the 256 KiB/), data: null };
  const chunkedHead = `POST ${base}/merchant/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`;
  // Past the limit by more than the service read before answering (the first 256 KiB).
  const pastTheLimit = DISCARD_LIMIT + JSON_BODY_LIMIT + 2 * 1024 * 1024;

  it('declared by its Content-Length: answered at once with Connection: close, and the connection closed; the next request is answered on a new one', async () => {
    const head = `POST ${base}/merchant/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${DISCARD_LIMIT + 1}\r\n\r\n`;
    // Only the start of the body is sent: the answer comes without the rest. The client then ends its side.
    const answer = await rawExchange(head, async (socket, answered) => {
      socket.write(Buffer.alloc(64 * 1024, 0x20));
      await answered;
      socket.end();
    });
    expect(answer).toMatchObject({ status: 413, headers: { connection: 'close' }, body: tooLarge, ended: true, error: undefined });
    expect(documentErrors(document, '/merchant/login', 'post', answer.status, answer.body)).toEqual([]);
    const client = keepAliveClient();
    expect((await client.send(health)).status).toBe(200);
    client.close();
  }, 60_000);

  it('sent in chunks: read up to the limit, then answered with Connection: close; what the client sends after is read, and the connection closed once it ends', async () => {
    const answer = await rawExchange(chunkedHead, async (socket, answered) => {
      await sendChunks(socket, (sent) => sent < pastTheLimit);
      await answered;
      // Sent after the answer: these writes, and the end, succeed only if the server reads on. Had it closed the
      // connection under the client, the client would see it reset (`error`).
      await sendChunks(socket, (sent) => sent < 16 * 1024 * 1024);
      socket.end();
    });
    // The answer read, the server's side ended, and no write failed: nothing was reset.
    expect(answer).toMatchObject({ status: 413, headers: { connection: 'close' }, body: tooLarge, ended: true, error: undefined });
    const client = keepAliveClient();
    expect((await client.send(health)).status).toBe(200);
    client.close();
  }, 60_000);

  // The bound, LINGER_MS after the answer, is shown on the test's clock by test/unread-body.test.ts.
  it('sent in chunks by a client that never stops: the answer is read, and the server closes the connection', async () => {
    const answer = await rawExchange(chunkedHead, (socket) => sendChunks(socket, () => true));
    expect(answer).toMatchObject({ status: 413, headers: { connection: 'close' }, body: tooLarge, ended: true });
  }, 60_000);
});
