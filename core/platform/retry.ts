/**
 * The one retry loop of the project. Whatever runs again after losing a race (a transaction cancelled by
 * another in flight, a conditional write on a version another request moved, a batch the table left partly
 * unprocessed, a chain node that failed a read) runs through `retrying`, so that every such loop is bounded,
 * pauses the same way and gives up in one place; test/one-retry.test.ts refuses a loop written by hand.
 *
 * A try answers its result, or AGAIN when it lost and nothing it did was kept (it reads afresh when run again);
 * a try that throws an error `retryOn` accepts counts as AGAIN. After the last try, `giveUp` answers: most throw
 * a 409 naming what raced, a few answer a value or the last error.
 */

/** A `giveUp` that lets the last try's error stand (the caller's own answer to it, or the shared 503s). */
export const rethrowLast = (lastError: unknown): never => {
  throw lastError;
};

/** What a try answers when it lost a race and must run again. */
export const AGAIN: unique symbol = Symbol('again');

/** The tries of a conflict unless the domain sets its own count: enough for a few racing requests, short for a caller. */
const CONFLICT_ATTEMPTS = 5;

/** A short, growing, jittered pause, so that racing requests do not collide again in step. */
const retryPause = (attempt: number) => new Promise((resolve) => setTimeout(resolve, 10 * attempt + Math.random() * 20 * attempt));

/**
 * An exponential back-off with full jitter, so that the retries of many callers on one capacity spread out
 * instead of arriving together: the pause after try n is random in [0, baseMs * 2^n), at most `capMs`.
 */
export const backOff =
  (baseMs: number, capMs = Number.POSITIVE_INFINITY) =>
  (attempt: number): Promise<unknown> =>
    new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(capMs, baseMs * 2 ** attempt)));

export interface RetryOptions<T> {
  /** Tries in all, the first included (CONFLICT_ATTEMPTS unless given): every loop ends. */
  attempts?: number;
  /** Errors that mean the try lost and wrote nothing (a lone write's TransactionConflictException): tried again. */
  retryOn?: (error: unknown) => boolean;
  /**
   * The wait after try n before the next: retryPause unless given; `false` where the next try reads afresh
   * anyway because a condition failed (the winner has written: nothing to wait for).
   */
  pause?: ((attempt: number) => Promise<unknown>) | false;
  /** The answer once the last try lost too; `lastError` is what that try threw when retryOn took it. */
  giveUp: (lastError: unknown) => T | Promise<T>;
}

/** Runs `attempt(1)`, `attempt(2)`, ... until one answers other than AGAIN, at most `attempts` tries; then `giveUp`. */
export async function retrying<T>(attempt: (attempt: number) => Promise<T | typeof AGAIN>, options: RetryOptions<T>): Promise<T> {
  const attempts = options.attempts ?? CONFLICT_ATTEMPTS;
  const pause = options.pause ?? retryPause;
  for (let n = 1; ; n++) {
    let lastError: unknown;
    try {
      const answer = await attempt(n);
      if (answer !== AGAIN) return answer;
    } catch (error) {
      if (!options.retryOn?.(error)) throw error;
      lastError = error;
    }
    if (n >= attempts) return options.giveUp(lastError);
    if (pause) await pause(n);
  }
}
