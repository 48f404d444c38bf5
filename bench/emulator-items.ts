import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type autocannon from 'autocannon';
import { startMinimalFloor, WARMUP_SECONDS } from './floor-ratios.js';
import { drive, slicesSummary } from './http-load.js';
import { round } from './stats.js';

/**
 * What one more item, or a transaction, costs DynamoDB Local (docs/performance.md "Under load, beside a server
 * making only the minimal call"): the minimal floor's deduction and report (bench/minimal-floor.ts) beside the
 * same call with one item more (read first, written after the answer is sent, or written at once beside it) or
 * made inside a TransactWriteItems, alone or with the item more. On this machine DynamoDB Local's rate is set by
 * the items it handles and the transactions it runs, so a design's ratio to the minimal call can be told from them
 * before it is built. Each connection is its own player. The fresh DynamoDB Local first warms FRESH_WARMUP_SECONDS
 * on the minimal deduction (its JIT still sped it up by half after 30 s); then per workload every path warms
 * WARMUP_SECONDS, and each variant runs in slices of `seconds / 2` in the order minimal, variant, variant, minimal.
 */
const FRESH_WARMUP_SECONDS = 30;

export interface ItemCost {
  workload: 'deduction' | 'report';
  variant: string;
  what: string;
  minimalRps: number;
  variantRps: number;
  ratio: number;
  minimalP99Ms: number;
  variantP99Ms: number;
  /** Answers other than 2xx, and errors, on both paths: none expected. */
  failures: number;
}

const WORKLOADS = {
  deduction: {
    minimal: '/deduct',
    variants: {
      '/deduct-read': "the player's gone mark read first",
      '/deduct-ledger-later': 'a ledger entry put after the answer',
      '/deduct-transaction': "the balance's update alone in a transaction",
      '/deduct-ledger-transaction': 'the balance and a ledger entry in one transaction',
      '/deduct-as-built': 'the gone mark read, then the balance and a ledger entry in one transaction (as built)',
      '/deduct-entry-in-balance': "the gone mark read, then the entry kept in the balance's update, paged every 8th (weighed)",
    },
  },
  report: {
    minimal: '/report',
    variants: {
      '/report-month-later': "the month's score item updated after the answer",
      '/report-month-parallel': "the month's score item updated beside the week's",
      '/report-transaction': "the week's and the month's in one transaction",
    },
  },
} as const;

/** One connection per player, each sending its own body to `path` again and again. */
function callers(players: string[], workload: ItemCost['workload'], path: string) {
  return players.map((uid) => {
    const body =
      workload === 'deduction' ? { userId: uid, projectName: 'items', level: 1, amount: 1 } : { game_code: 'items', game_player_id: uid, kills: 1, wins: 1 };
    const request: autocannon.Request = { method: 'POST', path, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) };
    return { requests: [request], tally: { sent: 0 } };
  });
}

export async function benchEmulatorItems(options: { connections: number; seconds: number }): Promise<ItemCost[]> {
  const table = `items-${Date.now()}`;
  const floor = await startMinimalFloor(table);
  const players = Array.from({ length: options.connections }, (_, i) => `player-${i}`);
  const results: ItemCost[] = [];
  try {
    await Promise.all(
      players.map((uid) => floor.db.send(new PutCommand({ TableName: table, Item: { pk: `USER#${uid}`, sk: 'TICKETS#items#1', balance: 1e9 } }))),
    );
    await drive(floor.port, callers(players, 'deduction', WORKLOADS.deduction.minimal), FRESH_WARMUP_SECONDS);
    for (const [workload, { minimal, variants }] of Object.entries(WORKLOADS) as [ItemCost['workload'], (typeof WORKLOADS)[ItemCost['workload']]][]) {
      const callersOf = (path: string) => callers(players, workload, path);
      for (const path of [minimal, ...Object.keys(variants)]) await drive(floor.port, callersOf(path), WARMUP_SECONDS);
      for (const [variant, what] of Object.entries(variants)) {
        const slices: Record<string, Awaited<ReturnType<typeof drive>>[]> = { [minimal]: [], [variant]: [] };
        for (const path of [minimal, variant, variant, minimal]) slices[path]!.push(await drive(floor.port, callersOf(path), options.seconds / 2));
        const base = slicesSummary(slices[minimal]!);
        const one = slicesSummary(slices[variant]!);
        results.push({
          workload,
          variant,
          what,
          minimalRps: base.rps,
          variantRps: one.rps,
          ratio: round(one.rps / base.rps, 2),
          minimalP99Ms: base.p99Ms,
          variantP99Ms: one.p99Ms,
          failures: base.non2xx + one.non2xx + base.errors + one.errors,
        });
      }
    }
  } finally {
    await floor.stop();
  }
  return results;
}
