import { describe, expect, it } from 'vitest';
import { lastRunOutcome } from '../console/src/job-runs.js';

/** What the console's Stage screen says of a scheduled job's last run (console/src/screens/admin-stage.tsx). */
describe("the Stage screen's outcome of a job's last run", () => {
  it("shows a failed run's error, its code and its summary", () => {
    const error = { code: 'rank-pages.stream_read_failed', summary: "rank pages: reading the table's stream failed (Error); the next pass reads on" };
    expect(lastRunOutcome({ outcome: 'failed', error })).toBe(
      "failed: rank-pages.stream_read_failed: rank pages: reading the table's stream failed (Error); the next pass reads on",
    );
  });

  it('shows ok for a run that went well, and a dash before the first run', () => {
    expect(lastRunOutcome({ outcome: 'ok', error: null })).toBe('ok');
    expect(lastRunOutcome(null)).toBe('—');
  });
});
