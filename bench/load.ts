import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Hono } from 'hono';
import { basePathOf } from '../core/http/app.js';
import type { GroupName, OperationSpec } from '../core/http/operation.js';
import { appFactories } from '../functions/apps.js';
import { chainRoutes } from '../functions/routes/chain.js';
import { innerRoutes } from '../functions/routes/inner.js';
import { boardsRoutes } from '../functions/routes/boards.js';
import { payRoutes } from '../functions/routes/pay.js';
import { emulateConflicts, type ConflictEmulator, type ItemKey } from '../test/support/conflict-emulator.js';
import { call } from '../test/support/http.js';
import { gameWithServer } from '../test/support/rankings.js';
import { goodsOnSale, purchaseOf, shopWithLevel, ticketHolders, type BenchDeps } from './fixtures.js';
import type { BenchRequest } from './operation-bench.js';
import { percentile, round } from './stats.js';

/**
 * Part 4, load: the hot money and report paths under a sustained concurrent load, in process through the
 * group apps, with DynamoDB's transaction conflict rule emulated (test/support/conflict-emulator.ts). Per
 * operation: throughput, latency, non-2xx answers, conflict rate and retries. Per item (and per partition,
 * the unit DynamoDB's ~1,000 writes/s limit also applies to): the writes it took, scaled to PRODUCTION_RPS.
 * DynamoDB Local on a shared machine sets the throughput here, so the per-request rates are what carry to
 * production, not the absolute writes per second.
 */

/** The production rate assumed for each operation when scaling writes per request (req/s). */
export const PRODUCTION_RPS = 1_000;
/** About what DynamoDB gives one item or one partition key (writes/s). */
export const ITEM_WRITE_LIMIT = 1_000;
/** Warm-up before each measured run: JIT, the process's owner caches, first-of-season records. */
const WARMUP_SECONDS = 0.5;
/** Most-written keys printed per operation (flagged keys are printed whatever their place). */
const TOP_KEYS = 4;

/** Hands each caller its next request; a pool (orders to complete) may run out and be refilled between runs. */
interface Source {
  next(caller: number): BenchRequest | undefined;
  refill?(count: number): Promise<void>;
}

interface LoadBench {
  name: string;
  group: GroupName;
  spec: OperationSpec;
  /** Fixtures for `callers` concurrent callers, each its own player (many players of one project, goods or game). */
  source(deps: BenchDeps, callers: number): Promise<Source>;
}

const endless = (next: (caller: number) => BenchRequest): Source => ({ next });

async function goodsBuyers(deps: BenchDeps, callers: number) {
  const { owner, goods } = await goodsOnSale(deps);
  return { owner, goods, buyers: await ticketHolders(deps, goods.projectName, goods.level, callers) };
}

const loadBenches: LoadBench[] = [
  {
    // A game server of the project deducting 1 ticket per match, each under a fresh Idempotency-Key.
    name: 'minus_tickets (server token)',
    group: 'pay',
    spec: payRoutes.ops.minus_tickets,
    source: async (deps, callers) => {
      const shop = await shopWithLevel(deps);
      const projectName = shop.project.project_name;
      const players = await ticketHolders(deps, projectName, 1, callers);
      return endless((caller) => ({
        token: shop.server,
        headers: { 'idempotency-key': `load-${randomUUID()}` },
        body: { userId: players[caller]!.uid, projectName, level: 1, amount: 1 },
      }));
    },
  },
  {
    // Each request completes a paid order of its own: a pool, made before the run (outside the timing).
    name: 'orderComplete',
    group: 'pay',
    spec: payRoutes.ops.orderComplete,
    source: async (deps, callers) => {
      const shop = await shopWithLevel(deps);
      const players = await ticketHolders(deps, shop.project.project_name, 1, callers, 0);
      const pool: BenchRequest[] = [];
      return {
        next: () => pool.pop(),
        refill: async (count) => {
          for (let made = 0; made < count; made += callers) {
            const batch = players.map(async (player) => {
              const { order, digest } = await purchaseOf(deps, shop, player);
              return { token: player.platform, body: { orderId: order.id, transactionId: digest } };
            });
            pool.push(...(await Promise.all(batch)));
          }
        },
      };
    },
  },
  {
    name: 'createOrder',
    group: 'pay',
    spec: payRoutes.ops.createOrder,
    source: async (deps, callers) => {
      const { goods, buyers } = await goodsBuyers(deps, callers);
      return endless((caller) => ({
        token: buyers[caller]!.platform,
        body: { userId: buyers[caller]!.uid, goodsId: goods.id, quantity: 1, projectName: goods.projectName },
      }));
    },
  },
  {
    name: 'customGoods',
    group: 'pay',
    spec: payRoutes.ops.customGoods,
    source: async (deps, callers) => {
      const { owner, goods, buyers } = await goodsBuyers(deps, callers);
      return endless((caller) => ({
        token: owner.serverToken,
        params: { goodsId: goods.id },
        body: { userId: buyers[caller]!.uid, quantity: 1, projectName: goods.projectName, outerOrderId: `load-${randomUUID()}` },
      }));
    },
  },
  {
    // One player per caller, 1 kill and 1 win a report: every report changes both boards.
    name: 'addWin',
    group: 'boards',
    spec: boardsRoutes.ops.addWin,
    source: async (deps) => {
      const game = await gameWithServer(deps);
      return endless((caller) => ({
        token: game.server,
        body: { game_code: game.code, game_player_id: `p${caller}`, game_player_name: `P${caller}`, kills: 1, wins: 1 },
      }));
    },
  },
  {
    // A match of three players per report, each caller's own three (a player is in one match at a time).
    name: 'submitgamescore (3 players a match)',
    group: 'chain',
    spec: chainRoutes.ops.submitgamescore,
    source: async (deps) => {
      const game = await gameWithServer(deps);
      const line = (id: string) => ({ game_player_id: id, game_player_name: id, kills: 1, wins: 1 });
      return endless((caller) => ({
        token: game.server,
        body: { game_code: game.code, result_id: `load-${randomUUID()}`, scores: ['a', 'b', 'c'].map((p) => line(`p${caller}${p}`)) },
      }));
    },
  },
  {
    name: 'vendor_reward',
    group: 'inner',
    spec: innerRoutes.ops.vendor_reward,
    source: async (deps, callers) => {
      const shop = await shopWithLevel(deps);
      const projectName = shop.project.project_name;
      const users = await ticketHolders(deps, projectName, 1, callers, 0);
      return endless((caller) => ({ token: shop.server, body: { billNo: `R-${randomUUID()}`, userId: users[caller]!.uid, projectName, level: 1, amount: 1 } }));
    },
  },
];

const withParams = (path: string, params: BenchRequest['params'] = {}) =>
  path.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(String(params[name])));

/** `concurrency` callers, each sending its next request when the previous answers, until `seconds` pass or the source runs out. */
async function drive(app: Hono, base: string, spec: OperationSpec, source: Source, concurrency: number, seconds: number) {
  const latencies: number[] = [];
  const statuses: Record<number, number> = {};
  const start = performance.now();
  const end = start + seconds * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async (_, caller) => {
      for (let request = source.next(caller); request && performance.now() < end; request = source.next(caller)) {
        const t0 = performance.now();
        const { status } = await call(app, spec.method, `${base}${withParams(spec.path, request.params)}`, request);
        latencies.push(performance.now() - t0);
        statuses[status] = (statuses[status] ?? 0) + 1;
      }
    }),
  );
  return { latencies, statuses, seconds: (performance.now() - start) / 1000 };
}

/** Writes per item during a run: the transactions' Put/Update/Delete (a ConditionCheck writes nothing) and single-item writes. */
function countWrites(emulator: ConflictEmulator, table: string) {
  const writes = new Map<string, { pk: string; sk: string; writes: number }>();
  const add = (item: ItemKey) => {
    if (item.table !== table) return;
    const id = `${item.pk}\u0000${item.sk}`;
    const seen = writes.get(id) ?? writes.set(id, { pk: item.pk, sk: item.sk, writes: 0 }).get(id)!;
    seen.writes++;
  };
  const stops = [
    emulator.watch((t) => t.cancelled || t.items.filter((i) => i.action !== 'ConditionCheck').forEach(add)),
    emulator.watchWrites((w) => w.refused || add(w.item)),
  ];
  return {
    writes,
    stop: () => {
      for (const stop of stops) stop();
    },
  };
}

/** The key's prefix as docs/performance.md names it: `COUNTER#<kind>`, else the partition key's first segment. */
export const prefixOf = (pk: string) => (pk.startsWith('COUNTER#') ? pk : pk.includes('#') ? `${pk.split('#')[0]}#` : pk);

export interface LoadItem {
  operation: string;
  /** `pk / sk` of an item, or `pk (partition, n items)`. */
  key: string;
  /** Keys of its kind the run wrote (its prefix, item or partition), this one the most written. */
  alike: number;
  prefix: string;
  writes: number;
  writesPerSecond: number;
  writesPerRequest: number;
  /** writesPerRequest × PRODUCTION_RPS. */
  atProduction: number;
  /** atProduction reaches ITEM_WRITE_LIMIT. */
  flagged: boolean;
  /** docs/performance.md mentions the prefix. */
  documented: boolean;
}

export interface LoadResult {
  operation: string;
  group: string;
  requests: number;
  seconds: number;
  rps: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
  statuses: Record<number, number>;
  transactions: number;
  cancelled: number;
  refusedWrites: number;
  /** Cancelled transactions / transactions sent (passed + cancelled). */
  conflictRate: number;
  /** Cancelled transactions / requests: the retries a request made on average. */
  retriesPerRequest: number;
  /** A pooled operation's pool ran out before `seconds`. */
  poolRanOut: boolean;
  items: LoadItem[];
}

/**
 * The keys a run wrote most: items, and partitions of several items (DynamoDB limits both). Keys of one kind
 * (a prefix and the sort key's first segment, or a prefix's partitions: every caller's balance) show once, as the hottest of them with how many are
 * alike; a flagged key always shows.
 */
function hottest(
  operation: string,
  writes: Map<string, { pk: string; sk: string; writes: number }>,
  requests: number,
  seconds: number,
  doc: string,
): LoadItem[] {
  const partitions = new Map<string, { writes: number; items: number }>();
  for (const { pk, writes: n } of writes.values()) {
    const p = partitions.get(pk) ?? partitions.set(pk, { writes: 0, items: 0 }).get(pk)!;
    p.writes += n;
    p.items++;
  }
  const keys = [
    ...[...writes.values()].map((w) => ({ pk: w.pk, key: `${w.pk} / ${w.sk}`, kind: `${prefixOf(w.pk)} ${w.sk.split('#')[0]}`, writes: w.writes })),
    ...[...partitions.entries()]
      .filter(([, p]) => p.items > 1)
      .map(([pk, p]) => ({ pk, key: `${pk} (partition, ${p.items} items)`, kind: `${prefixOf(pk)} partition`, writes: p.writes })),
  ].sort((a, b) => b.writes - a.writes);
  const alike = new Map<string, number>();
  for (const { kind } of keys) alike.set(kind, (alike.get(kind) ?? 0) + 1);
  const shown = new Set<string>();
  const items: LoadItem[] = [];
  for (const { pk, key, kind, writes: n } of keys) {
    const perRequest = n / requests;
    const flagged = perRequest * PRODUCTION_RPS >= ITEM_WRITE_LIMIT;
    if (!flagged && (shown.has(kind) || shown.size >= TOP_KEYS)) continue;
    shown.add(kind);
    items.push({
      operation,
      // Long ids (an Idempotency-Key's record) cut: the prefix and the alike count say what the key is.
      key: key.length > 72 ? `${key.slice(0, 71)}…` : key,
      alike: alike.get(kind)!,
      prefix: prefixOf(pk),
      writes: n,
      writesPerSecond: round(n / seconds, 0),
      writesPerRequest: round(perRequest, 3),
      atProduction: round(perRequest * PRODUCTION_RPS, 0),
      flagged,
      documented: doc.includes(prefixOf(pk)),
    });
  }
  return items;
}

export async function benchLoad(deps: BenchDeps, options: { concurrency: number; seconds: number }): Promise<LoadResult[]> {
  // The load part is about conflicts: with the emulation turned off for the run, it gets an emulator of its own.
  const emulator = deps.conflicts ?? emulateConflicts(deps.db);
  const doc = readFileSync(join(import.meta.dirname, '..', 'docs', 'performance.md'), 'utf8');
  const base = basePathOf('main', deps.stage);
  const results: LoadResult[] = [];
  for (const bench of loadBenches) {
    const app = appFactories[bench.group]!(deps);
    const source = await bench.source(deps, options.concurrency);
    await source.refill?.(2 * options.concurrency);
    const warm = await drive(app, base, bench.spec, source, options.concurrency, WARMUP_SECONDS);
    // A pool is sized from the warm-up's rate, with room: it runs out only if the load speeds up twofold.
    await source.refill?.(Math.ceil((warm.latencies.length / warm.seconds) * options.seconds * 2));

    const before = emulator.stats();
    const counter = countWrites(emulator, deps.table);
    const run = await drive(app, base, bench.spec, source, options.concurrency, options.seconds);
    counter.stop();
    const after = emulator.stats();

    const requests = run.latencies.length;
    const cancelled = after.cancelled - before.cancelled;
    const transactions = after.transactions - before.transactions;
    results.push({
      operation: bench.name,
      group: bench.group,
      requests,
      seconds: round(run.seconds),
      rps: round(requests / run.seconds, 0),
      p50Ms: round(percentile(run.latencies, 50)),
      p99Ms: round(percentile(run.latencies, 99)),
      non2xx: Object.entries(run.statuses)
        .filter(([status]) => Number(status) < 200 || Number(status) > 299)
        .reduce((sum, [, n]) => sum + n, 0),
      statuses: run.statuses,
      transactions,
      cancelled,
      refusedWrites: after.refusedWrites - before.refusedWrites,
      conflictRate: round(cancelled / Math.max(1, transactions + cancelled), 4),
      retriesPerRequest: round(cancelled / Math.max(1, requests), 4),
      poolRanOut: source.refill !== undefined && run.seconds < options.seconds * 0.95,
      items: hottest(bench.name, counter.writes, requests, run.seconds, doc),
    });
  }
  return results;
}
