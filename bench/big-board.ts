import { boardPartition, scoreKey } from '../core/rankings/keys.js';
import { weekOf } from '../core/rankings/seasons.js';
import { createAllApps } from '../functions/apps.js';
import { call } from '../test/support/http.js';
import { createLocalDeps } from '../test/support/local-deps.js';
import { commandCounter, shardedGame } from '../test/support/rankings.js';
import { loadBoard, type LoadedBoard } from './board-loader.js';
import { benchRankAround, type RankAroundResult } from './rank-around.js';
import { percentile, round } from './stats.js';
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';

/**
 * Part 7 (not run by default: loading takes minutes), a board of `players` players: one game's current week
 * bulk-loaded into `shards` shards (bench/board-loader.ts, outside the timing), scores skewed as real boards
 * are (most players low, long ties at the bottom), then gameRank read `reads` times in sequence: its DynamoDB
 * requests and its latency. A report on a loaded player must land in the loaded item (the loader writes what
 * the reports write). Before any of that, the board's rank pages, rank_around and their consumer
 * (bench/rank-around.ts).
 */
export interface BigBoardResult {
  players: number;
  shards: number;
  load: LoadedBoard;
  requestsPerRead: Record<string, number>;
  reads: number;
  p50Ms: number;
  p99Ms: number;
  reportLanded: boolean;
  /** The rejected way to a player's rank (docs/performance.md): counting the players above on the board's index. */
  countingOnRead: { player: string; score: number; above: number; queries: number; ms: number }[];
  rankAround: RankAroundResult;
}

/** A deterministic skewed score: about exponential, mean near 20, at least 1. */
function skewed(i: number, salt: number): number {
  let h = Math.imul(i ^ salt, 0x9e3779b1) >>> 0;
  h = Math.imul(h ^ (h >>> 15), 0x85ebca6b) >>> 0;
  const u = (h + 1) / 2 ** 32;
  return 1 + Math.floor(-Math.log(u) * 20);
}

export async function benchBigBoard(
  endpoint: string,
  options: { players: number; shards: number; reads: number; aroundReads: number; batches: number },
): Promise<BigBoardResult> {
  const deps = await createLocalDeps(endpoint, { tablePrefix: 'bench-big', conflicts: false });
  const app = createAllApps(deps);
  const game = await shardedGame(deps, options.shards);
  const season = weekOf(new Date());
  const scoreOf = (i: number) => ({ kills: skewed(i, 1), wins: skewed(i, 2) });
  const load = await loadBoard(deps, { game: game.code, season, shards: options.shards, players: options.players, inFlight: 16, scoreOf });
  const rankAround = await benchRankAround(deps, app, {
    game: game.code,
    server: game.server,
    season,
    players: options.players,
    scoreOf,
    reads: options.aroundReads,
    batches: options.batches,
  });
  const read = () => call(app, 'GET', '/v2-testing/merchant/games/rank', { query: { game_code: game.code, limit: 100 } });
  await read();
  const counter = commandCounter(deps);
  counter.start();
  await read();
  const requestsPerRead = counter.stop();
  const latencies: number[] = [];
  for (let i = 0; i < options.reads; i++) {
    const t0 = performance.now();
    const answer = await read();
    latencies.push(performance.now() - t0);
    if (answer.status !== 200 || answer.body.data.gameWeekKillRank.length !== 100) throw new Error(`gameRank answered ${answer.status}`);
  }
  // The loaded layout is the reports': a report on a loaded player adds to its item.
  const before = skewed(0, 1);
  await call(app, 'POST', '/v2-testing/merchant/games/addWin', {
    token: game.server,
    body: { game_code: game.code, game_player_id: 'loaded-0', game_player_name: 'Player 0', kills: 5, wins: 0 },
  });
  const item = await deps.db.send(
    new GetCommand({ TableName: deps.table, Key: scoreKey(game.code, season, 'loaded-0', options.shards), ConsistentRead: true }),
  );
  // A player's rank by counting on read: a COUNT Query of every shard's board above the player's score, paged
  // to the end (DynamoDB reads every entry it counts, 1 MB a page).
  const countAbove = async (score: number) => {
    let queries = 0;
    let above = 0;
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: options.shards }, async (_, shard) => {
        let start: Record<string, unknown> | undefined;
        do {
          const out = await deps.db.send(
            new QueryCommand({
              TableName: deps.table,
              IndexName: 'gsi4',
              KeyConditionExpression: 'gsi4pk = :p AND gsi4sk > :s',
              ExpressionAttributeValues: { ':p': boardPartition('kills', game.code, season, shard, options.shards), ':s': score },
              Select: 'COUNT',
              ExclusiveStartKey: start,
            }),
          );
          queries++;
          above += out.Count ?? 0;
          start = out.LastEvaluatedKey;
        } while (start);
      }),
    );
    return { above, queries, ms: round(performance.now() - t0) };
  };
  const samples = [
    { player: 'at the top (score 300)', score: 300 },
    { player: 'in the middle (score 14)', score: 14 },
    { player: 'at the bottom (score 1)', score: 1 },
  ];
  const countingOnRead = [];
  for (const sample of samples) countingOnRead.push({ ...sample, ...(await countAbove(sample.score)) });
  return {
    rankAround,
    countingOnRead,
    players: options.players,
    shards: options.shards,
    load,
    requestsPerRead,
    reads: options.reads,
    p50Ms: round(percentile(latencies, 50)),
    p99Ms: round(percentile(latencies, 99)),
    reportLanded: Number(item.Item?.gsi4sk) === before + 5,
  };
}
