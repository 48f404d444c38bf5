import { randomUUID } from 'node:crypto';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it, vi } from 'vitest';
import { scoreKey } from '../core/rankings/keys.js';
import { weekOf } from '../core/rankings/seasons.js';
import { createAllApps } from '../functions/apps.js';
import { localConnection } from '../tools/local/dynamo.js';
import { startScoreStreamLoop } from '../tools/local/score-stream.js';
import { createTestDeps, type TestDeps } from './support/deps.js';
import { gamePayload, newCode } from './support/games.js';
import { call } from './support/http.js';
import { jobsOf } from './support/job-runs.js';
import { merchantWithToken } from './support/merchants.js';

/**
 * The local server's rank-pages loop (tools/local/score-stream.ts) against records it must not stop on: it
 * reads only the score items' records, as the deployed subscription's filter lets through, so a game saved with
 * an empty `link` map (the console's create-game form sends one) never reaches its decoding; a score record it
 * cannot read is logged once and skipped, recorded as a failed run, and the loop goes on; a pass that fails
 * reading the stream is recorded as a failed run too, so the stage overview (the console's Stage screen) shows it.
 */

const poll = { timeout: 60_000, interval: 100 };

/** A game of an active merchant saved through savemerchantgame with `link`, and its server token. */
async function savedGame(deps: TestDeps, app: ReturnType<typeof createAllApps>, link: Record<string, string>) {
  const owner = await merchantWithToken(deps);
  const code = newCode('links');
  const saved = await call(app, 'POST', '/v2-testing/merchant/games/save', { token: owner.token, body: { ...gamePayload(code), link } });
  expect(saved.status, JSON.stringify(saved.body)).toBe(200);
  const server = (await deps.tokens.issue('server', owner.accountId, { merchant_id: owner.merchant.id })).token;
  return { code, server };
}

async function report(app: ReturnType<typeof createAllApps>, game: { code: string; server: string }, id: string, wins: number) {
  const answer = await call(app, 'POST', '/v2-testing/chain/game/score', {
    token: game.server,
    body: { game_code: game.code, result_id: randomUUID(), scores: [{ game_player_id: id, game_player_name: id, kills: 0, wins }] },
  });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
}

/** rank_around of a player on the week's wins board: who the pages put above them, and how many players they hold. */
async function around(app: ReturnType<typeof createAllApps>, game: { code: string; server: string }, id: string) {
  const answer = await call(app, 'GET', '/v2-testing/merchant/games/rank/around', {
    token: game.server,
    query: { game_code: game.code, board: 'wins', season_type: 1, game_player_id: id },
  });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return { above: (answer.body.data.above as { game_player_id: string }[]).map((entry) => entry.game_player_id), players: answer.body.data.players };
}

/** The JSON lines the process writes to stdout and stderr from now on (still written through). */
function watchLogLines() {
  const chunks: string[] = [];
  const spies = [process.stdout, process.stderr].map((stream) => {
    const write = stream.write.bind(stream) as (...args: unknown[]) => boolean;
    return vi.spyOn(stream, 'write').mockImplementation(((chunk: unknown, ...rest: unknown[]) => {
      chunks.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('utf8'));
      return write(chunk, ...rest);
    }) as never);
  });
  return {
    lines: () =>
      chunks
        .join('')
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as Record<string, unknown>),
    stop: () => {
      for (const spy of spies) spy.mockRestore();
    },
  };
}

describe("the local server's rank-pages loop", () => {
  it('goes on past a game saved with an empty link map, as the console saves one: rank_around follows the later reports', async () => {
    const deps = await createTestDeps({ stream: true });
    const app = createAllApps(deps);
    const game = await savedGame(deps, app, {});
    const loop = startScoreStreamLoop(deps, localConnection(deps.endpoint), 50);
    try {
      await report(app, game, 'first', 3);
      await expect.poll(async () => (await around(app, game, 'first')).players, poll).toBe(1);
      // A second game saved the same way, between reports: the loop reads on past its record too.
      await savedGame(deps, app, {});
      await report(app, game, 'second', 5);
      await expect.poll(() => around(app, game, 'first'), poll).toEqual({ above: ['second'], players: 2 });
      const run = (await jobsOf(deps))['rank-pages'];
      expect(run).toMatchObject({ last_run: { outcome: 'ok', error: null }, failures: [] });
    } finally {
      await loop.stop();
    }
  }, 120_000);

  it('logs a score record it cannot read once and skips it, records the batch as a failed run, and goes on', async () => {
    const deps = await createTestDeps({ stream: true });
    const app = createAllApps(deps);
    const game = await savedGame(deps, app, { web: 'https://play.example.com' });
    const logs = watchLogLines();
    const loop = startScoreStreamLoop(deps, localConnection(deps.endpoint), 50);
    try {
      await report(app, game, 'first', 3);
      await expect.poll(async () => (await around(app, game, 'first')).players, poll).toBe(1);
      // An empty map on the score item: the record's images come out of GetRecords in a form that cannot be read.
      await deps.db.send(
        new UpdateCommand({
          TableName: deps.table,
          Key: scoreKey(game.code, weekOf(new Date()), 'first', 1),
          UpdateExpression: 'SET extra = :empty',
          ExpressionAttributeValues: { ':empty': {} },
        }),
      );
      await expect
        .poll(async () => (await jobsOf(deps))['rank-pages'].last_run, poll)
        .toMatchObject({ outcome: 'failed', error: { code: 'rank-pages.records_unreadable' }, did: { unreadable: 1 } });
      const failed = (await jobsOf(deps))['rank-pages'];
      expect(failed.last_run.error.summary).toMatch(/^rank pages: 1 stream record could not be read and was skipped/);
      expect(failed.failures[0]).toEqual({ at: failed.last_run.ended_at, error: failed.last_run.error, request_id: null });

      // The loop read on: a later report reaches the pages, and its batch is an ok run.
      await report(app, game, 'second', 5);
      await expect.poll(() => around(app, game, 'first'), poll).toEqual({ above: ['second'], players: 2 });
      await expect.poll(async () => (await jobsOf(deps))['rank-pages'].last_run.outcome, poll).toBe('ok');
    } finally {
      await loop.stop();
      logs.stop();
    }
    const skipped = logs.lines().filter((line) => line.message === 'rank pages: a stream record could not be read; skipped');
    expect(skipped).toHaveLength(1);
    expect(skipped[0]).toMatchObject({ keys: scoreKey(game.code, weekOf(new Date()), 'first', 1), error: { message: expect.any(String) } });
  }, 120_000);

  it('records a pass that fails reading the stream as a failed run, which the stage overview answers', async () => {
    // A table without a stream: every pass fails before it reads a record.
    const deps = await createTestDeps();
    const loop = startScoreStreamLoop(deps, localConnection(deps.endpoint), 50);
    try {
      await expect.poll(async () => (await jobsOf(deps))['rank-pages'].last_run?.outcome, poll).toBe('failed');
    } finally {
      // Stopped before the overview is read: a pass failing meanwhile would record a newer failure.
      await loop.stop();
    }
    const jobs = await jobsOf(deps);
    expect(jobs['rank-pages']).toMatchObject({
      last_run: {
        outcome: 'failed',
        error: { code: 'rank-pages.stream_read_failed', summary: expect.stringMatching(/^rank pages: reading the table's stream failed/) },
        did: {},
        request_id: null,
      },
      last_success_at: null,
    });
    expect(jobs['rank-pages'].failures[0]).toEqual({ at: jobs['rank-pages'].last_run.ended_at, error: jobs['rank-pages'].last_run.error, request_id: null });
  }, 120_000);
});
