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

/**
 * A job of a long-running process (the local server's stand-ins for the deployed crons): one pass, a pause of
 * `intervalMs`, the next pass, until stop(). A failed pass is logged and ends only that pass.
 */
export function repeatEvery(intervalMs: number, name: string, pass: (signal: AbortSignal) => Promise<void>): Loop {
  const controller = new AbortController();
  const running = (async () => {
    while (!controller.signal.aborted) {
      try {
        await pass(controller.signal);
      } catch (error) {
        await logError(`${name}: pass failed`, { error: error instanceof Error ? error.message : String(error) });
      }
      await wait(intervalMs, controller.signal);
    }
  })();
  return {
    async stop() {
      controller.abort();
      await running;
    },
  };
}
