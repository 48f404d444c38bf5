import type { Hono } from 'hono';
import { basePathOf } from '../core/http/app.js';
import type { OperationSpec } from '../core/http/operation.js';
import { appFactories } from '../functions/apps.js';
import { routeTable } from '../functions/routes/index.js';
import { call } from '../test/support/http.js';
import { commandCounter } from '../test/support/rankings.js';
import type { BenchDeps } from './fixtures.js';
import { operations, type OperationBench } from './operations.js';

export interface RequestResult {
  operation: string;
  group: string;
  base: string;
  measured: number;
  minimum: number;
  reason: string;
  /** DynamoDB commands made by the call, by name (GetItem, Query, TransactWriteItems…). */
  commands: Record<string, number>;
  status: number;
  expectedStatus: number;
  /** Measured equals minimum and the call answered its success status. */
  ok: boolean;
}

const specOf = (entry: OperationBench): OperationSpec => {
  const group = routeTable.find((g) => g.group === entry.group && g.base === (entry.base ?? 'main'));
  const spec = group?.ops[entry.op];
  if (!spec) throw new Error(`bench/operations.ts names ${entry.group}.${entry.op} on the ${entry.base ?? 'main'} base, which the route table does not have`);
  return spec;
};

/** The route's path with its `:name` segments filled in from the entry's request. */
function withParams(path: string, params: Record<string, string | number> = {}): string {
  return path.replace(/:(\w+)/g, (_, name: string) => {
    if (params[name] === undefined) throw new Error(`bench/operations.ts: no value for path parameter :${name} of ${path}`);
    return encodeURIComponent(String(params[name]));
  });
}

/** Operations of the route table with no entry in bench/operations.ts. */
export function unbenchedOperations(): string[] {
  const missing: string[] = [];
  for (const { group, base, ops } of routeTable) {
    for (const op of Object.keys(ops)) {
      if (!operations.some((e) => e.group === group && e.op === op && (e.base ?? 'main') === base)) {
        missing.push(`${group}.${op}${base === 'main' ? '' : ` (${base} base)`}`);
      }
    }
  }
  return missing;
}


/** Calls each benched operation once in its steady state through its group's app and counts its DynamoDB requests. */
export async function benchRequests(deps: BenchDeps): Promise<RequestResult[]> {
  const counter = commandCounter(deps);
  const apps = new Map<string, Hono>();
  const appOf = (group: string) => apps.get(group) ?? apps.set(group, appFactories[group]!(deps)).get(group)!;
  const results: RequestResult[] = [];
  for (const entry of operations) {
    const spec = specOf(entry);
    const base = entry.base ?? 'main';
    const request = await entry.prepare(deps);
    const path = `${basePathOf(base, deps.stage)}${withParams(spec.path, request.params)}`;
    counter.start();
    const response = await call(appOf(entry.group), spec.method, path, request);
    const commands = counter.stop();
    const measured = Object.values(commands).reduce((a, b) => a + b, 0);
    if (response.status !== spec.status) {
      console.error(`! ${entry.label ?? spec.name} answered ${response.status}: ${JSON.stringify(response.body).slice(0, 300)}`);
    }
    results.push({
      operation: entry.label ?? spec.name,
      group: entry.group,
      base,
      measured,
      minimum: entry.minimum,
      reason: entry.reason,
      commands,
      status: response.status,
      expectedStatus: spec.status,
      ok: measured === entry.minimum && response.status === spec.status,
    });
  }
  return results;
}
