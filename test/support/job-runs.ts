import { expect } from 'vitest';
import { createAdminConsoleApp } from '../../functions/admin-console.js';
import type { TestDeps } from './deps.js';
import { call } from './http.js';
import { accountWithToken } from './merchants.js';

/** The jobs part of the stage overview of `deps`' table, as an admin reads it, by job name. */
export async function jobsOf(deps: TestDeps, days = 14) {
  const admin = await accountWithToken(deps, 'admin');
  const res = await call(createAdminConsoleApp(deps), 'GET', '/v2-testing/merchant/admin/overview', { token: admin.token, query: { days } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return Object.fromEntries((res.body.data.jobs as { job: string }[]).map((job) => [job.job, job])) as Record<string, any>;
}
