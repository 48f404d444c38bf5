import { once } from 'node:events';
import { type AddressInfo, connect } from 'node:net';
import { setTimeout as wallSleep } from 'node:timers/promises';
import { serve, type ServerType } from '@hono/node-server';
import { Hono } from 'hono';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { LINGER_MS, withUnreadBodyDiscarded } from '../tools/local/unread-body.js';
import { sendChunks } from './support/chunked-body.js';

/**
 * The time bound on a connection closed after its answer (tools/local/unread-body.ts), on the test's clock: a client
 * that sends a chunked body past the limit read off the connection (DISCARD_LIMIT) and never stops reads its answer
 * (`Connection: close`); what it sends after is read until LINGER_MS after the answer, and then the connection is
 * closed. The server is the one `npm start` runs, @hono/node-server with the body handling around the app, in this
 * process, so that the linger's timer is a fake one; test/keep-alive.test.ts shows the same closing against
 * `npm start` itself, on the wall's clock with no bound. The app answers without reading the body, as the service's
 * 413, 415, 401 and 404 do.
 */
let server: ServerType;
let port: number;

beforeAll(async () => {
  const app = new Hono().all('*', (c) => c.json({ code: 413, message: 'answered unread', data: null }, 413));
  server = serve({ fetch: withUnreadBodyDiscarded(app.fetch), port: 0, hostname: '127.0.0.1' });
  if (!server.listening) await once(server, 'listening');
  port = (server.address() as AddressInfo).port;
});

afterAll(() => new Promise<void>((done) => server.close(() => done())));

afterEach(() => {
  vi.useRealTimers();
});

/**
 * Waits on the wall's clock until `done()` (expect.poll would move the fake clock on by its interval at each try, and
 * the linger's timer with it).
 */
async function until(done: () => boolean, what: string) {
  for (const deadline = performance.now() + 30_000; !done(); await wallSleep(10)) {
    if (performance.now() > deadline) throw new Error(`gave up waiting: ${what}`);
  }
}

describe('a connection closed after its answer, on the clock', () => {
  it(`is read for ${LINGER_MS} ms after the answer while the client sends on, and closed at ${LINGER_MS} ms`, async () => {
    // Only the timers unread-body.ts sets: node:http's own and the wall sleeps below use Node's timers module.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const socket = connect({ port, host: '127.0.0.1', allowHalfOpen: true });
    await once(socket, 'connect');
    let received = '';
    let closed = false;
    let error: string | undefined;
    let ended = false;
    socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
    socket.on('error', (e: NodeJS.ErrnoException) => (error = e.code ?? e.message));
    socket.once('end', () => (ended = true));
    socket.once('close', () => (closed = true));
    socket.write('POST /merchant/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n');
    const sending = sendChunks(socket, () => true);
    try {
      // Answered once the body passed DISCARD_LIMIT, saying the connection closes.
      await until(() => received.includes('answered unread'), 'the answer');
      expect(received).toMatch(/^HTTP\/1\.1 413 /);
      expect(received.toLowerCase()).toContain('\r\nconnection: close\r\n');
      // The linger starts as node:http closes the connection after the answer: its timer set, our side ended (a FIN).
      await until(() => ended, 'our side of the connection ended');

      vi.advanceTimersByTime(LINGER_MS - 1);
      // Given the wall's time to close, had it closed early; the client's sending meanwhile is still read.
      await wallSleep(300);
      expect({ closed, error }).toEqual({ closed: false, error: undefined });

      vi.advanceTimersByTime(1);
      await until(() => closed, 'the close');
      await sending;
      // The one answer, and nothing after it.
      expect(received.match(/HTTP\/1\.1 /g)).toHaveLength(1);
    } finally {
      // A failed check leaves no connection for the server's close to wait on.
      socket.destroy();
    }
  }, 60_000);
});
