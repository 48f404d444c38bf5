import { afterEach, describe, expect, it, vi } from 'vitest';
import { batchPause, RETRIES } from '../core/platform/batch.js';
import { AGAIN, backOff, retrying } from '../core/platform/retry.js';

/**
 * The pauses of the one retry loop (core/platform/retry.ts), on fake timers: how long a caller can wait is a
 * property of the schedule, checked here by the clock the pauses run on, not by how long a test took.
 */

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

/** Whether `pause` has ended once `ms` of fake time passed since it started. */
async function endedAfter(pause: Promise<unknown>, ms: number): Promise<boolean> {
  let ended = false;
  void pause.then(() => (ended = true));
  await vi.advanceTimersByTimeAsync(ms);
  return ended;
}

describe('backOff', () => {
  it('pauses after try n for a random time below baseMs * 2^n, and never past the cap', async () => {
    vi.useFakeTimers();
    // The longest pause the jitter can draw.
    vi.spyOn(Math, 'random').mockReturnValue(0.999);
    const pause = backOff(20, 500);
    for (const [attempt, bound] of [
      [1, 40],
      [3, 160],
      [5, 500],
      [9, 500],
    ] as const) {
      const running = pause(attempt);
      expect(await endedAfter(running, bound * 0.95), `try ${attempt}: still pausing near its bound`).toBe(false);
      expect(await endedAfter(running, bound * 0.05), `try ${attempt}: ended at its bound`).toBe(true);
    }
    // The shortest it can draw: no pause.
    vi.spyOn(Math, 'random').mockReturnValue(0);
    expect(await endedAfter(pause(5), 0)).toBe(true);
  });

  it(`bounds a batch read's ${RETRIES} retries to 1.24 s of pauses in all (core/platform/batch.ts)`, async () => {
    vi.useFakeTimers();
    vi.spyOn(Math, 'random').mockReturnValue(0.999);
    let tries = 0;
    const gaveUp = retrying(
      async () => {
        tries++;
        return AGAIN;
      },
      { attempts: 1 + RETRIES, pause: batchPause, giveUp: () => 'gave up' },
    );
    let answer: string | undefined;
    void gaveUp.then((a) => (answer = a));
    await vi.advanceTimersByTimeAsync(1_200);
    expect(answer).toBeUndefined();
    await vi.advanceTimersByTimeAsync(40);
    expect({ answer, tries }).toEqual({ answer: 'gave up', tries: 1 + RETRIES });
  });
});
