import type { TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { rulesKey } from '../core/leagues/keys.js';
import { placeNewPlayers } from '../core/leagues/placement.js';
import { readItems } from '../core/platform/batch.js';
import { type Board, headDirectoryKey, headPageKey, headTopKey, scoreKey as scoreKeyOf } from '../core/rankings/keys.js';
import { MAX_BOARD } from '../core/rankings/models.js';
import { compareStandings, type Standing } from '../core/rankings/order.js';
import { readHead } from '../core/rankings/rank-head.js';
import { type PageEntry, toEntries, toPage } from '../core/rankings/rank-pages.js';
import { applyItemChanges, standingChanges } from '../core/rankings/rank-stream.js';
import { boardStandings, readSeasonScores } from '../core/rankings/season-scores.js';
import { monthOf, type Season, weekOf } from '../core/rankings/seasons.js';
import { createAllApps } from '../functions/apps.js';
import { localConnection } from '../tools/local/dynamo.js';
import { ScoreStreamReader } from '../tools/local/score-stream.js';
import { call } from '../test/support/http.js';
import { createLocalDeps } from '../test/support/local-deps.js';
import { PartitionLimits } from '../test/support/partition-limits.js';
import { shardedGame } from '../test/support/rankings.js';
import { round } from './stats.js';

/**
 * Part 8, rank keeping under the partition limit: one game of `shards` board shards takes addWin reports (each a
 * player of a pool of `players`, 1 to 5 kills and 1 win, so every report moves all four boards) as fast as
 * `concurrency` callers can for `seconds`, while the table's stream is drained continuously into the boards'
 * live heads (tools/local/score-stream.ts ScoreStreamReader, core/rankings/rank-stream.ts applyItemChanges:
 * one GetRecords batch of up to 1,000 records at a time, each board's changes of a batch in one transaction).
 * DynamoDB's per-partition write limit is emulated at `limit` writes a second (test/support/partition-limits.ts,
 * scaled down to what this machine drives, as part 6) for the reports and the heads alike, with the transaction
 * conflict rule on. A head transaction refused over the limit fails its batch, which the next pass reads again
 * (as Lambda retries a batch). The heads are kept at `headSize` standings (fewer than the deployed HEAD_SIZE, so
 * that a pool this size fills them and they trim to a cutoff). At the end the stream is drained to its end and
 * each head is compared with the board computed from the score items: its pages must hold exactly the standings
 * above its cutoff (all of them without one), in order, and its top item the first MAX_BOARD.
 *
 * The game runs a weekly league (cohorts of LEAGUE_COHORT), so the same consumer places each player's first score
 * of the week (core/leagues/placement.ts), under the same limit: at the end every player of the week is in exactly
 * one cohort, none holds more than LEAGUE_COHORT, and the hottest partition above counts the placements too.
 */
export interface HeadExact {
  board: string;
  /** Standings on the board (score items with a score on it). */
  players: number;
  /** Standings the head holds, and whether it trimmed to a cutoff. */
  inHead: number;
  cutoff: boolean;
  exact: boolean;
  firstWrong?: string;
}

/** The league placed alongside: players of the week, how many have a cohort, the cohorts and the fullest. */
export interface LeaguePlacement {
  players: number;
  placed: number;
  cohorts: number;
  fullest: number;
  exact: boolean;
}

const LEAGUE_COHORT = 50;

export interface RankStreamLoadResult {
  shards: number;
  limit: number;
  players: number;
  headSize: number;
  seconds: number;
  sent: number;
  accepted: number;
  acceptedPerSecond: number;
  ofLimit: number;
  throttled503: number;
  other: number;
  /** Score records the consumer applied during the run, and GetRecords passes that failed (a head transaction throttled). */
  records: number;
  failedPasses: number;
  /** Head transactions committed a second during the run, per board, and the changes each carried on average. */
  headTransactionsPerSecond: Record<string, number>;
  changesPerTransaction: number;
  /** The most writes any partition passed within a second (the score items' and the heads' alike), and which. */
  hottestPerSecond: number;
  hottestPartition: string;
  /** The most writes a head partition (a directory with its top, or a page) took in one second. */
  hottestHeadPerSecond: number;
  /** Seconds from the last report to the heads having every record. */
  catchUpSeconds: number;
  heads: HeadExact[];
  headsExact: boolean;
  league: LeaguePlacement;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const same = (a: PageEntry, b: PageEntry) => a.id === b.id && a.score === b.score && a.at === b.at && a.name === b.name;
const label = (board: Board, season: Season) => `${board} ${season.type === 1 ? 'week' : 'month'}`;

export async function benchRankStreamLoad(
  endpoint: string,
  options: { shards: number; limit: number; seconds: number; concurrency: number; players: number; headSize: number },
): Promise<RankStreamLoadResult> {
  const limits = new PartitionLimits(options.limit);
  const deps = await createLocalDeps(endpoint, { tablePrefix: 'bench-keeping', partitions: limits, stream: true });
  const keeping = { ...deps, rankHeadSize: options.headSize };
  const app = createAllApps(deps);
  const game = await shardedGame(deps, options.shards);
  const now = new Date();
  const seasons = [weekOf(now), monthOf(now)];
  // The week's league, its rules stored as if set the week before (a change applies from the next season).
  await deps.db.send(
    new PutCommand({
      TableName: deps.table,
      Item: {
        ...rulesKey(game.code, seasons[0]!.start),
        type: 'league_rules',
        game_code: game.code,
        board: 'kills',
        season_type: 1,
        cohort_size: LEAGUE_COHORT,
        idle_drop: 0,
        start_tier: 1,
        tiers: [{ name: 'Only', promote: 0, demote: 0, rewards: [] }],
        from: seasons[0]!.start.toISOString(),
        updated_at: seasons[0]!.start.toISOString(),
      },
    }),
  );

  // Each head transaction that commits, by board (its directory's partition), and each head partition's writes by second.
  let counting = false;
  const transactions = new Map<string, number>();
  let changesApplied = 0;
  const headWrites = new Map<string, number>();
  deps.db.middlewareStack.add(
    (next, context) => async (args) => {
      const out = await next(args);
      if (counting && context.commandName === 'TransactWriteItemsCommand') {
        const items = (args.input as TransactWriteCommandInput).TransactItems ?? [];
        const directory = items.find((write) => write.Put?.Item?.sk === 'DIRECTORY' && String(write.Put.Item.pk).startsWith('RANKS#'));
        if (directory) {
          const pk = String(directory.Put!.Item!.pk);
          transactions.set(pk, (transactions.get(pk) ?? 0) + 1);
          const second = Math.floor(performance.now() / 1000);
          for (const write of items) {
            const key = `${String(write.Put?.Item?.pk ?? write.Delete?.Key?.pk)} ${second}`;
            headWrites.set(key, (headWrites.get(key) ?? 0) + 1);
          }
        }
      }
      return out;
    },
    { step: 'initialize', name: 'headTransactions' },
  );

  let records = 0;
  let failedPasses = 0;
  const reader = new ScoreStreamReader(deps, localConnection(endpoint), async (changes) => {
    // As the deployed consumer: the league's new players first, then the heads (functions/jobs/rank-pages.ts).
    await placeNewPlayers(deps, changes);
    await applyItemChanges(keeping, changes);
    if (!counting) return;
    records += changes.length;
    for (const { changes: board } of standingChanges(changes).values()) changesApplied += board.length;
  });
  let draining = true;
  const drainer = (async () => {
    while (draining) {
      try {
        if ((await reader.drain()) === 0) await sleep(100);
      } catch {
        failedPasses++;
        await sleep(100);
      }
    }
  })();

  // The game's first report makes the process's one-time reads and the open-season records; not measured.
  await call(app, 'POST', '/v2-testing/merchant/games/addWin', {
    token: game.server,
    body: { game_code: game.code, game_player_id: 'warm-up', game_player_name: 'Warm up', kills: 1, wins: 1 },
  });
  await sleep(1100);
  const counts = { sent: 0, accepted: 0, throttled503: 0, other: 0 };
  counting = true;
  const started = performance.now();
  const end = started + options.seconds * 1000;
  await Promise.all(
    Array.from({ length: options.concurrency }, async () => {
      while (performance.now() < end) {
        const n = Math.floor(Math.random() * options.players);
        counts.sent++;
        const answer = await call(app, 'POST', '/v2-testing/merchant/games/addWin', {
          token: game.server,
          body: { game_code: game.code, game_player_id: `player-${n}`, game_player_name: `Player ${n}`, kills: 1 + Math.floor(Math.random() * 5), wins: 1 },
        });
        if (answer.status === 200) counts.accepted++;
        else if (answer.status === 503) counts.throttled503++;
        else counts.other++;
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  const duringRun = { transactions: new Map(transactions), records };
  // Caught up: a pass that read nothing after the last report, with no pass failing since.
  const stopped = performance.now();
  draining = false;
  await drainer;
  for (;;) {
    try {
      if ((await reader.drain()) === 0) break;
    } catch {
      failedPasses++;
      await sleep(100);
    }
  }
  const catchUpSeconds = (performance.now() - stopped) / 1000;
  counting = false;

  const heads: HeadExact[] = [];
  for (const season of seasons) {
    const scores = await readSeasonScores(deps, game.code, season, true);
    for (const board of ['kills', 'wins'] as Board[]) {
      const ref = { board, game: game.code, season };
      const expected = boardStandings(board, scores);
      const directory = await readHead(deps, ref);
      const pages = await readItems(
        deps,
        directory.pages.map((page) => headPageKey(board, game.code, season, page.id)),
      );
      const held = pages.flatMap((item) => (item ? toPage(item).entries : []));
      const cutoff = directory.cutoff;
      const above = cutoff ? expected.filter((entry) => compareStandings(entry, cutoff as Standing) < 0) : expected;
      const [top] = await readItems(deps, [headTopKey(board, game.code, season)]);
      const topEntries = top ? toEntries(top.data as Uint8Array) : [];
      const wrongAt = held.findIndex((entry, i) => !above[i] || !same(entry, above[i]!));
      const topWrong = expected.slice(0, MAX_BOARD).findIndex((entry, i) => !topEntries[i] || !same(entry, topEntries[i]!));
      const firstWrong =
        held.length !== above.length
          ? `the head holds ${held.length} standings, ${above.length} stand above its cutoff`
          : wrongAt >= 0
            ? `rank ${wrongAt + 1}: ${held[wrongAt]!.id} ${held[wrongAt]!.score}, counted ${above[wrongAt]?.id} ${above[wrongAt]?.score}`
            : topWrong >= 0 || topEntries.length !== Math.min(MAX_BOARD, expected.length)
              ? `the top item differs at rank ${topWrong + 1}`
              : directory.players !== held.length
                ? `the directory counts ${directory.players}, its pages hold ${held.length}`
                : undefined;
      heads.push({
        board: label(board, season),
        players: expected.length,
        inHead: held.length,
        cutoff: cutoff !== undefined,
        exact: firstWrong === undefined,
        ...(firstWrong ? { firstWrong } : {}),
      });
    }
  }

  const week = await readSeasonScores(deps, game.code, seasons[0]!, true);
  const stored = await readItems(
    deps,
    week.map((score) => scoreKeyOf(game.code, seasons[0]!, score.game_player_id, options.shards)),
  );
  const cohorts = new Map<string, number>();
  for (const item of stored) if (typeof item?.cohort === 'string') cohorts.set(item.cohort, (cohorts.get(item.cohort) ?? 0) + 1);
  const placed = [...cohorts.values()].reduce((sum, n) => sum + n, 0);
  const fullest = Math.max(0, ...cohorts.values());
  const league = { players: week.length, placed, cohorts: cohorts.size, fullest, exact: placed === week.length && fullest <= LEAGUE_COHORT };

  const headTransactionsPerSecond: Record<string, number> = {};
  for (const season of seasons) {
    for (const board of ['kills', 'wins'] as Board[]) {
      const count = duringRun.transactions.get(headDirectoryKey(board, game.code, season).pk) ?? 0;
      headTransactionsPerSecond[label(board, season)] = round(count / elapsed, 1);
    }
  }
  const allTransactions = [...transactions.values()].reduce((sum, n) => sum + n, 0);
  const hottest = limits.stats().hottest;
  const acceptedPerSecond = counts.accepted / elapsed;
  return {
    shards: options.shards,
    limit: options.limit,
    players: options.players,
    headSize: options.headSize,
    seconds: round(elapsed, 1),
    ...counts,
    acceptedPerSecond: round(acceptedPerSecond, 1),
    ofLimit: round(acceptedPerSecond / options.limit, 2),
    records: duringRun.records,
    failedPasses,
    headTransactionsPerSecond,
    changesPerTransaction: round(changesApplied / Math.max(1, allTransactions), 1),
    hottestPerSecond: hottest.perSecond,
    hottestPartition: hottest.partition.replace(deps.table, 'table').replace(game.code, '<game>'),
    hottestHeadPerSecond: Math.max(0, ...headWrites.values()),
    catchUpSeconds: round(catchUpSeconds, 1),
    heads,
    headsExact: heads.every((head) => head.exact),
    league,
  };
}
