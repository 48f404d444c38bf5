import { randomUUID } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { createAllApps } from '../functions/apps.js';
import { scoreKey, openSeasonKey } from '../core/rankings/keys.js';
import { MAX_POINTS, MAX_REPORT_PLAYERS } from '../core/rankings/models.js';
import { toScoreItem } from '../core/rankings/items.js';
import { monthOf, parseSeasonRange, SeasonType, seasonKey, weekOf } from '../core/rankings/seasons.js';
import { call } from './support/http.js';
import { createTestDeps, itemCount, type TestDeps } from './support/deps.js';
import { merchantWithToken } from './support/merchants.js';
import { playerWithTokens } from './support/payments.js';
import { commandCounter, drainRankStream, gameWithServer } from './support/rankings.js';

let deps: TestDeps;
let app: ReturnType<typeof createAllApps>;
const base = '/v2-testing';
const addWinPath = `${base}/merchant/games/addWin`;
const scorePath = `${base}/chain/game/score`;
const rankPath = `${base}/merchant/games/rank`;

beforeAll(async () => {
  // The table's stream: gameRank reads the boards' tops kept from it (core/rankings/rank-head.ts).
  deps = await createTestDeps({ stream: true });
  app = createAllApps(deps);
});

const at = (iso: string) => new Date(iso);
const utc = (iso: string) => new Date(`${iso}Z`);

/** Runs `fn` with the deps' clock at `date`, then goes back to real time. */
async function atTime<T>(date: Date, fn: () => Promise<T>): Promise<T> {
  deps.setNow(date);
  try {
    return await fn();
  } finally {
    deps.setNow(undefined);
  }
}

const win = (game: string, player: string, kills: number, wins: number, extra: object = {}) => ({
  game_code: game,
  game_player_id: player,
  game_player_name: `Name ${player}`,
  kills,
  wins,
  ...extra,
});

async function addWin(token: string, body: object) {
  return call(app, 'POST', addWinPath, { token, body });
}

/**
 * gameRank once the stream's pending records are applied to the boards (what the deployed subscription does a
 * moment after each report): gameRank is a stream batch behind the reports.
 */
async function rank(game: string, limit?: number) {
  await drainRankStream(deps);
  return rankAsIs(game, limit);
}

/** gameRank as it answers now, whatever the stream has not applied yet. */
async function rankAsIs(game: string, limit?: number) {
  const res = await call(app, 'GET', rankPath, { query: { game_code: game, ...(limit !== undefined ? { limit } : {}) } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data as Record<
    'gameWeekKillRank' | 'gameWeekWinRank' | 'gameMothKillRank' | 'gameMothWinRank',
    { total: string; game_player_id: string; game_player_name: string }[]
  >;
}

const ids = (entries: { game_player_id: string }[]) => entries.map((e) => e.game_player_id);
const totals = (entries: { game_player_id: string; total: string }[]) => Object.fromEntries(entries.map((e) => [e.game_player_id, e.total]));

async function scoreItem(game: string, season: ReturnType<typeof weekOf>, player: string) {
  const out = await deps.db.send(new GetCommand({ TableName: deps.table, Key: scoreKey(game, season, player, 1), ConsistentRead: true }));
  return out.Item ? toScoreItem(out.Item) : undefined;
}

describe('seasons (UTC)', () => {
  it('Sunday 23:59:59.999 and Monday 00:00 are in different weeks; a week starts Monday', () => {
    expect(weekOf(utc('2026-11-22T23:59:59.999')).range).toBe('2026-11-16-11-22');
    expect(weekOf(utc('2026-11-23T00:00:00.000')).range).toBe('2026-11-23-11-29');
    expect(weekOf(utc('2026-11-16T00:00:00.000')).range).toBe('2026-11-16-11-22');
    expect(weekOf(utc('2026-11-22T23:59:59.999')).end.toISOString()).toBe('2026-11-23T00:00:00.000Z');
    // A time-zone offset is only another way to write the instant: 00:30 on Monday in +01:00 is still Sunday UTC.
    expect(weekOf(at('2026-11-23T00:30:00+01:00')).range).toBe('2026-11-16-11-22');
  });

  it('month ends: the last millisecond of a month and the first of the next', () => {
    expect(monthOf(utc('2026-04-30T23:59:59.999')).range).toBe('2026-04-01-04-30');
    expect(monthOf(utc('2026-05-01T00:00:00.000')).range).toBe('2026-05-01-05-31');
    expect(monthOf(utc('2026-12-31T23:59:59.999')).range).toBe('2026-12-01-12-31');
    expect(monthOf(utc('2026-12-31T23:59:59.999')).end.toISOString()).toBe('2027-01-01T00:00:00.000Z');
    // Sunday 2026-05-31 ends a week and a month at once.
    expect(weekOf(utc('2026-05-31T23:59:59.999')).range).toBe('2026-05-25-05-31');
    expect(weekOf(utc('2026-06-01T00:00:00.000')).range).toBe('2026-06-01-06-07');
  });

  it('February: 29 days in a leap year (2028), 28 in 2027', () => {
    expect(monthOf(utc('2028-02-29T12:00:00')).range).toBe('2028-02-01-02-29');
    expect(monthOf(utc('2028-02-29T23:59:59.999')).end.toISOString()).toBe('2028-03-01T00:00:00.000Z');
    expect(monthOf(utc('2027-02-28T23:59:59.999')).range).toBe('2027-02-01-02-28');
    expect(monthOf(utc('2027-03-01T00:00:00')).range).toBe('2027-03-01-03-31');
    expect(weekOf(utc('2028-02-29T12:00:00')).range).toBe('2028-02-28-03-05');
    expect(parseSeasonRange(SeasonType.month, '2028-02-01-02-29')?.start.toISOString()).toBe('2028-02-01T00:00:00.000Z');
    expect(parseSeasonRange(SeasonType.month, '2027-02-01-02-29')).toBeUndefined();
    expect(parseSeasonRange(SeasonType.month, '2027-02-01-02-28')?.end.toISOString()).toBe('2027-03-01T00:00:00.000Z');
  });

  it("a week across New Year keeps its first day's year: 2029-12-31-01-06", () => {
    for (const instant of ['2029-12-31T00:00:00', '2030-01-01T12:00:00', '2030-01-06T23:59:59.999']) {
      expect(weekOf(utc(instant)).range).toBe('2029-12-31-01-06');
    }
    expect(weekOf(utc('2030-01-07T00:00:00')).range).toBe('2030-01-07-01-13');
    expect(monthOf(utc('2029-12-31T23:59:59.999')).range).toBe('2029-12-01-12-31');
    expect(monthOf(utc('2030-01-01T00:00:00')).range).toBe('2030-01-01-01-31');
    const week = parseSeasonRange(SeasonType.week, '2029-12-31-01-06')!;
    expect([week.start.toISOString(), week.end.toISOString()]).toEqual(['2029-12-31T00:00:00.000Z', '2030-01-07T00:00:00.000Z']);
    expect(seasonKey(week)).toBe('W#2029-12-31');
  });

  it('parseSeasonRange accepts only the real first and last days of a season of that type', () => {
    expect(parseSeasonRange(SeasonType.week, '2026-11-16-11-22')?.range).toBe('2026-11-16-11-22');
    expect(parseSeasonRange(SeasonType.month, '2026-11-01-11-30')?.range).toBe('2026-11-01-11-30');
    for (const [type, range] of [
      [SeasonType.week, '2026-11-17-11-23'], // not a Monday
      [SeasonType.week, '2026-11-16-11-21'], // wrong last day
      [SeasonType.week, '2026-11-01-11-30'], // a month, not a week
      [SeasonType.month, '2026-11-16-11-22'], // a week, not a month
      [SeasonType.month, '2026-11-01-11-31'], // no 31 November
      [SeasonType.month, '2026-02-30-03-01'], // no 30 February
      [SeasonType.month, '2026-13-01-13-31'],
      [SeasonType.week, '2029-12-31-01-06 '],
      [SeasonType.week, '2029-12-31-1-6'],
      [SeasonType.week, '2030-12-31-01-06'], // the year is the first day's
    ] as const) {
      expect(parseSeasonRange(type, range), `${type} ${range}`).toBeUndefined();
    }
  });

  it('addWin at Sunday 23:59:59.999 and at Monday 00:00 count in different weeks, and in the month of each', async () => {
    const { code, server } = await gameWithServer(deps);
    const sunday = await atTime(utc('2026-05-31T23:59:59.999'), () => addWin(server, win(code, 'p1', 2, 1)));
    expect(sunday.body.data.seasons).toEqual([
      { season_type: 1, season_range: '2026-05-25-05-31' },
      { season_type: 2, season_range: '2026-05-01-05-31' },
    ]);
    const monday = await atTime(utc('2026-06-01T00:00:00.000'), () => addWin(server, win(code, 'p1', 3, 0)));
    expect(monday.body.data.seasons).toEqual([
      { season_type: 1, season_range: '2026-06-01-06-07' },
      { season_type: 2, season_range: '2026-06-01-06-30' },
    ]);
    const sundayWeek = weekOf(utc('2026-05-31T12:00:00'));
    expect(await scoreItem(code, sundayWeek, 'p1')).toMatchObject({ kills: 2, wins: 1, season_type: 1, season_range: '2026-05-25-05-31' });
    expect(await scoreItem(code, monthOf(utc('2026-05-31T12:00:00')), 'p1')).toMatchObject({ kills: 2, wins: 1, season_type: 2 });
    expect(await scoreItem(code, weekOf(utc('2026-06-01T12:00:00')), 'p1')).toMatchObject({ kills: 3, wins: 0 });

    // On Monday the boards are the new week's and the new month's.
    const boards = await atTime(utc('2026-06-01T08:00:00'), () => rank(code));
    expect(totals(boards.gameWeekKillRank)).toEqual({ p1: '3' });
    expect(boards.gameWeekWinRank).toEqual([]);
    expect(totals(boards.gameMothKillRank)).toEqual({ p1: '3' });
    // Within one month, both weeks add to the month.
    await atTime(utc('2026-11-22T23:59:59.999'), () => addWin(server, win(code, 'p2', 4, 1)));
    await atTime(utc('2026-11-23T00:00:00.000'), () => addWin(server, win(code, 'p2', 5, 1)));
    const november = await atTime(utc('2026-11-23T10:00:00'), () => rank(code));
    expect(totals(november.gameWeekKillRank)).toEqual({ p2: '5' });
    expect(totals(november.gameMothKillRank)).toEqual({ p2: '9' });
    expect(totals(november.gameMothWinRank)).toEqual({ p2: '2' });

    // Every season with scores has its open-season record, for settlement.
    const open = await deps.db.send(new GetCommand({ TableName: deps.table, Key: openSeasonKey(code, sundayWeek), ConsistentRead: true }));
    expect(open.Item).toMatchObject({
      game_code: code,
      season_type: 1,
      season_range: '2026-05-25-05-31',
      start: '2026-05-25T00:00:00.000Z',
      end: '2026-06-01T00:00:00.000Z',
    });
  });
});

describe('addWin', () => {
  it('adds kills and wins to the current week and month, in the merchant envelope; names follow the latest report', async () => {
    const { code, server } = await gameWithServer(deps);
    const wallet = `0x${'ab'.repeat(32)}`;
    const first = await addWin(server, win(code, 'alice', 3, 1, { wallet_address: wallet.toUpperCase().replace('0X', '0x') }));
    expect(first.status).toBe(200);
    const now = new Date();
    expect(first.body).toEqual({
      code: 200,
      message: 'success',
      data: {
        game_code: code,
        game_player_id: 'alice',
        kills: 3,
        wins: 1,
        seasons: [
          { season_type: 1, season_range: weekOf(now).range },
          { season_type: 2, season_range: monthOf(now).range },
        ],
      },
    });
    await addWin(server, { ...win(code, 'alice', 2, 0), game_player_name: 'Alice B.' });
    await addWin(server, win(code, 'bob', 0, 4));
    const boards = await rank(code);
    expect(boards.gameWeekKillRank).toEqual([{ total: '5', game_player_id: 'alice', game_player_name: 'Alice B.' }]);
    expect(boards.gameMothKillRank).toEqual(boards.gameWeekKillRank);
    expect(boards.gameWeekWinRank).toEqual([
      { total: '4', game_player_id: 'bob', game_player_name: 'Name bob' },
      { total: '1', game_player_id: 'alice', game_player_name: 'Alice B.' },
    ]);
    // bob has no kills: on no kills board, though his entry exists (at 0 kills).
    expect(ids(boards.gameMothKillRank)).not.toContain('bob');
    expect(await scoreItem(code, weekOf(now), 'bob')).toMatchObject({ kills: 0, wins: 4 });
    expect(await scoreItem(code, weekOf(now), 'alice')).toMatchObject({ kills: 5, wins: 1, wallet_address: wallet });
  });

  it('an empty name is kept as empty; a platform user id works as the player id', async () => {
    const { code, server } = await gameWithServer(deps);
    const player = await playerWithTokens(deps);
    expect((await addWin(server, { ...win(code, player.uid, 1, 1), game_player_name: '' })).status).toBe(200);
    const boards = await rank(code);
    expect(boards.gameWeekKillRank).toEqual([{ total: '1', game_player_id: player.uid, game_player_name: '' }]);
  });

  it("is the merchant's state read and one TransactWriteItems per call once the game is known; gameRank is one BatchGetItem", async () => {
    const { code, server } = await gameWithServer(deps);
    await addWin(server, win(code, 'warm', 1, 1));
    await rank(code);
    const counter = commandCounter(deps);
    // A report moves value (rewards are paid from the boards): the authorization layer reads the merchant's
    // suspension and revocations fresh (one BatchGetItem); the owner check is remembered.
    counter.start();
    await addWin(server, win(code, 'p', 1, 1));
    expect(counter.stop()).toEqual({ BatchGetItem: 1, TransactWriteItems: 1 });
    counter.start();
    await addWin(server, win(code, 'p', 1, 1, { result_id: 'r-count' }));
    expect(counter.stop()).toEqual({ BatchGetItem: 1, TransactWriteItems: 1 });
    counter.start();
    await call(app, 'POST', scorePath, {
      token: server,
      body: { game_code: code, result_id: 'm-count', scores: [{ game_player_id: 'a', game_player_name: '', kills: 1, wins: 0 }] },
    });
    expect(counter.stop()).toEqual({ BatchGetItem: 1, TransactWriteItems: 1 });
    await drainRankStream(deps);
    counter.start();
    const boards = await rankAsIs(code);
    // The four boards' tops in one request, whatever their sizes.
    expect(counter.stop()).toEqual({ BatchGetItem: 1 });
    expect(totals(boards.gameWeekKillRank)).toEqual({ warm: '1', p: '2', a: '1' });
  });

  it('gameRank is a stream batch behind the reports: a report shows once its batch is applied', async () => {
    const { code, server } = await gameWithServer(deps);
    await addWin(server, win(code, 'first', 2, 1));
    expect(await rank(code)).toMatchObject({ gameWeekKillRank: [{ game_player_id: 'first', total: '2' }] });
    await addWin(server, win(code, 'second', 5, 0));
    await addWin(server, win(code, 'first', 1, 0));
    // Not applied yet: the boards as they were.
    const before = await rankAsIs(code);
    expect(before.gameWeekKillRank).toEqual([{ total: '2', game_player_id: 'first', game_player_name: 'Name first' }]);
    expect(before.gameMothWinRank).toEqual([{ total: '1', game_player_id: 'first', game_player_name: 'Name first' }]);
    const after = await rank(code);
    expect(after.gameWeekKillRank).toEqual([
      { total: '5', game_player_id: 'second', game_player_name: 'Name second' },
      { total: '3', game_player_id: 'first', game_player_name: 'Name first' },
    ]);
    expect(after.gameMothKillRank).toEqual(after.gameWeekKillRank);
    expect(after.gameWeekWinRank).toEqual(before.gameWeekWinRank);
  });

  it('403 for a server token of another merchant, 404 for an unknown game; nothing written', async () => {
    const { code } = await gameWithServer(deps);
    const stranger = await gameWithServer(deps);
    const before = await itemCount(deps);
    const refused = await addWin(stranger.server, win(code, 'p', 1, 1));
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ code: 403, message: expect.stringMatching(/^game_code:/), data: null, error: 'access.other_owner' });
    const unknown = await addWin(stranger.server, win('no-such-game', 'p', 1, 1));
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ code: 404, message: 'game_code: no game no-such-game', data: null, error: 'access.not_found' });
    const score = await call(app, 'POST', scorePath, {
      token: stranger.server,
      body: { game_code: code, result_id: 'r1', scores: [{ game_player_id: 'p', game_player_name: 'n', kills: 1, wins: 1 }] },
    });
    expect(score.status).toBe(403);
    expect(score.body).toEqual({ statusCode: 403, message: expect.stringMatching(/^game_code:/), error: 'access.other_owner' });
    const scoreUnknown = await call(app, 'POST', scorePath, {
      token: stranger.server,
      body: { game_code: 'no-such-game', result_id: 'r1', scores: [{ game_player_id: 'p', game_player_name: 'n', kills: 1, wins: 1 }] },
    });
    expect(scoreUnknown.status).toBe(404);
    expect(await itemCount(deps)).toBe(before);
    expect((await rank(code)).gameWeekKillRank).toEqual([]);
  });

  it('401 without a token and with a merchant, platform or game token instead of a server token', async () => {
    const { code } = await gameWithServer(deps);
    const merchant = await merchantWithToken(deps);
    const player = await playerWithTokens(deps);
    const before = await itemCount(deps);
    for (const token of [undefined, merchant.token, player.platform, player.game, 'not-a-jwt']) {
      const res = await addWin(token as string, win(code, 'p', 1, 1));
      expect(res.status).toBe(401);
      expect(res.body).toEqual({
        code: 401,
        message: expect.any(String),
        data: null,
        error: token === undefined ? 'auth.token_missing' : 'auth.token_invalid',
      });
      const score = await call(app, 'POST', scorePath, {
        token,
        body: { game_code: code, result_id: 'r', scores: [{ game_player_id: 'p', game_player_name: '', kills: 1, wins: 0 }] },
      });
      expect(score.status).toBe(401);
      expect(score.body).toEqual({ statusCode: 401, message: expect.any(String), error: token === undefined ? 'auth.token_missing' : 'auth.token_invalid' });
    }
    expect(await itemCount(deps)).toBe(before);
  });

  it('400 naming the field for bad bodies, nothing written', async () => {
    const { code, server } = await gameWithServer(deps);
    const good = win(code, 'p', 1, 1);
    const cases: [object, RegExp][] = [
      [{ ...good, kills: -1 }, /^body\.kills/],
      [{ ...good, kills: 1.5 }, /^body\.kills/],
      [{ ...good, kills: '3' }, /^body\.kills/],
      [{ ...good, wins: MAX_POINTS + 1 }, /^body\.wins/],
      [{ ...good, kills: 0, wins: 0 }, /^body\.kills: kills or wins must be positive/],
      [{ ...good, game_player_id: '' }, /^body\.game_player_id/],
      [{ ...good, game_player_id: '   ' }, /^body\.game_player_id/],
      [{ ...good, game_player_id: 'x'.repeat(129) }, /^body\.game_player_id/],
      [{ ...good, game_player_id: 'a\nb' }, /^body\.game_player_id/],
      [{ ...good, game_player_name: 'x'.repeat(65) }, /^body\.game_player_name/],
      [{ ...good, game_player_name: undefined }, /^body\.game_player_name/],
      [{ ...good, wallet_address: '0x12' }, /^body\.wallet_address/],
      [{ ...good, result_id: 'has spaces' }, /^body\.result_id/],
      [{ ...good, game_code: 'bad code!' }, /^body\.game_code/],
      [{ ...good, wins: undefined }, /^body\.wins/],
    ];
    const before = await itemCount(deps);
    for (const [body, field] of cases) {
      const res = await addWin(server, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body).toEqual({ code: 400, message: expect.stringMatching(field), data: null, error: 'input.invalid' });
    }
    const line = { game_player_id: 'p', game_player_name: '', kills: 1, wins: 0 };
    const reports: [object, RegExp][] = [
      [{ game_code: code, result_id: 'r', scores: [] }, /^body\.scores/],
      [{ game_code: code, result_id: 'r', scores: Array.from({ length: 49 }, (_, i) => ({ ...line, game_player_id: `p${i}` })) }, /^body\.scores/],
      [{ game_code: code, scores: [line] }, /^body\.result_id/],
      [{ game_code: code, result_id: 'r', scores: [line, { ...line, kills: -2 }] }, /^body\.scores\.1\.kills/],
      [{ game_code: code, result_id: 'r', scores: [{ ...line, game_player_id: '' }] }, /^body\.scores\.0\.game_player_id/],
    ];
    for (const [body, field] of reports) {
      const res = await call(app, 'POST', scorePath, { token: server, body });
      expect(res.status, JSON.stringify(body).slice(0, 200)).toBe(400);
      expect(res.body).toEqual({ statusCode: 400, message: expect.stringMatching(field), error: 'input.invalid' });
    }
    const query = await call(app, 'GET', rankPath, { query: { game_code: code, limit: 101 } });
    expect(query.body).toEqual({ code: 400, message: expect.stringMatching(/^query\.limit/), data: null, error: 'input.invalid' });
    expect((await call(app, 'GET', rankPath, { query: { game_code: code, limit: 0 } })).status).toBe(400);
    expect((await call(app, 'GET', rankPath, { query: {} })).body.message).toMatch(/^query\.game_code/);
    expect(await itemCount(deps)).toBe(before);
  });

  // 500 reports at once on ONE player's score items: DynamoDB (and the conflict emulator in front of DynamoDB
  // Local) cancels transactions that overlap in flight, so some reports answer 409 "changed concurrently" after
  // the platform's retries. What must hold: every answer is 200 or that 409, and the scores are exactly the sum
  // of the accepted reports: nothing lost, nothing counted twice.
  it('500 concurrent addWin calls on one player: every accepted report counts exactly once, in both seasons', async () => {
    const { code, server } = await gameWithServer(deps);
    const wins = (i: number) => (i % 2 === 0 ? 2 : 1);
    const results = await Promise.all(Array.from({ length: 500 }, (_, i) => addWin(server, win(code, 'hot', 1, wins(i)))));
    const accepted = results.flatMap((r, i) => (r.status === 200 ? [i] : []));
    expect(results.filter((r) => r.status !== 200 && !(r.status === 409 && /changed concurrently/.test(r.body.message))).map((r) => r.body)).toEqual([]);
    expect(accepted.length).toBeGreaterThan(0);
    const expected = { kills: accepted.length, wins: accepted.reduce((sum, i) => sum + wins(i), 0) };
    const now = new Date();
    for (const season of [weekOf(now), monthOf(now)]) {
      expect(await scoreItem(code, season, 'hot')).toMatchObject(expected);
    }
    const boards = await rank(code);
    expect(boards.gameWeekKillRank).toEqual([{ total: String(expected.kills), game_player_id: 'hot', game_player_name: 'Name hot' }]);
    expect(boards.gameMothWinRank).toEqual([{ total: String(expected.wins), game_player_id: 'hot', game_player_name: 'Name hot' }]);
  }, 120_000);

  it("500 concurrent addWin calls over 25 players of one game: each player's score is exactly its accepted reports", async () => {
    const { code, server } = await gameWithServer(deps);
    const results = await Promise.all(Array.from({ length: 500 }, (_, i) => addWin(server, win(code, `p${i % 25}`, 1, 1))));
    expect(results.filter((r) => r.status !== 200 && !(r.status === 409 && /changed concurrently/.test(r.body.message))).map((r) => r.body)).toEqual([]);
    const acceptedOf = (player: number) => results.filter((r, i) => i % 25 === player && r.status === 200).length;
    const boards = await rank(code);
    for (const board of Object.values(boards)) {
      expect(board).toHaveLength(25);
      for (const entry of board) expect(entry.total).toBe(String(acceptedOf(Number(entry.game_player_id.slice(1)))));
    }
  }, 120_000);
});

describe('result ids', () => {
  it('addWin: the same result id again answers the same and adds nothing; other content is 409', async () => {
    const { code, server } = await gameWithServer(deps);
    const body = win(code, 'r-player', 2, 1, { result_id: 'match-1' });
    const first = await atTime(utc('2026-03-01T23:00:00'), () => addWin(server, body));
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({ result_id: 'match-1', kills: 2 });
    // A resubmission, even in the next week, answers what the first answered (its seasons) and adds nothing.
    const again = await atTime(utc('2026-03-02T01:00:00'), () => addWin(server, body));
    expect(again.text).toBe(first.text);
    const before = await itemCount(deps);
    const other = await addWin(server, { ...body, kills: 3 });
    expect(other.status).toBe(409);
    expect(other.body).toEqual({ code: 409, message: expect.stringMatching(/^result_id:/), data: null, error: 'ranking.result_reused' });
    expect(await itemCount(deps)).toBe(before);
    const week = weekOf(utc('2026-03-01T00:00:00'));
    expect(await scoreItem(code, week, 'r-player')).toMatchObject({ kills: 2, wins: 1 });
    expect(await scoreItem(code, weekOf(utc('2026-03-02T01:00:00')), 'r-player')).toBeUndefined();
    // Result ids are per game: another game may use the same id.
    const elsewhere = await gameWithServer(deps);
    expect((await addWin(elsewhere.server, { ...body, game_code: elsewhere.code })).status).toBe(200);
  });

  it('submitgamescore: 20 concurrent submissions of one result count once and all answer the same', async () => {
    const { code, server } = await gameWithServer(deps);
    const report = {
      game_code: code,
      result_id: `match-${randomUUID()}`,
      scores: [
        { game_player_id: 'a', game_player_name: 'A', kills: 5, wins: 1 },
        { game_player_id: 'b', game_player_name: 'B', kills: 2, wins: 0, wallet_address: `0x${'1'.repeat(64)}` },
        { game_player_id: 'c', game_player_name: 'C', kills: 0, wins: 0 },
      ],
    };
    const results = await Promise.all(Array.from({ length: 20 }, () => call(app, 'POST', scorePath, { token: server, body: report })));
    const now = new Date();
    for (const res of results) {
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        data: {
          game_code: code,
          result_id: report.result_id,
          players: 3,
          seasons: [
            { season_type: 1, season_range: weekOf(now).range },
            { season_type: 2, season_range: monthOf(now).range },
          ],
        },
        statusCode: 200,
        message: 'success',
        totalPage: 1,
      });
    }
    // The first answer again, byte for byte (from the stored result).
    const again = await call(app, 'POST', scorePath, { token: server, body: report });
    expect(again.text).toBe(results[0]!.text);
    const boards = await rank(code);
    expect(boards.gameWeekKillRank).toEqual([
      { total: '5', game_player_id: 'a', game_player_name: 'A' },
      { total: '2', game_player_id: 'b', game_player_name: 'B' },
    ]);
    expect(boards.gameMothWinRank).toEqual([{ total: '1', game_player_id: 'a', game_player_name: 'A' }]);
    // c played and scored nothing: recorded at 0, on no board.
    expect(await scoreItem(code, monthOf(now), 'c')).toMatchObject({ kills: 0, wins: 0, game_player_name: 'C' });

    // The same lines in another order are the same report; other points are another report.
    const reordered = await call(app, 'POST', scorePath, { token: server, body: { ...report, scores: [...report.scores].reverse() } });
    expect(reordered.body).toEqual(results[0]!.body);
    const changed = await call(app, 'POST', scorePath, { token: server, body: { ...report, scores: report.scores.slice(0, 2) } });
    expect(changed.status).toBe(409);
    expect(changed.body).toEqual({ statusCode: 409, message: expect.stringMatching(/^result_id:/), error: 'ranking.result_reused' });
    expect(totals((await rank(code)).gameMothKillRank)).toEqual({ a: '5', b: '2' });
  });

  it('submitgamescore: lines of one player add together; the most players a report takes fit one transaction, one more line is 400', async () => {
    const { code, server } = await gameWithServer(deps);
    const twice = await call(app, 'POST', scorePath, {
      token: server,
      body: {
        game_code: code,
        result_id: 'dup',
        scores: [
          { game_player_id: 'x', game_player_name: 'X', kills: 2, wins: 1 },
          { game_player_id: 'x', game_player_name: '', kills: 3, wins: 0 },
        ],
      },
    });
    expect(twice.body.data.players).toBe(1);
    expect((await rank(code)).gameWeekKillRank).toEqual([{ total: '5', game_player_id: 'x', game_player_name: 'X' }]);

    // Two transaction items a player (week, month) and the result record: 48 make 97.
    expect(MAX_REPORT_PLAYERS).toBe(48);
    const line = (i: number) => ({ game_player_id: `m${String(i).padStart(2, '0')}`, game_player_name: `M${i}`, kills: i + 1, wins: 1 });
    const before = await itemCount(deps);
    const tooMany = await call(app, 'POST', scorePath, {
      token: server,
      body: { game_code: code, result_id: 'too-many', scores: Array.from({ length: MAX_REPORT_PLAYERS + 1 }, (_, i) => line(i)) },
    });
    expect({ status: tooMany.status, message: tooMany.body.message }).toEqual({ status: 400, message: expect.stringMatching(/^body\.scores/) });
    expect(await itemCount(deps)).toBe(before);
    const scores = Array.from({ length: MAX_REPORT_PLAYERS }, (_, i) => line(i));
    const big = await call(app, 'POST', scorePath, { token: server, body: { game_code: code, result_id: 'big', scores } });
    expect(big.status, JSON.stringify(big.body)).toBe(200);
    expect(big.body.data.players).toBe(48);
    const boards = await rank(code, 3);
    expect(boards.gameWeekKillRank).toEqual([
      { total: '48', game_player_id: 'm47', game_player_name: 'M47' },
      { total: '47', game_player_id: 'm46', game_player_name: 'M46' },
      { total: '46', game_player_id: 'm45', game_player_name: 'M45' },
    ]);
    expect((await rank(code)).gameMothWinRank).toHaveLength(49);
  });
});

describe('gameRank', () => {
  it('404 for an unknown game; empty boards for a game without scores', async () => {
    const unknown = await call(app, 'GET', rankPath, { query: { game_code: 'never-made' } });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ code: 404, message: 'game_code: no game never-made', data: null, error: 'game.not_found' });
    const { code } = await gameWithServer(deps);
    expect(await rank(code)).toEqual({ gameWeekKillRank: [], gameWeekWinRank: [], gameMothKillRank: [], gameMothWinRank: [] });
  });

  it('boards with more players than the top N: the N highest, highest first (N=3 via limit; default 100)', async () => {
    const { code, server } = await gameWithServer(deps);
    const kills = [7, 3, 12, 1, 9, 4, 15, 2, 8, 6];
    await Promise.all(kills.map((k, i) => addWin(server, win(code, `pl${i}`, k, 20 - k))));
    const top3 = await rank(code, 3);
    expect(top3.gameWeekKillRank.map((e) => [e.game_player_id, e.total])).toEqual([
      ['pl6', '15'],
      ['pl2', '12'],
      ['pl4', '9'],
    ]);
    expect(top3.gameMothWinRank.map((e) => [e.game_player_id, e.total])).toEqual([
      ['pl3', '19'],
      ['pl7', '18'],
      ['pl1', '17'],
    ]);
    const all = await rank(code);
    expect(all.gameWeekKillRank.map((e) => Number(e.total))).toEqual([...kills].sort((a, b) => b - a));
    expect((await rank(code, 1)).gameMothKillRank).toEqual([{ total: '15', game_player_id: 'pl6', game_player_name: 'Name pl6' }]);
  });

  it('ties: of two players with the same score, the one who reached it first ranks first', async () => {
    const { code, server } = await gameWithServer(deps);
    // 'z-early' reaches 5 kills first; 'a-late' reaches 5 later (its id sorts first, so order by id would be wrong).
    await atTime(utc('2026-09-07T10:00:00'), () => addWin(server, win(code, 'z-early', 5, 1)));
    await atTime(utc('2026-09-07T10:00:01'), () => addWin(server, win(code, 'a-late', 2, 1)));
    await atTime(utc('2026-09-07T10:00:02'), () => addWin(server, win(code, 'a-late', 3, 0)));
    let boards = await atTime(utc('2026-09-07T12:00:00'), () => rank(code));
    expect(ids(boards.gameWeekKillRank)).toEqual(['z-early', 'a-late']);
    // Wins: both at 1, z-early first (10:00:00 vs 10:00:01); a-late's later kill did not move its wins time.
    expect(ids(boards.gameWeekWinRank)).toEqual(['z-early', 'a-late']);
    // z-early moves on to 6, then a-late to 6: z-early got to 6 first, so stays first; a-late at 7 then leads.
    await atTime(utc('2026-09-07T11:00:00'), () => addWin(server, win(code, 'z-early', 1, 0)));
    await atTime(utc('2026-09-07T11:00:01'), () => addWin(server, win(code, 'a-late', 1, 0)));
    boards = await atTime(utc('2026-09-07T12:00:00'), () => rank(code));
    expect(boards.gameWeekKillRank).toEqual([
      { total: '6', game_player_id: 'z-early', game_player_name: 'Name z-early' },
      { total: '6', game_player_id: 'a-late', game_player_name: 'Name a-late' },
    ]);
    await atTime(utc('2026-09-07T11:30:00'), () => addWin(server, win(code, 'a-late', 1, 0)));
    boards = await atTime(utc('2026-09-07T12:00:00'), () => rank(code));
    expect(ids(boards.gameWeekKillRank)).toEqual(['a-late', 'z-early']);
  });

  it('a tie at the cutoff with more tied players than places: the earliest of all tied players take the places', async () => {
    for (const order of ['ids ascending with time', 'ids descending with time'] as const) {
      const { code, server } = await gameWithServer(deps);
      const day = '2026-10-13';
      await atTime(utc(`${day}T08:00:00`), () => addWin(server, win(code, 'leader', 10, 10)));
      // 30 players reach 5 at distinct times; which of them are earliest does not follow their ids' order.
      const tied = Array.from({ length: 30 }, (_, i) => `t${String(i).padStart(2, '0')}`);
      const byTime = order === 'ids ascending with time' ? tied : [...tied].reverse();
      for (const [i, id] of byTime.entries()) {
        await atTime(new Date(utc(`${day}T09:00:00`).getTime() + i * 1000), () => addWin(server, win(code, id, 5, 5)));
      }
      // A few below the cut.
      await atTime(utc(`${day}T10:00:00`), () => addWin(server, win(code, 'low', 1, 1)));

      const counter = commandCounter(deps);
      await atTime(utc(`${day}T12:00:00`), () => drainRankStream(deps));
      counter.start();
      const boards = await atTime(utc(`${day}T12:00:00`), () => rankAsIs(code, 3));
      const commands = counter.stop();
      for (const board of Object.values(boards)) {
        expect(
          board.map((e) => [e.game_player_id, e.total]),
          order,
        ).toEqual([
          ['leader', '10'],
          [byTime[0], '5'],
          [byTime[1], '5'],
        ]);
      }
      // The four boards' kept tops, one request, however many are tied at the cut.
      expect(commands).toEqual({ BatchGetItem: 1 });

      // A cut that falls between two scores is the same read; ties inside it are ordered too.
      counter.start();
      const wide = await atTime(utc(`${day}T12:00:00`), () => rankAsIs(code, 31));
      expect(counter.stop()).toEqual({ BatchGetItem: 1 });
      expect(ids(wide.gameMothKillRank)).toEqual(['leader', ...byTime]);
      const all = await atTime(utc(`${day}T12:00:00`), () => rank(code));
      expect(ids(all.gameWeekWinRank)).toEqual(['leader', ...byTime, 'low']);
    }
  });
});
