import { HEAD_SIZE, applyHeadChanges, readHead, type StandingChange } from '../core/rankings/rank-head.js';
import { compareStandings, type Standing } from '../core/rankings/order.js';
import type { PageEntry, RankBoard } from '../core/rankings/rank-pages.js';
import { readSnapshot, writeSnapshot } from '../core/rankings/rank-snapshot.js';
import { writeItems } from '../core/platform/batch.js';
import type { Season } from '../core/rankings/seasons.js';
import { readSeasonScores } from '../core/rankings/season-scores.js';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import type { LocalDeps } from '../test/support/local-deps.js';
import { commandCounter } from '../test/support/rankings.js';
import { itemBytes, readUnitsOf } from './capacity.js';
import { capacityMeter } from './capacity-meter.js';
import { boardOrder, type Loaded, seeded } from './rank-around.js';
import { round } from './stats.js';

/**
 * Part 7's rank keeping on the bulk-loaded board, its kills board (after rank_around read it, bench/rank-around.ts),
 * in write and read units on DynamoDB's billing (bench/capacity-meter.ts, as part 2 counts them):
 * 1. the live head (core/rankings/rank-head.ts applyHeadChanges) given batches of changes as the stream gives
 *    them: each change a player's standing before (the one the head and the snapshot hold) and after, 1 to 5
 *    points up, stamped now as a report stamps a score that grows. Two workloads: players drawn from the whole
 *    board (what reports of a large game are: mostly players far below the head, whose changes write nothing),
 *    and players drawn from the board's top HEAD_SIZE (every change reaches the head: a game of at most that
 *    many players, or the worst case). `batches` batches of 100 and of 1,000 changes each;
 * 2. one snapshot (core/rankings/rank-snapshot.ts writeSnapshot) of the board after `snapshotChanges` random
 *    changes since the last one (60,000: a minute at 1,000 reports a second), from the standings kept here, the
 *    deletion of the pages it retired (rank-snapshots.ts, after the grace), and the read of the season whole
 *    that the snapshot job makes first (core/rankings/season-scores.ts
 *    readSeasonScores), each timed without the meter; the write counted with it, the read by the same rules on
 *    the items each Query returned (the meter would read the whole season again to count it);
 * 3. from these, the write and read units rank keeping adds to a report at 1,000 and 10,000 reports a second:
 *    four boards (kills and wins of the week and the month, each assumed the size of this one), each changed
 *    by the report (the head's units per change x 4) and each written by a snapshot a minute (its pages written
 *    and those it retired deleted, x 4; two season reads), beside the report's own units.
 */
export interface HeadBatchCost {
  workload: string;
  batchSize: number;
  batches: number;
  /** Changes whose standing before or after was in the head (the rest write nothing). */
  reachedHead: number;
  /** Milliseconds per batch, the meter on (it reads every item a write names before and after). */
  msPerBatch: number;
  requestsPerBatch: Record<string, number>;
  writeUnitsPerBatch: number;
  readUnitsPerBatch: number;
  writeUnitsPerChange: number;
  readUnitsPerChange: number;
  headPagesBefore: number;
  headPagesAfter: number;
}

export interface SnapshotCost {
  /** Changes to the board since the snapshot before (the head's batches', the rest random). */
  changes: number;
  /** Score items the season read returned. */
  itemsRead: number;
  readSeconds: number;
  /** Read units of the Queries (bench/capacity.ts's rules on the items each returned), and how many Queries. */
  readUnits: number;
  queries: number;
  /** Sorting the items into the board's standings (core/rankings/season-scores.ts boardStandings's work). */
  sortSeconds: number;
  writeSeconds: number;
  writeUnits: number;
  /** The snapshot's own reads (its directory). */
  writeReadUnits: number;
  pagesWritten: number;
  pagesKept: number;
  /** The pages of the snapshot before that the new one no longer names, deleted after the grace, and what that costs. */
  pagesRetired: number;
  deleteSeconds: number;
  deleteUnits: number;
  /** writeSnapshot's own figure of what it costs (its pages written and deleted later, its directory: what it defers by). */
  estimatedUnits: number;
  /** Read, sort, write and delete, the meter off. */
  seconds: number;
}

export interface PerReport {
  reportsPerSecond: number;
  workload: string;
  batchSize: number;
  headWrite: number;
  snapshotWrite: number;
  rankWrite: number;
  headRead: number;
  snapshotRead: number;
  rankRead: number;
  /** The report's own units (an addWin on the loaded board, steady state). */
  reportWrite: number;
  reportRead: number;
}

export interface RankKeepingResult {
  headSize: number;
  head: HeadBatchCost[];
  snapshot: SnapshotCost;
  perReport: PerReport[];
}

const BATCH_SIZES = [100, 1000];
const RATES = [1000, 10_000];
const BOARDS = 4;
const SEASONS = 2;

export async function benchRankKeeping(
  deps: LocalDeps,
  options: { game: string; season: Season; loaded: Loaded; batches: number; snapshotChanges: number; report: { write: number; read: number } },
): Promise<RankKeepingResult> {
  const { game, season, loaded } = options;
  const { players } = loaded;
  const ref: RankBoard = { board: 'kills', game, season };
  const meter = capacityMeter(deps.db, deps.endpoint);
  const counter = commandCounter(deps);
  const random = seeded(11);
  const order = boardOrder(loaded, 'kills');
  // Each player's standing as the head and the snapshot hold it: the loaded one until a change moves it.
  const current = new Map<number, PageEntry>();
  const standing = (i: number): PageEntry =>
    current.get(i) ?? { score: loaded.scores.kills[i]!, at: loaded.ats[i]!, id: loaded.ids[i]!, name: loaded.names[i]! };
  let made = 0;
  const change = (i: number): StandingChange => {
    made++;
    const before = standing(i);
    const after: PageEntry = { ...before, score: before.score + 1 + Math.floor(random() * 5), at: new Date().toISOString() };
    current.set(i, after);
    const { name: _name, ...was } = before;
    return { id: before.id, before: was satisfies Standing, after };
  };
  const workloads = [
    { name: 'whole board', draw: () => Math.floor(random() * players) },
    { name: `top ${Math.min(HEAD_SIZE, players).toLocaleString('en')}`, draw: () => order[Math.floor(random() * Math.min(HEAD_SIZE, players))]! },
  ];
  const head: HeadBatchCost[] = [];
  try {
    for (const workload of workloads) {
      for (const size of BATCH_SIZES) {
        const headPagesBefore = (await readHead(deps, ref)).pages.length;
        const totals = { write: 0, read: 0, ms: 0, reached: 0 };
        const requests: Record<string, number> = {};
        for (let b = 0; b < options.batches; b++) {
          const directory = await readHead(deps, ref);
          const inHead = (s: Standing) => !directory.cutoff || compareStandings(s, directory.cutoff) < 0;
          const changes = Array.from({ length: size }, () => change(workload.draw()));
          totals.reached += changes.filter((c) => (c.before && inHead(c.before)) || (c.after && inHead(c.after))).length;
          counter.start();
          meter.start();
          const t0 = performance.now();
          await applyHeadChanges(deps, ref, changes);
          totals.ms += performance.now() - t0;
          const tally = await meter.stop();
          for (const [name, n] of Object.entries(counter.stop())) requests[name] = (requests[name] ?? 0) + n;
          totals.write += tally.write;
          totals.read += tally.read;
        }
        const changes = size * options.batches;
        head.push({
          workload: workload.name,
          batchSize: size,
          batches: options.batches,
          reachedHead: totals.reached,
          msPerBatch: round(totals.ms / options.batches),
          requestsPerBatch: Object.fromEntries(Object.entries(requests).map(([name, n]) => [name, round(n / options.batches, 1)])),
          writeUnitsPerBatch: round(totals.write / options.batches, 1),
          readUnitsPerBatch: round(totals.read / options.batches, 1),
          writeUnitsPerChange: round(totals.write / changes, 3),
          readUnitsPerChange: round(totals.read / changes, 3),
          headPagesBefore,
          headPagesAfter: (await readHead(deps, ref)).pages.length,
        });
      }
    }

    // The snapshot: the board after `snapshotChanges` changes since the one built with the head (the head's
    // above, the rest random, made here in memory only: the snapshot is written from standings, not changes).
    while (made < options.snapshotChanges) change(Math.floor(random() * players));
    const queries = queryUnits(deps);
    queries.start();
    let t0 = performance.now();
    const items = await readSeasonScores(deps, game, season);
    const readSeconds = (performance.now() - t0) / 1000;
    const read = queries.stop();
    t0 = performance.now();
    // The sort the job makes (boardStandings), on the standings kept here: the loaded items do not hold the changes.
    const entries = Array.from({ length: players }, (_, i) => standing(i)).sort(compareStandings);
    const sortSeconds = (performance.now() - t0) / 1000;
    const before = await readSnapshot(deps, ref);
    meter.start();
    t0 = performance.now();
    const written = await writeSnapshot(deps, ref, entries, new Date().toISOString());
    const writeSeconds = (performance.now() - t0) / 1000;
    const write = await meter.stop();
    // The pages the new directory no longer names, deleted after the grace (rank-snapshots.ts): the snapshot's too.
    meter.start();
    t0 = performance.now();
    await writeItems(deps, [], written.retired);
    const deleteSeconds = (performance.now() - t0) / 1000;
    const deleted = await meter.stop();
    const snapshot: SnapshotCost = {
      changes: made,
      itemsRead: items.length,
      readSeconds: round(readSeconds, 1),
      readUnits: round(read.units, 1),
      queries: read.queries,
      sortSeconds: round(sortSeconds, 1),
      writeSeconds: round(writeSeconds, 1),
      writeUnits: write.write,
      writeReadUnits: write.read,
      pagesWritten: written.written,
      pagesKept: written.kept,
      pagesRetired: written.retired.length,
      deleteSeconds: round(deleteSeconds, 1),
      deleteUnits: deleted.write,
      estimatedUnits: written.units,
      seconds: round(readSeconds + sortSeconds + writeSeconds + deleteSeconds, 1),
    };
    if (written.written + written.kept === 0 || before.pages.length === 0) throw new Error('rank keeping bench: the snapshot wrote nothing');

    const perReport = RATES.flatMap((rate) =>
      head.map((cost) => {
        const reportsAMinute = rate * 60;
        const headWrite = cost.writeUnitsPerChange * BOARDS;
        const snapshotWrite = ((snapshot.writeUnits + snapshot.deleteUnits) * BOARDS) / reportsAMinute;
        const headRead = cost.readUnitsPerChange * BOARDS;
        const snapshotRead = (snapshot.readUnits * SEASONS + snapshot.writeReadUnits * BOARDS) / reportsAMinute;
        return {
          reportsPerSecond: rate,
          workload: cost.workload,
          batchSize: cost.batchSize,
          headWrite: round(headWrite, 2),
          snapshotWrite: round(snapshotWrite, 2),
          rankWrite: round(headWrite + snapshotWrite, 2),
          headRead: round(headRead, 2),
          snapshotRead: round(snapshotRead, 2),
          rankRead: round(headRead + snapshotRead, 2),
          reportWrite: options.report.write,
          reportRead: options.report.read,
        };
      }),
    );
    return { headSize: HEAD_SIZE, head, snapshot, perReport };
  } finally {
    meter.detach();
  }
}

/**
 * Read units of the Queries the deps' client sends while on, by bench/capacity.ts's rules on the items each
 * returned (the items whole: the season's reads project nothing), without reading them again as the meter does.
 */
function queryUnits(deps: LocalDeps) {
  let tally: { units: number; queries: number } | undefined;
  const name = `seasonReadUnits${Math.random()}`;
  deps.db.middlewareStack.add(
    (next, context) => async (args) => {
      const out = await next(args);
      if (tally && context.commandName === 'QueryCommand') {
        const items = ((out.output as { Items?: Record<string, unknown>[] }).Items ?? []).map((item) => marshall(item, { convertClassInstanceToMap: true }));
        const bytes = items.reduce((sum, item) => sum + itemBytes(item), 0);
        tally.units += readUnitsOf(bytes, (args.input as QueryCommandInput).ConsistentRead === true);
        tally.queries++;
      }
      return out;
    },
    { step: 'initialize', name },
  );
  return {
    start: () => void (tally = { units: 0, queries: 0 }),
    stop: () => {
      const result = tally!;
      tally = undefined;
      deps.db.middlewareStack.remove(name);
      return result;
    },
  };
}
