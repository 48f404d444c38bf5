import { weekOf } from '../core/rankings/seasons.js';
import { createAllApps } from '../functions/apps.js';
import { call } from '../test/support/http.js';
import { createLocalDeps } from '../test/support/local-deps.js';
import { PartitionLimits } from '../test/support/partition-limits.js';
import { readSeasonScores } from '../core/rankings/season-scores.js';
import { shardedGame } from '../test/support/rankings.js';
import { round } from './stats.js';

/**
 * Part 6, board shards under the partition limit: one game's reports (addWin, each a player of a pool) sent as
 * fast as `concurrency` callers can for `seconds`, with DynamoDB's per-partition write limit emulated at
 * `limit` writes a second (test/support/partition-limits.ts, scaled down to what this machine drives) and the
 * transaction conflict rule on, for each K. The scaling law: accepted reports a second stay at the limit with
 * K = 1 and grow about K times with K shards, while the hottest partition stays at or under the limit. At the
 * end every player's stored kills are compared with the sum of their accepted reports.
 */
export interface ScalingResult {
  shards: number;
  limit: number;
  seconds: number;
  sent: number;
  accepted: number;
  acceptedPerSecond: number;
  /** accepted a second over the limit: what the game takes in partitions' worth. */
  ofLimit: number;
  throttled503: number;
  other: number;
  hottestPerSecond: number;
  totalsExact: boolean;
}

const PLAYERS = 2000;

export async function benchBoardScaling(
  endpoint: string,
  options: { shards: number[]; limit: number; seconds: number; concurrency: number },
): Promise<ScalingResult[]> {
  const results: ScalingResult[] = [];
  for (const shards of options.shards) {
    const limits = new PartitionLimits(options.limit);
    const deps = await createLocalDeps(endpoint, { tablePrefix: 'bench-boards', partitions: limits });
    const app = createAllApps(deps);
    const game = await shardedGame(deps, shards);
    const sums = new Map<string, number>();
    const counts = { sent: 0, accepted: 0, throttled503: 0, other: 0 };
    // The game's first report makes the process's one-time reads and the open-season records; not measured.
    await call(app, 'POST', '/v2-testing/merchant/games/addWin', {
      token: game.server,
      body: { game_code: game.code, game_player_id: 'warm-up', game_player_name: '', kills: 1, wins: 0 },
    });
    sums.set('warm-up', 1);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const end = performance.now() + options.seconds * 1000;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: options.concurrency }, async () => {
        while (performance.now() < end) {
          const player = `player-${Math.floor(Math.random() * PLAYERS)}`;
          const kills = 1 + Math.floor(Math.random() * 5);
          counts.sent++;
          const answer = await call(app, 'POST', '/v2-testing/merchant/games/addWin', {
            token: game.server,
            body: { game_code: game.code, game_player_id: player, game_player_name: '', kills, wins: 0 },
          });
          if (answer.status === 200) {
            counts.accepted++;
            sums.set(player, (sums.get(player) ?? 0) + kills);
          } else if (answer.status === 503) counts.throttled503++;
          else counts.other++;
        }
      }),
    );
    const elapsed = (performance.now() - started) / 1000;
    const stored = new Map((await readSeasonScores(deps, game.code, weekOf(new Date()), true)).map((item) => [item.game_player_id, item.kills]));
    const totalsExact = stored.size === sums.size && [...sums].every(([player, kills]) => stored.get(player) === kills);
    const acceptedPerSecond = counts.accepted / elapsed;
    results.push({
      shards,
      limit: options.limit,
      seconds: round(elapsed, 1),
      ...counts,
      acceptedPerSecond: round(acceptedPerSecond, 1),
      ofLimit: round(acceptedPerSecond / options.limit, 2),
      hottestPerSecond: limits.stats().hottest.perSecond,
      totalsExact,
    });
  }
  return results;
}
