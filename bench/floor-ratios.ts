import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type autocannon from 'autocannon';
import { basePathOf } from '../core/http/app.js';
import { queryItems } from '../core/platform/query.js';
import { monthOf, seasonKey, weekOf } from '../core/rankings/seasons.js';
import { startDynamoLocal, ensureTable, adminClient } from '../tools/local/dynamo.js';
import { boardsRoutes } from '../functions/routes/boards.js';
import { payRoutes } from '../functions/routes/pay.js';
import { ledgerMismatches } from '../test/support/ledgers.js';
import { gameWithServer } from '../test/support/rankings.js';
import { shopWithLevel, ticketHolders, type BenchDeps } from './fixtures.js';
import { drive, slicesSummary, startServers } from './http-load.js';
import { round } from './stats.js';

/**
 * The load part's second floor (docs/performance.md "Money at the write floor"): the service beside a bare HTTP
 * server making only the minimal DynamoDB call of each workload (bench/minimal-floor.ts: one conditional UpdateItem
 * for a deduction, one UpdateItem for a report) on a DynamoDB Local of its own, its table with a stream as the
 * service's has. Two workloads, each on its own: ticket deductions (minus_tickets by the game server, 1 ticket, no
 * Idempotency-Key) and score reports (addWin, 1 kill and 1 win). Each connection is one player (no shared balance
 * or score item). Beside both, the floor making the same DynamoDB calls as the service with no framework
 * (bench/warm-floor.ts, on the service's table): what separates it from the minimal floor is what DynamoDB Local
 * charges for the calls the guarantees need, and what separates the service from it is the service's own work.
 * Per workload: a warm-up of each (WARMUP_SECONDS), then slices of `seconds / 2` in the order service, same,
 * minimal, minimal, same, service. The budget is part 3's, held under load: the service costs at most
 * SAME_COST_RATIO times the same-calls floor per request, so it answers at least 1 / SAME_COST_RATIO of that floor's
 * requests a second, with a p99 at most SAME_COST_RATIO times its. Beside the minimal floor the service's ratios are a
 * measure, printed against the mark first asked (MIN_RATIO of its rate, MAX_P99_RATIO of its p99): that distance is
 * what DynamoDB Local charges for the calls the guarantees need (docs/performance.md "Under load, beside a server
 * making only the minimal call"). Afterwards, per player: the service's ledger sums to the balance, and the tickets
 * taken and kills counted (on both sides) lie between the accepted answers and those plus the unanswered requests.
 */
export const SAME_COST_RATIO = 1.5;
export const MIN_RATIO = 0.5;
export const MAX_P99_RATIO = 1.5;
const TICKETS = 1e9;
/**
 * Each side's warm-up before its slices. DynamoDB Local's JIT keeps speeding up for tens of seconds: after a 1 s
 * warm-up the first slice on a DynamoDB Local ran at about half the rate of the last, and the side that ran first
 * carried that into its p99.
 */
export const WARMUP_SECONDS = 10;

type Workload = 'deduction' | 'report';
/** The service, the floor making the same calls, the floor making the minimal call. */
const SIDES = ['service', 'same', 'floor'] as const;
type SideName = (typeof SIDES)[number];

interface Side {
  rps: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
}

export interface FloorRatio {
  workload: Workload;
  connections: number;
  seconds: number;
  service: Side;
  /** The floor making the same DynamoDB calls as the service (bench/warm-floor.ts), no framework. */
  same: Side;
  /** The floor making only the minimal call (bench/minimal-floor.ts). */
  floor: Side;
  /** The service's requests a second over the minimal floor's, and its p99 over the minimal floor's. */
  ratio: number;
  p99Ratio: number;
  /** The same-calls floor's requests a second over the minimal floor's: what the guarantees' calls cost DynamoDB Local. */
  sameRatio: number;
  /** The service's requests a second and p99 over the same-calls floor's: what the service's own work costs. */
  sameServiceRatio: { rps: number; p99: number };
  /** Whether the service reached the mark first asked beside the minimal floor (a measure, not the budget). */
  minimalMark: boolean;
  /** The budget: beside the same-calls floor, the invariants exact and no request failed. */
  pass: boolean;
  violations: string[];
}

interface Player {
  uid: string;
  playerId: string;
  tally: { sent: number; answered: number; accepted: number };
}

const json = (token: string | undefined, body: unknown) => ({
  method: 'POST' as const,
  headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
  body: JSON.stringify(body),
});

/** Starts bench/minimal-floor.ts on a DynamoDB Local of its own; answers its port and how to stop both. */
export async function startMinimalFloor(table: string) {
  const dynamo = await startDynamoLocal({ jvm: 'peak' });
  await ensureTable(dynamo.endpoint, table, { stream: true });
  const child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'minimal-floor.ts')], {
    env: { ...process.env, MINIMAL_ENDPOINT: dynamo.endpoint, MINIMAL_TABLE: table },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const [line] = (await once(createInterface({ input: child.stdout! }), 'line')) as [string];
  const db = DynamoDBDocumentClient.from(adminClient(dynamo.endpoint));
  const stop = async () => {
    child.stdin?.end();
    await once(child, 'exit');
    await dynamo.stop();
  };
  return { port: (JSON.parse(line) as { port: number }).port, db, stop };
}

export async function benchFloorRatios(deps: BenchDeps, options: { connections: number; seconds: number }): Promise<FloorRatio[]> {
  const table = `minimal-${Date.now()}`;
  const minimal = await startMinimalFloor(table);
  const servers = await startServers(deps);
  const base = basePathOf('main', deps.stage);
  const game = await gameWithServer(deps);
  const shop = await shopWithLevel(deps);
  const projectName = shop.project.project_name;
  const results: FloorRatio[] = [];
  try {
    for (const workload of ['deduction', 'report'] as const) {
      const holders = await ticketHolders(deps, projectName, 1, options.connections, TICKETS);
      const players = (side: string): Player[] =>
        holders.map((holder, i) => ({ uid: holder.uid, playerId: `${workload}-${side}-${i}`, tally: { sent: 0, answered: 0, accepted: 0 } }));
      const sameHolders = await ticketHolders(deps, projectName, 1, options.connections, TICKETS);
      const sides = {
        service: players('svc'),
        same: sameHolders.map((holder, i) => ({ uid: holder.uid, playerId: `${workload}-same-${i}`, tally: { sent: 0, answered: 0, accepted: 0 } })),
        floor: players('floor'),
      };
      // The floor's players hold the same balances in its own table.
      await Promise.all(
        sides.floor.map((p) =>
          minimal.db.send(new PutCommand({ TableName: table, Item: { pk: `USER#${p.uid}`, sk: `TICKETS#${projectName}#1`, balance: TICKETS } })),
        ),
      );
      const bodyOf = (p: Player) =>
        workload === 'deduction'
          ? { userId: p.uid, projectName, level: 1, amount: 1 }
          : { game_code: game.code, game_player_id: p.playerId, game_player_name: p.playerId, kills: 1, wins: 1 };
      const spec = workload === 'deduction' ? payRoutes.ops.minus_tickets : boardsRoutes.ops.addWin;
      const token = workload === 'deduction' ? shop.server : game.server;
      const driven = (side: SideName) =>
        sides[side].map((p) => {
          const request: autocannon.Request = {
            ...json(side === 'floor' ? undefined : token, bodyOf(p)),
            path: side === 'floor' ? (workload === 'deduction' ? '/deduct' : '/report') : `${base}${spec.path}`,
            onResponse: (status: number) => {
              p.tally.answered++;
              if (status >= 200 && status < 300) p.tally.accepted++;
            },
          };
          return { requests: [request], tally: p.tally };
        });
      const ports = { service: servers.service, same: servers.floor, floor: minimal.port };
      for (const side of SIDES) await drive(ports[side], driven(side), WARMUP_SECONDS);
      const slices: Record<SideName, Awaited<ReturnType<typeof drive>>[]> = { service: [], same: [], floor: [] };
      for (const side of [...SIDES, ...[...SIDES].reverse()]) slices[side].push(await drive(ports[side], driven(side), options.seconds / 2));
      const summary = (side: SideName): Side => {
        const { rps, p50Ms, p99Ms, non2xx, errors, timeouts } = slicesSummary(slices[side]);
        return { rps, p50Ms, p99Ms, non2xx, errors: errors + timeouts };
      };
      const service = summary('service');
      const same = summary('same');
      const floor = summary('floor');
      const violations = [
        ...(await Promise.all([...sides.service, ...sides.same].map((p) => serviceInvariants(deps, workload, p, game.code, projectName)))).flat(),
        ...(await Promise.all(sides.floor.map((p) => floorInvariants(minimal.db, table, workload, p, game.code, projectName)))).flat(),
      ];
      const ratio = round(service.rps / floor.rps, 2);
      const p99Ratio = round(service.p99Ms / floor.p99Ms, 2);
      const sameServiceRatio = { rps: round(service.rps / same.rps, 2), p99: round(service.p99Ms / same.p99Ms, 2) };
      results.push({
        workload,
        connections: options.connections,
        seconds: options.seconds,
        service,
        same,
        floor,
        ratio,
        p99Ratio,
        sameRatio: round(same.rps / floor.rps, 2),
        sameServiceRatio,
        minimalMark: ratio >= MIN_RATIO && p99Ratio <= MAX_P99_RATIO,
        pass:
          sameServiceRatio.rps >= 1 / SAME_COST_RATIO &&
          sameServiceRatio.p99 <= SAME_COST_RATIO &&
          violations.length === 0 &&
          service.errors + same.errors + floor.errors + service.non2xx + same.non2xx === 0,
        violations,
      });
    }
  } finally {
    servers.child.stdin?.end();
    await once(servers.child, 'exit');
    await minimal.stop();
  }
  return results;
}

/** A count that must lie between the accepted answers and those plus the requests left unanswered. */
function within(p: Player, what: string, value: number): string[] {
  const unanswered = p.tally.sent - p.tally.answered;
  return value < p.tally.accepted || value > p.tally.accepted + unanswered
    ? [`${p.playerId} ${what}: ${value}, accepted ${p.tally.accepted}, unanswered ${unanswered}`]
    : [];
}

async function serviceInvariants(deps: BenchDeps, workload: Workload, p: Player, game: string, projectName: string): Promise<string[]> {
  if (workload === 'deduction') {
    const own = await queryItems(deps, { KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': `USER#${p.uid}` }, ConsistentRead: true });
    const balance = own.find((item) => item.sk === `TICKETS#${projectName}#1`);
    return [...ledgerMismatches(own).map((line) => `${p.playerId} ${line}`), ...within(p, 'tickets taken', TICKETS - Number(balance?.balance ?? 0))];
  }
  // A run within one week and month: the week's score item holds every accepted report.
  const now = new Date();
  const key = { pk: `SCORE#${game}#${seasonKey(weekOf(now))}`, sk: `PLAYER#${p.playerId}` };
  const month = { pk: `SCORE#${game}#${seasonKey(monthOf(now))}`, sk: `PLAYER#${p.playerId}` };
  const [week, inMonth] = await Promise.all([key, month].map((k) => deps.db.send(new GetCommand({ TableName: deps.table, Key: k, ConsistentRead: true }))));
  return [...within(p, 'week kills', Number(week!.Item?.kills ?? 0)), ...within(p, 'month kills', Number(inMonth!.Item?.kills ?? 0))];
}

async function floorInvariants(db: DynamoDBDocumentClient, table: string, workload: Workload, p: Player, game: string, projectName: string): Promise<string[]> {
  const key = workload === 'deduction' ? { pk: `USER#${p.uid}`, sk: `TICKETS#${projectName}#1` } : { pk: `SCORE#${game}`, sk: `PLAYER#${p.playerId}` };
  const item = (await db.send(new GetCommand({ TableName: table, Key: key, ConsistentRead: true }))).Item;
  return workload === 'deduction' ? within(p, 'floor tickets taken', TICKETS - Number(item?.balance ?? 0)) : within(p, 'floor kills', Number(item?.kills ?? 0));
}
