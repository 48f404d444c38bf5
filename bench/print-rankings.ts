import type { LeagueBenchResult } from './league-settlement.js';
import type { BigBoardResult } from './big-board.js';
import type { ScalingResult } from './board-scaling.js';
import type { RankAroundResult } from './rank-around.js';
import type { RankKeepingResult } from './rank-keeping.js';
import type { RankStreamLoadResult } from './rank-stream-load.js';
import { round } from './stats.js';
import { config } from './bench-config.js';
import { table } from './print-tables.js';

/** The bench's tables of the boards and leagues parts (6 to 9), printed as markdown. */

/** Part 9: the league settled, its units per player, and placement. */
export function printLeague(league: LeagueBenchResult) {
  console.log(
    `\n## 9. A league of ${league.players.toLocaleString('en')} players in ${league.cohorts.toLocaleString('en')} cohorts (bulk-loaded in ${league.loadSeconds} s)\n`,
  );
  console.log(
    table(
      ['step', 'result'],
      [
        [
          'settlement of the season',
          `${league.settleSeconds} s, ${league.settledCohorts} of ${league.cohorts} cohorts settled${league.settleSeconds > 600 ? ' **ABOVE 10 min**' : ''}`,
        ],
        ['sample cohorts against ranks computed here', league.sampleCorrect ? 'right' : '**WRONG**'],
        [
          `units per player (metered on ${league.perPlayer.meteredPlayers.toLocaleString('en')} players)`,
          `${league.perPlayer.write} write${league.perPlayer.write > 3 ? ' **ABOVE 3**' : ''}, ${league.perPlayer.read} read; the reward entries ${league.perPlayer.entriesWrite} write in all`,
        ],
        [
          `placement of ${league.placement.players.toLocaleString('en')} first scores in one stream batch`,
          `${Object.entries(league.placement.requests)
            .map(([name, n]) => `${name} x${n}`)
            .join(', ')}; ${league.placement.writePerPlayer} write units a player; ${league.placement.seconds} s`,
        ],
      ],
    ),
  );
}

export function printBigBoard(board: BigBoardResult) {
  console.log(
    `\n## 7. A board of ${board.players.toLocaleString('en')} players (one game's week in ${board.shards} shards, its month empty; bulk-loaded in ${board.load.seconds} s, ${board.load.itemsPerSecond} items/s; gameRank read ${board.reads} times in sequence)\n`,
  );
  console.log(
    table(
      ['read', 'DynamoDB requests', 'p50 ms', 'p99 ms', 'a report lands in the loaded item'],
      [
        [
          'gameRank (top 100 of 4 boards)',
          Object.entries(board.requestsPerRead)
            .map(([name, n]) => `${name} x${n}`)
            .join(', '),
          board.p50Ms,
          board.p99Ms,
          board.reportLanded ? 'yes' : '**NO**',
        ],
      ],
    ),
  );
  printRankAround(board.rankAround);
  printRankKeeping(board.rankKeeping, board.report);
}

export function printRankAround(ranks: RankAroundResult) {
  const built = ranks.built
    .map(
      (b) =>
        `${b.board}: head ${b.headPages} pages (directory ${b.headDirectoryKb} KB), snapshot ${b.snapshotPages} pages (directory ${b.snapshotDirectoryKb} KB), built and written in ${b.seconds} s`,
    )
    .join('; ');
  console.log(
    `\nrank_around (around=${ranks.around}, ${ranks.reads} reads per position in sequence, each answer checked against ranks counted from the loaded scores; heads and snapshots built from the loaded standings: ${built})\n`,
  );
  console.log(
    table(
      [
        'board',
        'players read',
        'DynamoDB requests per read',
        'answered from',
        'p50 ms',
        'p99 ms',
        'answers correct',
        'read units (one read, metered)',
        'charged',
      ],
      ranks.positions.map((p) => [
        p.board,
        p.position,
        p.requests.map((mix) => (mix === 'BatchGetItem x2' ? mix : `**${mix}**`)).join(' / ') +
          (p.settingReads > 0 ? ` (+ a GetItem of what the process remembers a minute, read again: ${p.settingReads} of the reads)` : ''),
        p.standings.join(' / '),
        p.p50Ms,
        p.p99Ms,
        p.wrong === 0 ? `${p.answers}/${p.answers}` : `**${p.answers - p.wrong}/${p.answers}** (${p.firstWrong})`,
        p.readUnits,
        p.charged,
      ]),
    ),
  );
}

export function printRankKeeping(keeping: RankKeepingResult, report: BigBoardResult['report']) {
  console.log(
    `\nRank keeping on the kills board: the live head (head size ${keeping.headSize.toLocaleString('en')}) given batches of changes as the stream gives them (before: the standing the head holds; after: 1-5 points up), units counted by bench/capacity-meter.ts\n`,
  );
  console.log(
    table(
      [
        'changes drawn from',
        'batch',
        'batches',
        'changes reaching the head',
        'ms per batch (meter on)',
        'requests per batch',
        'write units per batch',
        'read units per batch',
        'write units per change',
        'read units per change',
        'head pages before -> after',
      ],
      keeping.head.map((h) => [
        h.workload,
        h.batchSize,
        h.batches,
        `${h.reachedHead} of ${h.batchSize * h.batches}`,
        h.msPerBatch,
        Object.entries(h.requestsPerBatch)
          .map(([name, n]) => `${name} x${n}`)
          .join(', '),
        h.writeUnitsPerBatch,
        h.readUnitsPerBatch,
        h.writeUnitsPerChange,
        h.readUnitsPerChange,
        `${h.headPagesBefore} -> ${h.headPagesAfter}`,
      ]),
    ),
  );
  const s = keeping.snapshot;
  console.log(
    `\nOne snapshot of the kills board after ${s.changes.toLocaleString('en')} changes since the last (60,000 are a minute at 1,000 reports a second): the season read whole (readSeasonScores, ${s.itemsRead.toLocaleString('en')} score items, eventually consistent) and the board's pages written (writeSnapshot); seconds with the meter off; write units counted with it, read units by its rules on the items each of the read's ${s.queries} Queries returned\n`,
  );
  console.log(
    table(
      ['step', 'seconds', 'write units', 'read units', 'pages written / kept'],
      [
        ['read the season whole', s.readSeconds, 0, s.readUnits, '-'],
        ['sort the standings', s.sortSeconds, 0, 0, '-'],
        ['write the snapshot', s.writeSeconds, s.writeUnits, s.writeReadUnits, `${s.pagesWritten} / ${s.pagesKept}`],
        [`delete the ${s.pagesRetired} pages it retired (after the grace)`, s.deleteSeconds, s.deleteUnits, 0, '-'],
        [
          `snapshot in all (writeSnapshot's own figure: ${s.estimatedUnits} write units)`,
          s.seconds,
          s.writeUnits + s.deleteUnits,
          round(s.readUnits + s.writeReadUnits, 1),
          '-',
        ],
      ],
    ),
  );
  console.log(
    `\nUnits rank keeping adds to a report of kills and wins (four boards: kills and wins of the week and the month, each taken as large as this one): the head's units per change x 4, and a snapshot of each board a minute (its pages written and its retired pages deleted x 4, the season read x 2) over the minute's reports; beside the report's own (one addWin measured on the loaded board: ${report.write} write, ${report.read} read; ${report.charged})\n`,
  );
  console.log(
    table(
      [
        'reports/s',
        'changes drawn from',
        'head batch',
        'head write/report',
        'snapshot write/report',
        'rank keeping write/report',
        'head read/report',
        'snapshot read/report',
        'rank keeping read/report',
        'report write + rank keeping write',
      ],
      keeping.perReport.map((p) => [
        p.reportsPerSecond.toLocaleString('en'),
        p.workload,
        p.batchSize,
        p.headWrite,
        p.snapshotWrite,
        p.rankWrite,
        p.headRead,
        p.snapshotRead,
        p.rankRead,
        round(p.reportWrite + p.rankWrite, 2),
      ]),
    ),
  );
}

export function printRankStreamLoad(load: RankStreamLoadResult) {
  console.log(
    `\n## 8. Rank keeping under the partition limit (one game of ${load.shards} shards, addWin reports of ${load.players.toLocaleString('en')} players moving all four boards, ${config.scalingConcurrency} callers for ${load.seconds} s, the stream drained into the heads all along (heads of ${load.headSize.toLocaleString('en')}); DynamoDB's per-partition write limit emulated at ${load.limit} writes/s for reports and heads)\n`,
  );
  console.log(
    table(
      [
        'sent',
        'accepted/s',
        'x limit',
        '503 (throttled)',
        'other',
        'records applied',
        'passes failed (retried)',
        'head transactions/s per board',
        'changes per transaction',
        'hottest partition writes/s',
        'hottest head partition writes/s',
        'catch-up s',
        'heads exact',
      ],
      [
        [
          load.sent,
          load.acceptedPerSecond,
          load.ofLimit,
          load.throttled503,
          load.other,
          load.records,
          load.failedPasses,
          Object.entries(load.headTransactionsPerSecond)
            .map(([board, n]) => `${board} ${n}`)
            .join(', '),
          load.changesPerTransaction,
          `${load.hottestPerSecond}${load.hottestPerSecond > load.limit ? ' **OVER**' : ''} (\`${load.hottestPartition}\`)`,
          load.hottestHeadPerSecond,
          load.catchUpSeconds,
          load.headsExact ? 'yes' : '**NO**',
        ],
      ],
    ),
  );
  console.log(
    `\n${load.heads.map((h) => `${h.board}: ${h.inHead} of ${h.players} standings in the head${h.cutoff ? ' (trimmed to a cutoff)' : ''}, ${h.exact ? 'exact' : `**${h.firstWrong}**`}`).join('; ')}`,
  );
  const league = load.league;
  console.log(
    `\nThe week's league, placed by the same consumer: ${league.placed} of ${league.players} players in ${league.cohorts} cohorts, the fullest holding ${league.fullest}: ${league.exact ? 'each player once, none overfilled' : '**NOT EXACT**'}`,
  );
}

export function printScaling(scaling: ScalingResult[]) {
  console.log(
    `\n## 6. Board shards under the partition limit (one game's addWin reports, ${config.scalingConcurrency} callers for ${config.scalingSeconds} s per K, DynamoDB's per-partition write limit emulated at ${config.partitionLimit} writes/s)\n`,
  );
  console.log(
    table(
      ['K', 'sent', 'accepted/s', 'x limit', '503 (throttled)', 'other', 'hottest partition writes/s', 'totals exact'],
      scaling.map((s) => [s.shards, s.sent, s.acceptedPerSecond, s.ofLimit, s.throttled503, s.other, s.hottestPerSecond, s.totalsExact ? 'yes' : '**NO**']),
    ),
  );
}
