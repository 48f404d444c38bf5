import type { Hono } from 'hono';
import { basePathOf } from '../core/http/app.js';
import { routePathOf } from '../core/http/operation.js';
import type { OperationSpec } from '../core/http/operation.js';
import { appFactories } from '../functions/apps.js';
import { routeTable } from '../functions/routes/index.js';
import { call } from '../test/support/http.js';
import { commandCounter } from '../test/support/rankings.js';
import type { BenchDeps } from './fixtures.js';
import { notBenched, operations } from './operations.js';
import { FLOOR_WRITE_RATIO, type Floor, type BenchRequest, type OperationBench } from './operation-bench.js';
import { ownerOf } from '../core/access/owners.js';
import { principalState } from '../core/access/principals.js';
import { playerGone } from '../core/access/players.js';
import { callerGoneChecked, goneReadFresh, namedGoneChecked } from '../core/http/policy-rules.js';
import { capacityMeter, type Charge } from './capacity-meter.js';

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
  /** Measured equals minimum and the call answered its success status (and, with a floor, the floor's budget holds). */
  ok: boolean;
  /** Requests made one after another: a request started while another was in flight counts with it. */
  sequential: number;
  /** Items written (index entries not counted), each once however many requests wrote it. */
  itemsWritten: number;
  /** For a value-moving operation: its floor and whether the call is within its budget (bench/operations.ts Floor). */
  floor?: Floor & { within: boolean };
  /** Write and read units on DynamoDB's on-demand billing (bench/capacity.ts), measured and the fewest the operation's guarantees need. */
  units: {
    write: number;
    read: number;
    minimum: { write: number; read: number; why: string };
    /** DynamoDB Local's own figure for the same requests (it parts from DynamoDB's billing in places: bench/capacity-meter.ts). */
    local: { write: number; read: number };
    /** What each item written or read cost. */
    charges: Charge[];
    /** Requests of the call that failed (a condition, a cancelled transaction), charged on the items as they stayed. */
    failed: number;
    /** Requests whose units DynamoDB Local reports otherwise. */
    differences: { command: string; units: number; local: number }[];
  };
}

export const specOf = (entry: OperationBench): OperationSpec => {
  const group = routeTable.find((g) => g.group === entry.group && g.base === (entry.base ?? 'main'));
  const spec = group?.ops[entry.op];
  if (!spec) throw new Error(`bench/operations.ts names ${entry.group}.${entry.op} on the ${entry.base ?? 'main'} base, which the route table does not have`);
  return spec;
};

/** The route's path with its `:name` segments filled in from the entry's request. */
export function withParams(path: string, params: Record<string, string | number> = {}): string {
  return path.replace(/:(\w+)/g, (_, name: string) => {
    if (params[name] === undefined) throw new Error(`bench/operations.ts: no value for path parameter :${name} of ${path}`);
    return encodeURIComponent(String(params[name]));
  });
}

/** Operations of the route table with no entry in bench/operations.ts and no reason in `notBenched`. */
export function unbenchedOperations(): string[] {
  const missing: string[] = [];
  for (const { group, base, ops } of routeTable) {
    for (const op of Object.keys(ops)) {
      if (notBenched[`${group}.${op}`]) continue;
      if (!operations.some((e) => e.group === group && e.op === op && (e.base ?? 'main') === base)) {
        missing.push(`${group}.${op}${base === 'main' ? '' : ` (${base} base)`}`);
      }
    }
  }
  return missing;
}

/**
 * The steady state of the authorization layer for this request: in a warm process the owners of the project,
 * game or goods the request names are remembered (they never change), and so are a game server's account state
 * for calls that move no value and, for reads (GET), whether the caller or the player the request names deleted
 * their account (STATE_TTL_MS). The measured call then makes only the requests a warm Lambda makes; what stays
 * is the fresh state read of value-moving calls and the fresh deletion read of writes.
 */
async function warmAuthorization(deps: BenchDeps, spec: OperationSpec, request: BenchRequest) {
  if (spec.auth === 'open' || !request.token) return;
  const claims = await deps.tokens.verify(request.token, spec.auth.tokens).catch(() => undefined);
  if (!claims) return;
  const parts: Record<string, unknown> = { body: request.body, query: request.query, params: request.params };
  for (const rule of spec.auth.owns) {
    if (rule.rule !== 'project' && rule.rule !== 'game' && rule.rule !== 'goods') continue;
    const [part, name] = rule.field.split('.') as [string, string];
    const value = (parts[part] as Record<string, unknown> | undefined)?.[name];
    if (value !== undefined) await ownerOf(deps, rule.rule, String(value));
  }
  if (claims.game_code) await ownerOf(deps, 'game', claims.game_code);
  if ((claims.kind === 'server' || claims.kind === 'merchant') && !spec.auth.movesValue) await principalState(deps, claims.sub);
  if (goneReadFresh(spec.method, spec.auth)) return;
  if (callerGoneChecked(claims.kind, spec.auth)) await playerGone(deps, claims.sub, false);
  if (!namedGoneChecked(claims.kind)) return;
  for (const rule of spec.auth.owns) {
    if (rule.rule !== 'self') continue;
    const [part, name] = rule.field.split('.') as [string, string];
    const value = (parts[part] as Record<string, unknown> | undefined)?.[name];
    if (value !== undefined) await playerGone(deps, String(value), false);
  }
}

/**
 * Calls each benched operation once in its steady state through its group's app and counts its DynamoDB requests
 * and the write and read units they cost on DynamoDB's billing (bench/capacity-meter.ts).
 */
/**
 * Records when each DynamoDB request of the deps' client starts and ends while `start()`ed, and answers how many
 * rounds they made: a request that starts after every earlier one has ended begins a new round.
 */
function roundTripCounter(deps: BenchDeps) {
  let spans: { start: number; end: number }[] | undefined;
  deps.db.middlewareStack.add(
    (next) => async (args) => {
      if (!spans) return next(args);
      const span = { start: performance.now(), end: Number.POSITIVE_INFINITY };
      spans.push(span);
      try {
        return await next(args);
      } finally {
        span.end = performance.now();
      }
    },
    { step: 'initialize', name: `roundTrips${Math.random()}` },
  );
  return {
    start: () => void (spans = []),
    stop: () => {
      const done = (spans ?? []).sort((a, b) => a.start - b.start);
      spans = undefined;
      let rounds = 0;
      let endOfRound = Number.NEGATIVE_INFINITY;
      for (const span of done) {
        if (span.start >= endOfRound) rounds++;
        endOfRound = span.start >= endOfRound ? span.end : Math.max(endOfRound, span.end);
      }
      return rounds;
    },
  };
}

/** A call's floor with whether the call kept to it: no more rounds, at most FLOOR_WRITE_RATIO times the write units. */
const floorOf = (floor: Floor | undefined, sequential: number, write: number) =>
  floor && { ...floor, within: sequential <= floor.roundTrips && write <= floor.write * FLOOR_WRITE_RATIO };

export async function benchRequests(deps: BenchDeps): Promise<RequestResult[]> {
  const counter = commandCounter(deps);
  const rounds = roundTripCounter(deps);
  const meter = capacityMeter(deps.db, deps.endpoint);
  const apps = new Map<string, Hono>();
  const appOf = (group: string) => apps.get(group) ?? apps.set(group, appFactories[group]!(deps)).get(group)!;
  const results: RequestResult[] = [];
  try {
    for (const entry of operations) {
      const spec = specOf(entry);
      const base = entry.base ?? 'main';
      const request = await entry.prepare(deps);
      const path = routePathOf(basePathOf(base, deps.stage), withParams(spec.path, request.params));
      await warmAuthorization(deps, spec, request);
      counter.start();
      rounds.start();
      meter.start();
      const response = await call(appOf(entry.group), spec.method, path, request);
      const commands = counter.stop();
      const sequential = rounds.stop();
      const capacity = await meter.stop();
      const floor = floorOf(entry.floor, sequential, capacity.write);
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
        ok: measured === entry.minimum && response.status === spec.status && (floor?.within ?? true),
        sequential,
        itemsWritten: new Set(capacity.charges.filter((c) => c.write > 0 && c.target === 'table').map((c) => c.key)).size,
        ...(floor && { floor }),
        units: {
          write: capacity.write,
          read: capacity.read,
          minimum: entry.units,
          local: capacity.local,
          charges: capacity.charges,
          failed: capacity.failed,
          differences: capacity.differences,
        },
      });
    }
  } finally {
    meter.detach();
  }
  return results;
}
