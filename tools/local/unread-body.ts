import type { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';

/**
 * What a server over Node's http (`npm start`, tools/local/serve.ts; the bench's service) does with the part
 * of a request's body the app answered without reading (docs/api.md, "Answers given before the body is read").
 *
 * Many answers are ready before the body is read: a 413 judged from the Content-Length or from the first 256 KiB
 * of a streamed body, a 415, a 401 (the token is verified before the body is read), a 404. On a keep-alive
 * connection the next request starts right after this one's body (RFC 9112 §6.3), so the rest of the body has
 * to be read off the connection, or the connection closed in a way the client sees coming. @hono/node-server
 * reads it for up to 500 ms after the answer and then destroys the socket, and its reading stops as soon as the
 * web stream Hono opened over the body (Hono's `bodyLimit` opens it) has its buffer full: a keep-alive client's
 * next request on that connection then failed, at once or about 500 ms later.
 *
 * So, before the answer is sent:
 * - the rest of the body is read and thrown away, up to DISCARD_LIMIT bytes of it; the connection stays open and
 *   the client's next request on it is answered;
 * - a body its Content-Length declares larger than DISCARD_LIMIT is not read, and a body sent in chunks whose
 *   rest passes it is read no further: the answer says `Connection: close`, the connection is closed after it
 *   (below), and the client sends its next request on a new one.
 * Reading before answering, rather than after, is what lets the answer say which of the two it is: whether a
 * chunked body ends within the limit is known only once it has been read. The limit is @hono/node-server's own
 * (64 MiB), far above the largest body the service takes (an upload of 4 MiB + 16 KiB). A client that stops
 * sending in the middle of its body is left to node:http's request timeout (300 s unless set), which answers 408
 * and closes the connection.
 *
 * Closing that connection: node:http does it, once the answer is written, with the socket's destroySoon(): our
 * side ended (a FIN after the answer), then the socket destroyed as soon as that is flushed. The client is still
 * sending its body then, so the socket is destroyed with bytes unread, and the kernel resets the connection (RST)
 * instead of closing it. A client that had the answer but had not read it yet may lose it: its TCP stack may drop
 * it, and Node's own client, whose next write fails on the reset connection, destroys its socket without reading
 * what it had received (on loopback with the machine busy, a few exchanges in a hundred got no answer). So that
 * socket's destroySoon() closes it in stages instead (RFC 9112 §9.6): our side is ended the same way, what the
 * client still sends is read and thrown away as it comes, and the socket is destroyed once the client ends its
 * side or its body ends, or LINGER_MS after the answer at the latest. The bound is time only: whatever arrives in
 * those 2 s is dropped as it comes (nothing is kept; one connection read for 2 s); a client still sending after
 * them has had that long to read the answer, and is then reset.
 *
 * Deployed, API Gateway has received the whole request before the function runs: this is only for Node's http.
 */
export const DISCARD_LIMIT = 64 * 1024 * 1024;
/** How long a connection closed after its answer is still read, at most. */
export const LINGER_MS = 2_000;

/** The bindings @hono/node-server hands the app as `env`. */
interface NodeBindings {
  incoming?: IncomingMessage;
  outgoing?: ServerResponse;
}

type Fetch<E> = (request: Request, env: E) => Response | Promise<Response>;

/** `fetch`, with the rest of each request's body read (or the connection closed) before its answer is sent. */
export function withUnreadBodyDiscarded<E>(fetch: Fetch<E>): (request: Request, env: E) => Promise<Response> {
  return async (request, env) => {
    const response = await fetch(request, env);
    const { incoming, outgoing } = (env ?? {}) as NodeBindings;
    if (!incoming || !outgoing || incoming.readableEnded) return response;
    if (!(await discardRest(incoming))) {
      outgoing.setHeader('Connection', 'close');
      closeLingering(incoming);
    }
    return response;
  };
}

/**
 * Has `incoming`'s connection closed in stages after its answer (the top comment). node:http calls the socket's
 * destroySoon() once the answer is written (so does @hono/node-server when it gives up reading a body after an
 * answer): replaced on this socket only, every call after the first a no-op.
 */
function closeLingering(incoming: IncomingMessage): void {
  const socket = incoming.socket;
  let lingering = false;
  socket.destroySoon = () => {
    if (lingering || socket.destroyed) return;
    lingering = true;
    // Kept until the socket is gone: it also bounds the wait for the answer to be flushed, below.
    const timer = setTimeout(() => socket.destroy(), LINGER_MS).unref();
    // Nothing more to read: node's own destroySoon(), which destroys the socket once the answer is flushed.
    const close = () => {
      socket.off('end', close);
      incoming.off('end', close);
      Socket.prototype.destroySoon.call(socket);
    };
    socket.once('close', () => clearTimeout(timer));
    socket.once('end', close);
    incoming.once('end', close);
    socket.end();
    // The body goes on through node's parser: read it with no one listening, as discardRest() does.
    incoming.removeAllListeners('data');
    incoming.resume();
  };
}

/** Reads what is left of the body and throws it away: true once it has ended, false past DISCARD_LIMIT. */
function discardRest(incoming: IncomingMessage): Promise<boolean> {
  if (Number(incoming.headers['content-length']) > DISCARD_LIMIT) return Promise.resolve(false);
  return new Promise((resolve) => {
    let read = 0;
    let settled = false;
    const settle = (ended: boolean) => {
      if (settled) return;
      settled = true;
      incoming.off('data', onData).off('end', onEnd).off('error', onGone).off('close', onGone);
      resolve(ended);
    };
    const onData = (chunk: Buffer) => {
      read += chunk.length;
      if (read <= DISCARD_LIMIT) return;
      incoming.pause();
      settle(false);
    };
    const onEnd = () => settle(true);
    // The client went away mid-body: there is no connection left to keep.
    const onGone = () => settle(incoming.readableEnded);
    // The app's readers (the web stream over the body) pause it whenever their buffer is full, and nothing reads
    // them any more: take the body from them, as node:http does with a body no one read.
    incoming.removeAllListeners('data');
    incoming.on('data', onData).on('end', onEnd).on('error', onGone).on('close', onGone);
    incoming.resume();
  });
}
