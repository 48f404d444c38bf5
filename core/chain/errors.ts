/**
 * A chain node (JSON-RPC full node or GraphQL service) that could not answer: unreachable, timed out, an HTTP
 * error status, a JSON-RPC or GraphQL error, or a response that is not in the API's format. Sources wrap every
 * such failure in this one class so that callers have one thing to catch: the indexer backs off and keeps its
 * place, a request path answers 503. "Not found" is not an error: sources answer undefined for it.
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
  const name = (error as { name?: string } | undefined)?.name;
  if (name === 'TimeoutError' || name === 'AbortError') {
    return new ChainNodeError(`${what}: no answer within ${timeoutMs} ms`, { cause: error });
  }
  let message = error instanceof Error ? error.message : String(error);
  // fetch reports a refused or reset connection as "fetch failed" with the system error as its cause.
  const cause = (error as { cause?: { code?: unknown; message?: unknown } } | undefined)?.cause;
  const detail = cause?.code ?? cause?.message;
  if (typeof detail === 'string') message += ` (${detail})`;
  return new ChainNodeError(`${what}: ${message}`, { cause: error });
}
