import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * What a server over Node's http (`npm start`, functions/local/server.ts; the bench's service) does with the part
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
 *   rest passes it is read no further: the answer says `Connection: close` and node:http closes the connection
 *   after it, so the client sends its next request on a new one. (A client still sending then may see the
 *   connection reset before it reads the answer, RFC 9112 §9.6; it never loses a later request.)
 * Reading before answering, rather than after, is what lets the answer say which of the two it is: whether a
 * chunked body ends within the limit is known only once it has been read. The limit is @hono/node-server's own
 * (64 MiB), far above the largest body the service takes (an upload of 4 MiB + 16 KiB). A client that stops
 * sending in the middle of its body is left to node:http's request timeout (300 s unless set), which answers 408
 * and closes the connection.
 *
 * Deployed, API Gateway has received the whole request before the function runs: this is only for Node's http.
 */
export const DISCARD_LIMIT = 64 * 1024 * 1024;

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
    if (!(await discardRest(incoming))) outgoing.setHeader('Connection', 'close');
    return response;
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
