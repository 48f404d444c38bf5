import { envInt } from './stats.js';

/** What `npm run bench` measures with, from its environment (bench/run.ts lists the variables), and its budgets. */
export const budgets = { firstResponseRatio: 1.3, warmRatio: 1.5 };
export const config = {
  parts: (process.env.BENCH_PARTS ?? '1,2,3,4,5,6,8').split(',').map((p) => p.trim()),
  coldRuns: envInt('BENCH_COLD_RUNS', 15),
  warmRequests: envInt('BENCH_WARM_REQUESTS', 1000),
  concurrency: envInt('BENCH_CONCURRENCY', 8),
  loadSeconds: envInt('BENCH_LOAD_SECONDS', 3),
  loadConcurrency: envInt('BENCH_LOAD_CONCURRENCY', 20),
  httpSeconds: envInt('BENCH_HTTP_SECONDS', 5),
  httpConnections: envInt('BENCH_HTTP_CONNECTIONS', 16),
  floorConnections: envInt('BENCH_FLOOR_CONNECTIONS', 20),
  floorSeconds: envInt('BENCH_FLOOR_SECONDS', 10),
  partitionLimit: envInt('BENCH_PARTITION_LIMIT', 40),
  scalingSeconds: envInt('BENCH_SCALING_SECONDS', 10),
  scalingConcurrency: envInt('BENCH_SCALING_CONCURRENCY', 48),
  boardPlayers: envInt('BENCH_BOARD_PLAYERS', 1_000_000),
  boardShards: envInt('BENCH_BOARD_SHARDS', 16),
  boardAroundReads: envInt('BENCH_BOARD_AROUND_READS', 100),
  boardBatches: envInt('BENCH_BOARD_BATCHES', 3),
  boardSnapshotChanges: envInt('BENCH_BOARD_SNAPSHOT_CHANGES', 60_000),
  keepingSeconds: envInt('BENCH_KEEPING_SECONDS', 30),
  keepingPlayers: envInt('BENCH_KEEPING_PLAYERS', 2000),
  keepingHead: envInt('BENCH_KEEPING_HEAD', 250),
};
