/** A job's last run as the stage overview answers it (GET /merchant/admin/overview), the part the Stage screen shows. */
interface LastRun {
  outcome: 'ok' | 'failed';
  error: { code: string; summary: string } | null;
}

/**
 * What the Stage screen says of a job's last run: `ok`, or `failed` with its error's code and summary, so a
 * failing job's reason is on the screen, not only in the server's log (a dash before the job's first run).
 */
export function lastRunOutcome(run: LastRun | null): string {
  if (!run) return '—';
  if (run.outcome === 'ok') return 'ok';
  return run.error ? `failed: ${run.error.code}: ${run.error.summary}` : 'failed';
}
