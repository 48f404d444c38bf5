import { marshall } from '@aws-sdk/util-dynamodb';
import { describe, expect, it } from 'vitest';
import { LOCAL_STAGE } from '../core/platform/stages.js';
import { SCORE_PREFIX } from '../core/rankings/keys.js';
import type { RankBoard } from '../core/rankings/rank-pages.js';
import type { ItemChange } from '../core/rankings/rank-stream.js';
import { createTestDeps, type TestDeps } from './support/deps.js';
import { boardPages, streamRecords } from './support/rankings.js';
import { pastWeek, rewardGame, scoresInPastWeek } from './support/rewards.js';
import { invokeLambda } from './support/scheduled.js';

/**
 * The rank pages' Lambda (functions/rank-pages.ts) as Lambda runs it: its `handler`, in a process of its own, its
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

/** A board's standings as its pages hold them, in order. */
async function standings(deps: TestDeps, ref: RankBoard) {
  const { directory, pages } = await boardPages(deps, ref);
  return { players: directory.players, entries: pages.flatMap((page) => page.entries.map(({ id, score }) => [id, score])) };
}

describe('the rank pages Lambda (functions/rank-pages.ts handler)', () => {
  it("applies a batch of the stream's score records to the rank pages; the same batch delivered again changes nothing", async () => {
    const own = await createTestDeps({ stream: true });
    const game = await rewardGame(own);
    await scoresInPastWeek(own, game, [
      { id: 'first', wins: 3 },
      { id: 'second', wins: 5, kills: 2 },
      { id: 'third', wins: 1 },
    ]);
    const scores = (await streamRecords(own)).filter((change) => String((change.after ?? change.before)!.pk).startsWith(SCORE_PREFIX));
    expect(scores.length).toBeGreaterThan(0);
    const event = lambdaEvent(scores);

    // The rank pages' function is linked to the table only.
    const resources = { App: { name: 'game-platform', stage: LOCAL_STAGE }, Table: { name: own.table } };
    const env = { DYNAMODB_ENDPOINT: own.endpoint };
    const wins: RankBoard = { board: 'wins', game: game.code, season: pastWeek() };
    const kills: RankBoard = { ...wins, board: 'kills' };
    const first = await invokeLambda('functions/rank-pages.ts', event, resources, env);
    // Wins and kills, each in the week and the month of the reports.
    expect(first.result).toEqual({ boards: 4 });
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
    const again = await invokeLambda('functions/rank-pages.ts', event, resources, env);
    expect(again.result).toEqual({ boards: 4 });
    expect({ wins: await standings(own, wins), kills: await standings(own, kills) }).toEqual(applied);
  }, 120_000);
});
