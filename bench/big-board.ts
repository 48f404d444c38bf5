import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { scoreKey } from '../core/rankings/keys.js';
import { toScoreItem } from '../core/rankings/items.js';
import { weekOf } from '../core/rankings/seasons.js';
import { createAllApps } from '../functions/apps.js';
import { call } from '../test/support/http.js';
import { createLocalDeps } from '../test/support/local-deps.js';
import { commandCounter, shardedGame } from '../test/support/rankings.js';
import { loadBoard, type LoadedBoard } from './board-loader.js';
import { capacityMeter } from './capacity-meter.js';
import { benchRankAround, loadedPlayers, type RankAroundResult } from './rank-around.js';
import { benchRankKeeping, type RankKeepingResult } from './rank-keeping.js';
import { percentile, round } from './stats.js';

/**
 * Part 7 (not run by default: loading takes minutes), a board of `players` players: one game's current week
 * bulk-loaded into `shards` shards (bench/board-loader.ts, outside the timing), scores skewed as real boards
 * are (most players low, long ties at the bottom). Then, in order:
 * 1. both boards' heads and snapshots built from the loaded standings, and rank_around on them
 *    (bench/rank-around.ts);
 * 2. gameRank read `reads` times in sequence: its DynamoDB requests (the four boards' top items, whatever the
 *    shards) and its latency;
 * 3. a report on a loaded player, which must land in the loaded item (the loader writes what the reports
 *    write), and its write and read units (bench/capacity-meter.ts), the game's first report made before;
 * 4. rank keeping on the kills board: the head's units per change and a snapshot's, and what they add to a
 *    report (bench/rank-keeping.ts).
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
  /** One addWin of kills and wins on the loaded board, steady state: its units. */
  report: { write: number; read: number; charged: string };
  rankAround: RankAroundResult;
  rankKeeping: RankKeepingResult;
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
  options: { players: number; shards: number; reads: number; aroundReads: number; batches: number; snapshotChanges: number },
): Promise<BigBoardResult> {
  const deps = await createLocalDeps(endpoint, { tablePrefix: 'bench-big', conflicts: false });
  const app = createAllApps(deps);
  const game = await shardedGame(deps, options.shards);
  const season = weekOf(new Date());
  const scoreOf = (i: number) => ({ kills: skewed(i, 1), wins: skewed(i, 2) });
  const load = await loadBoard(deps, { game: game.code, season, shards: options.shards, players: options.players, inFlight: 16, scoreOf });
  const loaded = loadedPlayers(season, options.players, scoreOf);
  const rankAround = await benchRankAround(deps, app, { game: game.code, server: game.server, season, loaded, reads: options.aroundReads });

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

  // The loaded layout is the reports': a report on a loaded player adds to its item. The game's first report
  // makes the process's one-time reads, the open-season records and the player's month item; the second, of the
  // same player, is the steady state measured.
  const addWin = () =>
    call(app, 'POST', '/v2-testing/merchant/games/addWin', {
      token: game.server,
      body: { game_code: game.code, game_player_id: 'loaded-0', game_player_name: 'Player 0', kills: 5, wins: 1 },
    });
  await addWin();
  const meter = capacityMeter(deps.db, endpoint);
  meter.start();
  const answer = await addWin();
  const tally = await meter.stop();
  meter.detach();
  if (answer.status !== 200) throw new Error(`addWin answered ${answer.status}`);
  const item = await deps.db.send(
    new GetCommand({ TableName: deps.table, Key: scoreKey(game.code, season, 'loaded-0', options.shards), ConsistentRead: true }),
  );
  const stored = item.Item && toScoreItem(item.Item);
  const groups = new Map<string, number>();
  for (const c of tally.charges) {
    const name = `${c.command} ${c.key}${c.target === 'table' ? '' : ` ${c.target}`}`;
    groups.set(name, (groups.get(name) ?? 0) + c.write + c.read);
  }
  const report = {
    write: tally.write,
    read: tally.read,
    charged: [...groups].map(([name, units]) => `${name} ${round(units)}`).join(', '),
  };

  const rankKeeping = await benchRankKeeping(deps, {
    game: game.code,
    season,
    loaded,
    batches: options.batches,
    snapshotChanges: options.snapshotChanges,
    report,
  });
  return {
    players: options.players,
    shards: options.shards,
    load,
    requestsPerRead,
    reads: options.reads,
    p50Ms: round(percentile(latencies, 50)),
    p99Ms: round(percentile(latencies, 99)),
    reportLanded: stored?.kills === scoreOf(0).kills + 10 && stored.wins === scoreOf(0).wins + 2,
    report,
    rankAround,
    rankKeeping,
  };
}
