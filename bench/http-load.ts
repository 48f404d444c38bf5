import { spawn, type ChildProcess } from 'node:child_process';
import { once, type EventEmitter } from 'node:events';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import autocannon from 'autocannon';
import { basePathOf } from '../core/http/app.js';
import type { OperationSpec } from '../core/http/operation.js';
import { queryItems } from '../core/platform/query.js';
import { monthOf, seasonKey, weekOf, type Season } from '../core/rankings/seasons.js';
import { innerRoutes } from '../functions/routes/inner.js';
import { boardsRoutes } from '../functions/routes/boards.js';
import { payRoutes } from '../functions/routes/pay.js';
import { ledgerMismatches } from '../test/support/ledgers.js';
import { gameWithServer } from '../test/support/rankings.js';
import { deployedEnv, rechargeBody, shopWithLevel, ticketHolders, type BenchDeps } from './fixtures.js';
import { round } from './stats.js';
import type { handlers as floorHandlers } from './warm-floor.js';

/**
 * Part 5, load over HTTP: real HTTP on loopback, a mixed workload, the service beside a floor server making
 * the same DynamoDB calls, both measured in the same run, and the invariants checked after.
 *
 * The servers run in a child process (bench/http-servers.ts): the service is every group composed as
 * `npm start` serves them; the floor answers the same paths with bench/warm-floor.ts's handlers. autocannon
 * drives each with `connections` keep-alive connections for `seconds` in two alternating slices (service,
 * floor, floor, service), after a warm-up of each. Every
 * connection is one caller of the game and the shop and sends, in turn and again: a catalogue read
 * (game_detail), a score report (addWin, 1 kill and 1 win), a ticket deduction (minus_tickets by the game
 * server, 1 ticket, no Idempotency-Key: each one a new deduction) and a purchase (rechargeOrder of level 1,
 * a new order each time). Each caller is its own player, so callers share no balance and no score item.
 *
 * The invariants, per caller, after both runs (the floor's callers are checked too: it writes the same
 * items): every balance equals the sum of its ledger (test/support/ledgers.ts) and none is below zero; the
 * tickets taken, the orders made and the player's week and month kills and wins each lie between the
 * caller's accepted answers (2xx) of that operation and those plus the caller's requests left without an
 * answer (a request cut off by the end of a run, or timed out, may have been applied). Nothing lost, nothing
 * counted twice.
 */

/** What one caller sends, in order and again; `floor` names bench/warm-floor.ts's handler of the same path. */
const workload = [
  { name: 'game_detail', spec: innerRoutes.ops.game_detail, floor: 'game_detail' },
  { name: 'addWin', spec: boardsRoutes.ops.addWin, floor: 'addWin' },
  { name: 'minus_tickets', spec: payRoutes.ops.minus_tickets, floor: 'minus_tickets' },
  { name: 'rechargeOrder', spec: payRoutes.ops.rechargeOrder, floor: 'rechargeOrder' },
] as const satisfies readonly { name: string; spec: OperationSpec; floor: keyof typeof floorHandlers }[];
type OperationName = (typeof workload)[number]['name'];

const TICKETS = 1e9;
const WARMUP_SECONDS = 1;

/** What one caller sent and was answered, across every run of its server. */
interface Tally {
  sent: number;
  answered: number;
  accepted: Record<OperationName, number>;
}

type Caller = Awaited<ReturnType<typeof callersOf>>[number];

/** `count` callers, each its own player with tickets of the shop and the requests it sends. */
async function callersOf(deps: BenchDeps, count: number, tag: string) {
  const game = await gameWithServer(deps);
  const shop = await shopWithLevel(deps);
  const projectName = shop.project.project_name;
  const players = await ticketHolders(deps, projectName, 1, count, TICKETS);
  const base = basePathOf('main', deps.stage);
  return players.map((player, index) => {
    const playerId = `${tag}-${index}`;
    const request = (token: string | undefined, body: unknown) => ({
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const parts: Record<OperationName, { token?: string; body?: unknown; query?: string }> = {
      game_detail: { query: `?code=${encodeURIComponent(game.code)}` },
      addWin: { token: game.server, body: { game_code: game.code, game_player_id: playerId, game_player_name: playerId, kills: 1, wins: 1 } },
      minus_tickets: { token: shop.server, body: { userId: player.uid, projectName, level: 1, amount: 1 } },
      rechargeOrder: { token: player.platform, body: rechargeBody(shop, player) },
    };
    const perOperation = <T>(value: () => T) => Object.fromEntries(workload.map(({ name }) => [name, value()])) as Record<OperationName, T>;
    const statuses = perOperation((): Record<number, number> => ({}));
    const tally: Tally = { sent: 0, answered: 0, accepted: perOperation(() => 0) };
    const requests = workload.map(({ name, spec }) => ({
      method: spec.method,
      path: `${base}${spec.path}${parts[name].query ?? ''}`,
      ...request(parts[name].token, parts[name].body),
      onResponse: (status: number) => {
        tally.answered++;
        if (status >= 200 && status < 300) tally.accepted[name]++;
        statuses[name][status] = (statuses[name][status] ?? 0) + 1;
      },
    }));
    return { uid: player.uid, playerId, game: game.code, requests, tally, statuses };
  });
}

/** Starts bench/http-servers.ts and answers its ports. */
export async function startServers(deps: BenchDeps): Promise<{ child: ChildProcess; service: number; floor: number }> {
  const base = basePathOf('main', deps.stage);
  const routes = Object.fromEntries(workload.map(({ spec, floor }) => [`${spec.method} ${base}${spec.path}`, floor]));
  const child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'http-servers.ts')], {
    env: { ...process.env, ...deployedEnv(deps), BENCH_FLOOR_ROUTES: JSON.stringify(routes) },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const exited = once(child, 'exit').then(([code]) => {
    throw new Error(`bench/http-servers.ts exited (${String(code)}) before listening`);
  });
  const [line] = (await Promise.race([once(createInterface({ input: child.stdout! }), 'line'), exited])) as [string];
  return { child, ...(JSON.parse(line) as { service: number; floor: number }) };
}

/** What one connection of a run sends (in turn and again) and where it counts what it sent. */
export interface Driven {
  requests: autocannon.Request[];
  tally: { sent: number };
}

/** One autocannon run: each connection is the next caller and cycles through its requests. */
export async function drive(port: number, callers: Driven[], seconds: number) {
  let next = 0;
  return autocannon({
    url: `http://127.0.0.1:${port}`,
    connections: callers.length,
    pipelining: 1,
    duration: seconds,
    setupClient: (client) => {
      const caller = callers[next++ % callers.length]!;
      client.setRequests(caller.requests);
      // autocannon's Client emits `request` as each request goes out (its typings omit the event).
      (client as unknown as EventEmitter).on('request', () => caller.tally.sent++);
    },
  });
}

export interface HttpLoadRun {
  server: 'service' | 'floor';
  connections: number;
  seconds: number;
  requests: number;
  rps: number;
  p50Ms: number;
  p99Ms: number;
  /** Answers other than 2xx, and connection errors and timeouts (autocannon's). */
  non2xx: number;
  errors: number;
  timeouts: number;
  /** Statuses answered per operation, over the warm-up and the measured run. */
  statuses: Record<OperationName, Record<number, number>>;
}

export interface HttpLoadResult {
  runs: HttpLoadRun[];
  /** Callers and the checks made over them (per caller: ledger, tickets, orders, week and month scores). */
  invariants: { callers: number; checks: number; violations: string[] };
}

export async function benchHttpLoad(deps: BenchDeps, options: { connections: number; seconds: number }): Promise<HttpLoadResult> {
  const started = new Date();
  const fixtures = { service: await callersOf(deps, options.connections, 'svc'), floor: await callersOf(deps, options.connections, 'floor') };
  const servers = await startServers(deps);
  const runs: HttpLoadRun[] = [];
  try {
    for (const side of ['service', 'floor'] as const) await drive(servers[side], fixtures[side], WARMUP_SECONDS);
    // Two slices each, in the order service, floor, floor, service, so that drift (DynamoDB Local's JIT and
    // growing table) weighs on both alike.
    const slices: Record<'service' | 'floor', Awaited<ReturnType<typeof drive>>[]> = { service: [], floor: [] };
    for (const side of ['service', 'floor', 'floor', 'service'] as const) slices[side].push(await drive(servers[side], fixtures[side], options.seconds / 2));
    for (const side of ['service', 'floor'] as const) {
      const { requests, seconds, rps, p50Ms, p99Ms, non2xx, errors, timeouts } = slicesSummary(slices[side]);
      const statuses = Object.fromEntries(
        workload.map(({ name }) => [name, sumStatuses(fixtures[side].map((caller) => caller.statuses[name]))]),
      ) as HttpLoadRun['statuses'];
      runs.push({
        server: side,
        connections: options.connections,
        seconds: round(seconds, 1),
        requests,
        rps,
        p50Ms,
        p99Ms,
        non2xx,
        errors,
        timeouts,
        statuses,
      });
    }
  } finally {
    servers.child.stdin?.end();
    await once(servers.child, 'exit');
  }
  const seasons = seasonsBetween(started, new Date());
  const all = [...fixtures.service, ...fixtures.floor];
  const checks = await Promise.all(all.map((caller) => invariantsOf(deps, caller, seasons)));
  return { runs, invariants: { callers: all.length, checks: all.length * 5, violations: checks.flat() } };
}

/**
 * One server's figures over the slices of its run: requests a second, the slices' percentiles weighted by their
 * requests (p50) and the worse of them (p99), and what went wrong.
 */
export function slicesSummary(parts: Awaited<ReturnType<typeof drive>>[]) {
  const requests = parts.reduce((sum, r) => sum + r.requests.total, 0);
  const seconds = parts.reduce((sum, r) => sum + r.duration, 0);
  return {
    requests,
    seconds,
    rps: round(requests / seconds, 0),
    p50Ms: round(parts.reduce((sum, r) => sum + r.latency.p50 * r.requests.total, 0) / requests, 1),
    p99Ms: Math.max(...parts.map((r) => r.latency.p99)),
    non2xx: parts.reduce((sum, r) => sum + r.non2xx, 0),
    errors: parts.reduce((sum, r) => sum + r.errors, 0),
    timeouts: parts.reduce((sum, r) => sum + r.timeouts, 0),
  };
}

function sumStatuses(all: Record<number, number>[]) {
  const sum: Record<number, number> = {};
  for (const statuses of all) for (const [status, n] of Object.entries(statuses)) sum[Number(status)] = (sum[Number(status)] ?? 0) + n;
  return sum;
}

/** The week and month seasons the run touched (two of each when it crossed a boundary). */
function seasonsBetween(start: Date, end: Date): Season[] {
  const seasons = [weekOf(start), monthOf(start), weekOf(end), monthOf(end)];
  return seasons.filter((season, i) => seasons.findIndex((other) => seasonKey(other) === seasonKey(season)) === i);
}

/** The caller's five checks (see the top of the file); answers one line per violation. */
async function invariantsOf(deps: BenchDeps, caller: Caller, seasons: Season[]): Promise<string[]> {
  const { tally } = caller;
  const unanswered = tally.sent - tally.answered;
  const violations: string[] = [];
  const within = (what: string, value: number, accepted: number) => {
    if (value < accepted || value > accepted + unanswered)
      violations.push(`${caller.playerId} ${what}: ${value}, accepted ${accepted}, unanswered ${unanswered}`);
  };
  const own = await queryItems(deps, { KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': `USER#${caller.uid}` }, ConsistentRead: true });
  violations.push(...ledgerMismatches(own).map((line) => `${caller.playerId} ${line}`));
  const balance = own.find((item) => String(item.sk).startsWith('TICKETS#'));
  within('tickets taken', TICKETS - Number(balance?.balance ?? 0), tally.accepted.minus_tickets);
  const orders = await queryItems(deps, {
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :pk',
    ExpressionAttributeValues: { ':pk': `USER_ORDERS#${caller.uid}` },
  });
  within('orders', orders.length, tally.accepted.rechargeOrder);
  for (const type of [1, 2]) {
    let kills = 0;
    let wins = 0;
    for (const season of seasons.filter((s) => s.type === type)) {
      const key = { pk: `SCORE#${caller.game}#${seasonKey(season)}`, sk: `PLAYER#${caller.playerId}` };
      const out = await deps.db.send(new GetCommand({ TableName: deps.table, Key: key, ConsistentRead: true }));
      kills += Number(out.Item?.kills ?? 0);
      wins += Number(out.Item?.wins ?? 0);
    }
    const season = type === 1 ? 'week' : 'month';
    within(`${season} kills`, kills, tally.accepted.addWin);
    if (wins !== kills) violations.push(`${caller.playerId} ${season}: ${wins} wins beside ${kills} kills (each report adds one of each)`);
  }
  return violations;
}
