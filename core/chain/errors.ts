import { platformError } from '../platform/errors.js';
import { logError } from '../platform/log.js';

/**
 * A chain node (GraphQL service, JSON-RPC or gRPC full node) that could not answer: unreachable, timed out,
 * an HTTP error status, a JSON-RPC error, GraphQL error or gRPC error status, or a response that is not in
 * the API's format. Sources and reads wrap every such failure in this one class so that callers have one
 * thing to catch: the indexer backs off and keeps its place, a request path answers 503. "Not found" is not
 * an error: they answer undefined for it.
 */
export class ChainNodeError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ChainNodeError';
  }
}

/** A readable reason for a failed node call, naming a timeout as one. */
export function nodeFailure(what: string, error: unknown, timeoutMs: number): ChainNodeError {
  if (error instanceof ChainNodeError) return error;
  const { name, code } = (error ?? {}) as { name?: unknown; code?: unknown };
  // gRPC calls report a call ended by its AbortSignal.timeout as the status DEADLINE_EXCEEDED.
  if (name === 'TimeoutError' || name === 'AbortError' || code === 'DEADLINE_EXCEEDED') {
    return new ChainNodeError(`${what}: no answer within ${timeoutMs} ms`, { cause: error });
  }
  let message = error instanceof Error ? error.message : String(error);
  // fetch reports a refused or reset connection as "fetch failed" with the system error as its cause.
  const cause = (error as { cause?: { code?: unknown; message?: unknown } } | undefined)?.cause;
  const detail = cause?.code ?? cause?.message;
  if (typeof detail === 'string') message += ` (${detail})`;
  return new ChainNodeError(`${what}: ${message}`, { cause: error });
}

/**
 * How long a request whose chain read failed tells its client to wait (Retry-After): a node that failed or did not
 * answer within its timeout (5 s by default) is asked again a few seconds later, not at once.
 */
export const CHAIN_RETRY_AFTER_SECONDS = 5;

/** The 503 of a request whose chain read failed; `field` names what was being read for (the message's field). */
export const chainUnreadable = (field: string) =>
  platformError('chain.unreadable', `${field}: the chain node could not be read; try again shortly`, { retryAfterSeconds: CHAIN_RETRY_AFTER_SECONDS });

/**
 * A request path's chain read: a node that could not answer is logged (`failure`, with `details` and the node's own
 * words, which stay in the log: they may name the node's address) and answered as the 503 naming `field`.
 */
export async function readForRequest<T>(read: () => Promise<T>, field: string, failure: string, details: Record<string, unknown>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (!(error instanceof ChainNodeError)) throw error;
    await logError(failure, { ...details, error: error.message });
    throw chainUnreadable(field);
  }
}
