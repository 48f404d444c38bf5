import { marshall } from '@aws-sdk/util-dynamodb';
import { describe, expect, it } from 'vitest';
import { LOCAL_STAGE } from '../core/platform/stages.js';
import { SCORE_PREFIX } from '../core/rankings/keys.js';
import type { RankBoard } from '../core/rankings/rank-pages.js';
import type { ItemChange } from '../core/rankings/rank-stream.js';
import { createTestDeps, type TestDeps } from './support/deps.js';
import { jobsOf } from './support/job-runs.js';
import { headPages, streamRecords } from './support/rankings.js';
import { pastMonth, pastWeek, rewardGame, scoresInPastWeek } from './support/rewards.js';
import { invokeLambda } from './support/scheduled.js';

/**
 * The live heads' Lambda (functions/jobs/rank-pages.ts) as Lambda runs it: its `handler`, in a process of its own, its
 * Deps built by functions/deployed.ts from the table alone (functionNeeds 'rank-pages'), given the table's stream
 * records as Lambda's event carries them (images in DynamoDB's wire form; score items only, as the subscription's
 * filter lets through, infra/rank-pages.ts), against DynamoDB Local.
 */

/** A batch of the stream's records as Lambda's event holds them. */
const lambdaEvent = (changes: ItemChange[]) => ({
  Records: changes.map(({ before, after }) => ({
    eventSource: 'aws:dynamodb',
    eventName: before && after ? 'MODIFY' : after ? 'INSERT' : 'REMOVE',
    dynamodb: {
      Keys: marshall({ pk: (after ?? before)!.pk, sk: (after ?? before)!.sk }),
      ...(before ? { OldImage: marshall(before) } : {}),
      ...(after ? { NewImage: marshall(after) } : {}),
      StreamViewType: 'NEW_AND_OLD_IMAGES',
    },
  })),
});

/** A board's standings as its live head holds them, in order. */
async function standings(deps: TestDeps, ref: RankBoard) {
  const { directory, pages } = await headPages(deps, ref);
  return { players: directory.players, entries: pages.flatMap((page) => page.entries.map(({ id, score }) => [id, score])) };
}

/** The resources the live heads' function is linked to (the table only) and its environment, on `deps`' table. */
const linked = (deps: TestDeps) => ({
  resources: { App: { name: 'game-platform', stage: LOCAL_STAGE }, Table: { name: deps.table } },
  env: { DYNAMODB_ENDPOINT: deps.endpoint },
});

/** The score records of the stream of `deps`' table so far: what the subscription's filter lets through. */
const scoreRecords = async (deps: TestDeps) =>
  (await streamRecords(deps)).filter((change) => String((change.after ?? change.before)!.pk).startsWith(SCORE_PREFIX));

/** A table with a stream, a game whose past week has three players' scores, and the score records that wrote them. */
async function threePlayersReported() {
  const own = await createTestDeps({ stream: true });
  const game = await rewardGame(own);
  await scoresInPastWeek(own, game, [
    { id: 'first', wins: 3 },
    { id: 'second', wins: 5, kills: 2 },
    { id: 'third', wins: 1 },
  ]);
  return { own, game, scores: await scoreRecords(own) };
}

describe('the live heads Lambda (functions/jobs/rank-pages.ts handler)', () => {
  it("applies a batch of the stream's score records to the boards' heads; the same batch delivered again changes nothing", async () => {
    const { own, game, scores } = await threePlayersReported();
    expect(scores.length).toBeGreaterThan(0);
    const event = lambdaEvent(scores);

    const { resources, env } = linked(own);
    const wins: RankBoard = { board: 'wins', game: game.code, season: pastWeek() };
    const kills: RankBoard = { ...wins, board: 'kills' };
    const first = await invokeLambda('functions/jobs/rank-pages.ts', event, resources, env);
    // Wins and kills, each in the week and the month of the reports.
    expect(first.result).toEqual({ boards: 4, placed: 0 });
    const applied = {
      wins: {
        players: 3,
        entries: [
          ['second', 5],
          ['first', 3],
          ['third', 1],
        ],
      },
      kills: { players: 1, entries: [['second', 2]] },
    };
    expect({ wins: await standings(own, wins), kills: await standings(own, kills) }).toEqual(applied);

    // Lambda delivers a batch again when a run failed after writing: applying is idempotent.
    const again = await invokeLambda('functions/jobs/rank-pages.ts', event, resources, env);
    expect(again.result).toEqual({ boards: 4, placed: 0 });
    expect({ wins: await standings(own, wins), kills: await standings(own, kills) }).toEqual(applied);
  }, 120_000);

  it('skips a record whose image cannot be read: the rest of the batch is applied, the run recorded failed, and the batch not failed', async () => {
    const { own, game, scores } = await threePlayersReported();
    // The third player's week record with an image no score item has: its kills a string.
    const broken = scores.findIndex((change) => change.after?.game_player_id === 'third' && change.after.season_type === pastWeek().type);
    expect(broken).toBeGreaterThanOrEqual(0);
    const records = scores.map((change, i) => (i === broken ? { ...change, after: { ...change.after!, kills: 'many' } } : change));

    const { resources, env } = linked(own);
    // The handler answers (Lambda moves on past the batch) instead of failing it at every retry.
    const run = await invokeLambda('functions/jobs/rank-pages.ts', lambdaEvent(records), resources, env);
    expect(run.result).toEqual({ boards: 4, placed: 0, unreadable: 1 });
    expect(run.output).toContain('rank pages: a stream record could not be read; skipped');

    // The readable records are applied: the week's wins board without the third player, the month's with them.
    const weekWins: RankBoard = { board: 'wins', game: game.code, season: pastWeek() };
    const monthWins: RankBoard = { ...weekWins, season: pastMonth() };
    expect(await standings(own, weekWins)).toEqual({
      players: 2,
      entries: [
        ['second', 5],
        ['first', 3],
      ],
    });
    expect(await standings(own, monthWins)).toEqual({
      players: 3,
      entries: [
        ['second', 5],
        ['first', 3],
        ['third', 1],
      ],
    });
    expect(await standings(own, { ...weekWins, board: 'kills' })).toEqual({ players: 1, entries: [['second', 2]] });

    // The run is recorded failed, with the skipped record counted: the stage overview shows the lost change.
    expect((await jobsOf(own))['rank-pages'].last_run).toMatchObject({
      outcome: 'failed',
      error: { code: 'rank-pages.records_unreadable' },
      did: { records: records.length - 1, boards: 4, unreadable: 1 },
    });
  }, 120_000);
});
