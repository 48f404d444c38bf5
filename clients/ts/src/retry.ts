import { errorCodeOf, retryAfterOf } from './errors.js';

/** When a request is sent again. */
export interface RetryPolicy {
  /** Attempts in all, the first included. Default 4. */
  attempts?: number;
  /** The longest wait before a retry: a Retry-After asking for longer is not waited for (the error goes to the caller, with its retryAfter). Default 30 s. */
  maxDelayMs?: number;
}

/**
 * The 409 codes after which the same request may be sent again: the platform's transaction met another one
 * (nothing was written), or the first request with the same Idempotency-Key is still running (its answer will be
 * the retry's).
 */
const RETRYABLE_CONFLICTS = new Set(['data.changed_concurrently', 'idempotency.still_running']);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * How long to wait before sending a request again, or undefined when its answer is final. Only two answers are
 * retried, the two the OpenAPI documents declare safe to send again unchanged: a 503 with Retry-After (the
 * table was busy or a source did not answer, and nothing was written) and a 409 of the codes above. Any other 4xx
 * means no, and a 5xx without Retry-After says nothing about what was done.
 */
async function retryDelay(response: Response, attempt: number, maxDelayMs: number): Promise<number | undefined> {
  if (response.status === 503) {
    const seconds = retryAfterOf(response);
    // Never sooner than the platform asked; a longer wait than the caller allows is the caller's to decide.
    return seconds === undefined || seconds * 1000 > maxDelayMs ? undefined : seconds * 1000;
  }
  if (response.status !== 409) return undefined;
  const code = await errorCodeOf(response);
  if (code === undefined || !RETRYABLE_CONFLICTS.has(code)) return undefined;
  // Exponential back-off with full jitter: racing callers spread out instead of meeting again.
  return Math.random() * Math.min(100 * 2 ** attempt, maxDelayMs);
}

/**
 * A fetch that sends a request again while retryDelay says so, at most `attempts` times in all. The request is
 * sent unchanged, its Idempotency-Key included, so a money call whose first answer was lost is answered the first
 * answer rather than done twice.
 */
export function retryingFetch(inner: (request: Request) => Promise<Response>, policy: RetryPolicy = {}): (request: Request) => Promise<Response> {
  const attempts = policy.attempts ?? 4;
  const maxDelayMs = policy.maxDelayMs ?? 30_000;
  return async (request) => {
    for (let attempt = 1; ; attempt++) {
      const response = await inner(attempt < attempts ? request.clone() : request);
      const delay = attempt < attempts ? await retryDelay(response, attempt, maxDelayMs) : undefined;
      if (delay === undefined) return response;
      await response.body?.cancel();
      await sleep(delay);
    }
  };
}
