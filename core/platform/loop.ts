import { logError } from './log.js';

/** setTimeout as a promise that ends early when `signal` aborts. */
export function wait(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}

export interface Loop {
  /** Ends the pause, or asks the pass in flight to stop (through its signal), and resolves when done. */
  stop(): Promise<void>;
}

/** The longest pause after failed passes unless the interval itself is longer (then the interval). */
export const MAX_BACKOFF_MS = 5 * 60_000;

/**
 * The pause after a pass: the interval after a success; after the n-th failure in a row the interval times
 * 2^n (so the first retry already waits twice as long), capped at `maxMs` (never below the interval).
 */
export function pauseAfter(intervalMs: number, failuresInRow: number, maxMs = Math.max(intervalMs, MAX_BACKOFF_MS)): number {
  if (failuresInRow <= 0) return intervalMs;
  return Math.max(intervalMs, Math.min(intervalMs * 2 ** Math.min(failuresInRow, 30), maxMs));
}

export interface RepeatOptions {
  /** The longest pause after failures (default: MAX_BACKOFF_MS, or the interval when that is longer). */
  maxBackoffMs?: number;
  /** How the loop pauses (default: `wait`); a test may record the pauses asked for instead. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
}

/**
 * A job of a long-running process (the local server's stand-ins for the deployed crons): one pass, a pause of
 * `intervalMs`, the next pass, until stop(). A pass that throws is logged with its error and cause, and the
 * job goes on: the pause grows with each failure in a row (pauseAfter: doubling, capped) and is back to the
 * interval after the next success. A failure never ends the loop (nor the process), and no pass is skipped.
 */
export function repeatEvery(intervalMs: number, name: string, pass: (signal: AbortSignal) => Promise<void>, options: RepeatOptions = {}): Loop {
  const controller = new AbortController();
  const sleep = options.sleep ?? wait;
  const maxMs = Math.max(intervalMs, options.maxBackoffMs ?? MAX_BACKOFF_MS);
  const running = (async () => {
    let failures = 0;
    while (!controller.signal.aborted) {
      try {
        await pass(controller.signal);
        failures = 0;
      } catch (error) {
        failures++;
        const retryInMs = pauseAfter(intervalMs, failures, maxMs);
        try {
          await logError(`${name}: pass failed; retrying with back-off`, { error: describeError(error), failuresInRow: failures, retryInMs });
        } catch {
          // A log that cannot be written must not end the job either.
        }
      }
      await sleep(pauseAfter(intervalMs, failures, maxMs), controller.signal);
    }
  })();
  return {
    async stop() {
      controller.abort();
      await running;
    },
  };
}

/** An error's name and message, with its cause chain (an AWS SDK error's cause names the network failure). */
export function describeError(error: unknown, depth = 0): Record<string, unknown> | string {
  if (!(error instanceof Error)) return String(error);
  const described: Record<string, unknown> = { name: error.name, message: error.message };
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') described.code = code;
  if (error.cause !== undefined && depth < 5) described.cause = describeError(error.cause, depth + 1);
  return described;
}
