import { describe, expect, it } from 'vitest';
import { createAllApps } from '../functions/apps.js';
import { LOCAL_STAGE } from '../core/platform/stages.js';
import type { RankBoard } from '../core/rankings/rank-pages.js';
import { readSnapshot } from '../core/rankings/rank-snapshot.js';
import { monthOf, weekOf } from '../core/rankings/seasons.js';
import { createTestDeps } from './support/deps.js';
import { call } from './support/http.js';
import { jobsOf } from './support/job-runs.js';
import { gameWithServer } from './support/rankings.js';
import { invokeScheduled } from './support/scheduled.js';

/**
 * The snapshot job's Lambda (functions/jobs/rank-snapshots.ts, infra/jobs.ts `RankSnapshots`) as Lambda runs it: its
 * `handler`, in a process of its own, its Deps built by functions/deployed.ts from the table alone (functionNeeds
 * 'rank-snapshots'), against DynamoDB Local. Scores are reported through the platform (addWin, as a game's
 * servers report them) into the current week and month; a run writes each board's snapshot from the score items.
 */

const players = [
  { id: 'ann', kills: 4, wins: 1 },
  { id: 'bob', kills: 0, wins: 3 },
  { id: 'cid', kills: 7, wins: 0 },
  { id: 'dee', kills: 2, wins: 2 },
  { id: 'eve', kills: 0, wins: 1 },
];

describe('the rank snapshots Lambda (functions/jobs/rank-snapshots.ts handler)', () => {
  it("writes every open season's boards as snapshots from the score items, and records the run", async () => {
    const deps = await createTestDeps();
    const app = createAllApps(deps);
    const game = await gameWithServer(deps);
    for (const player of players) {
      const res = await call(app, 'POST', '/v2-testing/merchant/games/addWin', {
        token: game.server,
        body: { game_code: game.code, game_player_id: player.id, game_player_name: `Name ${player.id}`, kills: player.kills, wins: player.wins },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
    // The seasons of the reports, as the job found them (a run near a week's or month's end still sees both).
    const now = new Date();
    const seasons = [weekOf(now), monthOf(now)];

    // The job's function is linked to the table only.
    const resources = { App: { name: 'game-platform', stage: LOCAL_STAGE }, Table: { name: deps.table } };
    const run = await invokeScheduled('functions/jobs/rank-snapshots.ts', resources, { DYNAMODB_ENDPOINT: deps.endpoint });
    // A first snapshot retires no page: the run does not wait for its grace before deleting any.
    expect(run.result).toMatchObject({ seasons: 2, boards: 4, boardsDeferred: 0, pagesDeleted: 0 });
    expect((run.result as { pagesWritten: number }).pagesWritten).toBeGreaterThanOrEqual(4);

    for (const season of seasons) {
      for (const board of ['kills', 'wins'] as const) {
        const ref: RankBoard = { board, game: game.code, season };
        const snapshot = await readSnapshot(deps, ref);
        // Every player with a score on the board, and none with none.
        expect(snapshot.players, `${board} of ${season.range}`).toBe(players.filter((player) => player[board] > 0).length);
        expect(snapshot.updatedAt).not.toBe('');
      }
    }

    const jobs = await jobsOf(deps);
    expect(jobs['rank-snapshots'].last_run).toMatchObject({
      outcome: 'ok',
      error: null,
      did: { seasons: 2, boards: 4, pages_deleted: 0, boards_deferred: 0 },
    });
  }, 120_000);
});
