import { randomUUID } from 'node:crypto';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createAllApps } from '../functions/apps.js';
import { GAME_LIST_MEMORY_MS } from '../core/games/chain-ids.js';
import { gameKey } from '../core/games/keys.js';
import { bindWallet } from '../core/identity/accounts.js';
import { openSeasonKey } from '../core/rankings/keys.js';
import { SeasonType, monthOf, parseSeasonRange, weekOf } from '../core/rankings/seasons.js';
import { settledKey } from '../core/rewards/keys.js';
import { RewardTableSave } from '../core/rewards/models.js';
import { setRewardTable } from '../core/rewards/table.js';
import { SETTLE_GRACE_MS, parseOpenSeason, settleDueSeasons, settleSeason } from '../core/rewards/settlement.js';
import { startSettlementLoop } from '../core/rewards/loop.js';
import { call } from './support/http.js';
import { createTestDeps, itemCount, itemsOfType, type TestDeps } from './support/deps.js';
import { accountWithToken, merchantWithToken } from './support/merchants.js';
import { gamePayload, newCode } from './support/games.js';
import { commandCounter } from './support/rankings.js';
import { PAST, addWinAt, openSeasons, pastMonth, pastWeek, rewardGame, scoresInPastWeek, type Points } from './support/rewards.js';
import { historyEntry, historyRank, mismatches, pagedEnvelope } from './contract/contract-shapes.js';

/**
 * Settlement of finished seasons, the reward table, history/test, the history rank, gameCode
 * and rewrad_history. Scores go into past seasons through the real addWin, with the clock moved.
 */

let deps: TestDeps;
let app: ReturnType<typeof createAllApps>;
const base = '/v2-testing';
const rewardsPath = `${base}/merchant/games/rewards`;
const historyPath = `${base}/merchant/games/history/rank`;
const testPath = `${base}/merchant/games/history/test`;

beforeAll(async () => {
  deps = await createTestDeps();
  app = createAllApps(deps);
});

/** A fresh table and app: for tests that settle every due season of the table. */
async function freshApp() {
  const own = await createTestDeps();
  return { deps: own, app: createAllApps(own) };
}

const wallet = (n: number) => `0x${n.toString(16).padStart(64, '0')}`;

async function historyOf(game: string, type: number, range: string, on = app) {
  const res = await call(on, 'GET', historyPath, { query: { game_code: game, season_type: type, season_range: range } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res;
}

describe('reward table (POST/GET /merchant/games/rewards)', () => {
  it('the owner sets it (sorted by rank, wins by default) and reads it back; unset reads as empty', async () => {
    const game = await rewardGame(deps);
    const empty = await call(app, 'GET', rewardsPath, { token: game.owner.token, query: { game_code: game.code } });
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual({
      code: 200,
      message: 'success',
      data: { game_code: game.code, board: 'wins', rewards: [], updated_at: null, coin_type: '0x2::sui::SUI' },
    });

    const set = await call(app, 'POST', rewardsPath, {
      token: game.owner.token,
      body: {
        game_code: game.code,
        rewards: [
          { rank: 3, amount: 10 },
          { rank: 1, amount: 1_000_000_000_000 },
        ],
      },
    });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body.data).toEqual({
      game_code: game.code,
      board: 'wins',
      rewards: [
        { rank: 1, amount: 1_000_000_000_000, amount_base: '1000000000000' },
        { rank: 3, amount: 10, amount_base: '10' },
      ],
      updated_at: expect.any(String),
      coin_type: '0x2::sui::SUI',
    });
    const read = await call(app, 'GET', rewardsPath, { token: game.owner.token, query: { game_code: game.code } });
    expect(read.body.data).toEqual(set.body.data);

    const kills = await call(app, 'POST', rewardsPath, {
      token: game.owner.token,
      body: { game_code: game.code, board: 'kills', rewards: [{ rank: 1, amount: 5 }] },
    });
    expect(kills.body.data).toMatchObject({ board: 'kills', rewards: [{ rank: 1, amount: 5 }] });
  });

  it("another merchant's game is 403, an unknown game 404, for both; nothing written", async () => {
    const game = await rewardGame(deps);
    const other = await merchantWithToken(deps);
    const before = await itemCount(deps);
    const body = { game_code: game.code, rewards: [{ rank: 1, amount: 1 }] };
    expect((await call(app, 'POST', rewardsPath, { token: other.token, body })).status).toBe(403);
    expect((await call(app, 'GET', rewardsPath, { token: other.token, query: { game_code: game.code } })).status).toBe(403);
    const missing = await call(app, 'POST', rewardsPath, { token: other.token, body: { ...body, game_code: 'no-such-game' } });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ code: 404, message: expect.stringMatching(/^game_code: /), data: null, error: 'access.not_found' });
    expect((await call(app, 'GET', rewardsPath, { token: other.token, query: { game_code: 'no-such-game' } })).status).toBe(404);
    expect(await itemCount(deps)).toBe(before);
  });

  it.each([
    [
      {
        rewards: [
          { rank: 1, amount: 1 },
          { rank: 1, amount: 2 },
        ],
      },
      /^body\.rewards: each rank may appear once/,
    ],
    [{ rewards: [{ rank: 100, amount: 1 }] }, /^body\.rewards\.0\.rank/],
    [{ rewards: [{ rank: 0, amount: 1 }] }, /^body\.rewards\.0\.rank/],
    [{ rewards: [{ rank: 1, amount: 0 }] }, /^body\.rewards\.0\.amount/],
    [{ rewards: [{ rank: 1, amount: 1.5 }] }, /^body\.rewards\.0\.amount/],
    // Past u64's maximum (an amount up to it is exact: test/amounts.test.ts).
    [{ rewards: [{ rank: 1, amount: '18446744073709551616' }] }, /^body\.rewards\.0\.amount/],
    [{ rewards: [] }, /^body\.rewards/],
    [{ board: 'deaths', rewards: [{ rank: 1, amount: 1 }] }, /^body\.board/],
  ])('refuses %j with 400', async (input, message) => {
    const game = await rewardGame(deps);
    const res = await call(app, 'POST', rewardsPath, { token: game.owner.token, body: { game_code: game.code, ...input } });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(message);
  });
});

describe('settleSeason', () => {
  it('writes entries for ranks 1..N (N = the highest rewarded rank) of a board with more players, reward 0 for skipped ranks', async () => {
    const game = await rewardGame(deps, [
      { rank: 1, amount: 1000 },
      { rank: 2, amount: 500 },
      { rank: 3, amount: 250 },
      { rank: 5, amount: 100 },
    ]);
    // 30 players with distinct wins (the order written is not the ranking order).
    const players: Points[] = Array.from({ length: 30 }, (_, i) => ({ id: `p${i}`, wins: ((i * 7) % 30) + 1, kills: 100 - i, wallet: wallet(i + 1) }));
    await scoresInPastWeek(deps, game, players);
    const week = pastWeek();

    const counter = commandCounter(deps);
    counter.start();
    const result = await settleSeason(deps, game.code, week);
    // The minimum: table + marker, the season's score items (one Query of its one shard), the ids, one transaction
    // (the season item's delete is in it).
    expect(counter.stop()).toEqual({ BatchGetItem: 1, Query: 1, UpdateItem: 1, TransactWriteItems: 1 });
    expect(result).toEqual({
      game_code: game.code,
      season_type: 1,
      season_range: '2026-03-02-03-08',
      board: 'wins',
      entries: 5,
      settled_at: expect.any(String),
      settled_now: true,
    });

    const { body } = await historyOf(game.code, SeasonType.week, week.range);
    expect(mismatches(body, historyRank)).toEqual([]);
    const byWins = [...players].sort((a, b) => b.wins! - a.wins!).slice(0, 5);
    expect(body.data.map((e: { platform_player_id: string }) => e.platform_player_id)).toEqual(byWins.map((p) => p.id));
    expect(body.data.map((e: { rank: number }) => e.rank)).toEqual([1, 2, 3, 4, 5]);
    expect(body.data.map((e: { reward_amount: number }) => e.reward_amount)).toEqual([1000, 500, 250, 0, 100]);
    expect(body.data.map((e: { achievement: number }) => e.achievement)).toEqual(byWins.map((p) => p.wins));
    const first = body.data[0];
    expect(first).toEqual({
      id: expect.any(Number),
      season_type: 1,
      create_time: result.settled_at,
      season_range: '2026-03-02-03-08',
      game_code: game.code,
      platform_player_id: byWins[0]!.id,
      wallet_address: byWins[0]!.wallet,
      rank: 1,
      achievement: 30,
      reward_amount: 1000,
      status: 0,
      reward_amount_base: '1000',
    });
    // Ids are one block of consecutive integers.
    const entryIds = body.data.map((e: { id: number }) => e.id).sort((a: number, b: number) => a - b);
    expect(entryIds).toEqual(Array.from({ length: 5 }, (_, i) => entryIds[0] + i));
    // The month of the same scores is its own season, still to settle.
    expect((await historyOf(game.code, SeasonType.month, pastMonth().range)).body.data).toEqual([]);
  });

  it('pays the kills board when the table says so', async () => {
    const game = await rewardGame(
      deps,
      [
        { rank: 1, amount: 7 },
        { rank: 2, amount: 3 },
      ],
      'kills',
    );
    await scoresInPastWeek(deps, game, [
      { id: 'a', kills: 5, wins: 50 },
      { id: 'b', kills: 9, wins: 1 },
      { id: 'c', kills: 7 },
      { id: 'd', wins: 99 },
    ]);
    const result = await settleSeason(deps, game.code, pastWeek());
    expect(result.board).toBe('kills');
    const { body } = await historyOf(game.code, 1, pastWeek().range);
    expect(body.data.map((e: { platform_player_id: string; achievement: number }) => [e.platform_player_id, e.achievement])).toEqual([
      ['b', 9],
      ['c', 7],
    ]);
  });

  it('breaks ties at the cutoff by who reached the score first, reading every tied player', async () => {
    const game = await rewardGame(
      deps,
      [1, 2, 3, 4, 5].map((rank) => ({ rank, amount: 10 * (6 - rank) })),
    );
    // Six players tie at 5 wins across the cut (places 4-9); they reached 5 at different times, written out of order.
    const tiedReachOrder = ['t-early', 't-second', 't-third', 't-fourth', 't-fifth', 't-late'];
    await scoresInPastWeek(deps, game, [
      { id: 'top1', wins: 10 },
      { id: 'top2', wins: 9 },
      { id: 'top3', wins: 8 },
      { id: 'low', wins: 1 },
    ]);
    const writeOrder = [3, 5, 0, 4, 1, 2];
    for (const i of writeOrder) {
      const reached = new Date(PAST.getTime() + 3_600_000 + i * 60_000);
      // Two steps (2 then 3 more): the time that counts is the step that reached 5.
      await addWinAt(deps, game, new Date(PAST.getTime() + 1000 * writeOrder.indexOf(i)), { id: tiedReachOrder[i]!, wins: 2 });
      await addWinAt(deps, game, reached, { id: tiedReachOrder[i]!, wins: 3 });
    }
    await settleSeason(deps, game.code, pastWeek());
    const { body } = await historyOf(game.code, 1, pastWeek().range);
    expect(body.data.map((e: { platform_player_id: string }) => e.platform_player_id)).toEqual(['top1', 'top2', 'top3', 't-early', 't-second']);
    expect(body.data.map((e: { achievement: number }) => e.achievement)).toEqual([10, 9, 8, 5, 5]);
  });

  it('takes the wallet from the score, else from the player account (platform uid), else the empty string', async () => {
    const game = await rewardGame(deps, [
      { rank: 1, amount: 3 },
      { rank: 2, amount: 2 },
      { rank: 3, amount: 1 },
    ]);
    const uid = randomUUID();
    const accountAddress = wallet(0xabc);
    await bindWallet(deps, { uid, address: accountAddress, walletType: 1 });
    await scoresInPastWeek(deps, game, [
      { id: 'with-wallet', wins: 3, wallet: wallet(0xdef) },
      { id: uid, wins: 2 },
      { id: 'game-only-id', wins: 1 },
    ]);
    await settleSeason(deps, game.code, pastWeek());
    const { body } = await historyOf(game.code, 1, pastWeek().range);
    expect(body.data.map((e: { wallet_address: string }) => e.wallet_address)).toEqual([wallet(0xdef), accountAddress, '']);
  });

  it('pays up to rank 99 of a board of 130 players in one transaction, and deletes the season item after it', async () => {
    const own = await freshApp();
    const game = await rewardGame(
      own.deps,
      Array.from({ length: 99 }, (_, i) => ({ rank: i + 1, amount: 1000 - i })),
    );
    const players: Points[] = Array.from({ length: 130 }, (_, i) => ({ id: `big-${String(i).padStart(3, '0')}`, wins: 200 - i }));
    await scoresInPastWeek(own.deps, game, players);
    expect((await openSeasons(own.deps)).map((s) => s.sk)).toContain(openSeasonKey(game.code, pastWeek()).sk);

    const counter = commandCounter(own.deps);
    counter.start();
    const result = await settleSeason(own.deps, game.code, pastWeek());
    const requests = counter.stop();
    expect(result.entries).toBe(99);
    // Table + marker (BatchGet), the season's score items (Query), accounts of players without a wallet (BatchGet), ids, the
    // transaction, and the season item's delete that did not fit in it.
    expect(requests).toEqual({ BatchGetItem: 2, Query: 1, UpdateItem: 1, TransactWriteItems: 1, DeleteItem: 1 });
    const { body } = await historyOf(game.code, 1, pastWeek().range, own.app);
    expect(body.data).toHaveLength(99);
    expect(body.data.at(-1)).toMatchObject({ rank: 99, platform_player_id: 'big-098', achievement: 102, reward_amount: 902 });
    expect((await openSeasons(own.deps)).map((s) => s.sk)).not.toContain(openSeasonKey(game.code, pastWeek()).sk);
  });

  it('settles a game without a reward table with no entries, once', async () => {
    const game = await rewardGame(deps);
    await scoresInPastWeek(deps, game, [{ id: 'x', wins: 4 }]);
    const first = await settleSeason(deps, game.code, pastWeek());
    expect(first).toMatchObject({ board: null, entries: 0, settled_now: true });
    // A table set afterwards does not reopen the settled season.
    await setRewardTable(deps, RewardTableSave.parse({ game_code: game.code, rewards: [{ rank: 1, amount: 1 }] }));
    const again = await settleSeason(deps, game.code, pastWeek());
    expect(again).toEqual({ ...first, settled_now: false });
    expect((await historyOf(game.code, 1, pastWeek().range)).body.data).toEqual([]);
  });
});

describe('settleDueSeasons (the scheduled settlement)', () => {
  it('settles every ended season once, even run twice and five times in parallel', async () => {
    const own = await freshApp();
    const games = await Promise.all(
      [1, 2, 3].map(() =>
        rewardGame(own.deps, [
          { rank: 1, amount: 30 },
          { rank: 2, amount: 20 },
          { rank: 4, amount: 5 },
        ]),
      ),
    );
    for (const [g, game] of games.entries()) {
      await scoresInPastWeek(
        own.deps,
        game,
        Array.from({ length: 8 }, (_, i) => ({ id: `g${g}-p${i}`, wins: 10 + ((i * 3) % 8), kills: i + 1 })),
      );
    }
    // The current seasons (not ended) stay open.
    await addWinAt(own.deps, games[0]!, new Date(), { id: 'now-player', wins: 1 });
    const due = await openSeasons(own.deps);
    expect(due).toHaveLength(3 * 2 + 2);

    const runs = await Promise.all(Array.from({ length: 5 }, () => settleDueSeasons(own.deps)));
    const again = await settleDueSeasons(own.deps);
    expect(again.settled).toEqual([]);

    // Each of the 6 ended seasons was settled by exactly one run.
    const settledNow = runs.flatMap((run) => run.settled.filter((s) => s.settled_now));
    expect(runs.every((run) => run.failed === 0)).toBe(true);
    expect(settledNow.map((s) => `${s.game_code} ${s.season_type} ${s.season_range}`).sort()).toEqual(
      games.flatMap((g) => [`${g.code} 1 ${pastWeek().range}`, `${g.code} 2 ${pastMonth().range}`]).sort(),
    );
    const entries = await itemsOfType(own.deps, 'history_rank');
    // 3 games x 2 seasons x 4 entries (N = 4), each once.
    expect(entries).toHaveLength(24);
    const perSeasonRank = new Set(entries.map((e) => `${e.game_code}#${e.season_type}#${e.season_range}#${e.rank}`));
    expect(perSeasonRank.size).toBe(24);
    expect(new Set(entries.map((e) => e.id)).size).toBe(24);
    expect(await itemsOfType(own.deps, 'season_settled')).toHaveLength(6);
    // Only the current seasons are left to settle.
    const left = await openSeasons(own.deps);
    expect(left.map((s) => parseOpenSeason(String(s.sk))!.season.range).sort()).toEqual([monthOf(new Date()).range, weekOf(new Date()).range].sort());
  });

  it('leaves a season that ended less than the grace ago to the next run', async () => {
    const own = await freshApp();
    const game = await rewardGame(own.deps, [{ rank: 1, amount: 1 }]);
    await scoresInPastWeek(own.deps, game, [{ id: 'solo', wins: 1 }]);
    const week = pastWeek();
    own.deps.setNow(new Date(week.end.getTime() + SETTLE_GRACE_MS / 2));
    expect((await settleDueSeasons(own.deps)).settled).toEqual([]);
    own.deps.setNow(new Date(week.end.getTime() + SETTLE_GRACE_MS + 1));
    expect((await settleDueSeasons(own.deps)).settled.map((s) => s.season_range)).toEqual([week.range]);
    own.deps.setNow(undefined);
  });

  it('runs as a loop for the local server until stopped', async () => {
    const own = await freshApp();
    const game = await rewardGame(own.deps, [{ rank: 1, amount: 1 }]);
    await scoresInPastWeek(own.deps, game, [{ id: 'loop', wins: 2 }]);
    const passes: number[] = [];
    const loop = startSettlementLoop(own.deps, { intervalMs: 20, onPass: (run) => passes.push(run.settled.length) });
    await expect.poll(() => passes.length, { timeout: 5000 }).toBeGreaterThanOrEqual(2);
    await loop.stop();
    expect(passes[0]).toBe(2);
    expect(passes.slice(1).every((n) => n === 0)).toBe(true);
  });

  it('reads the season items from their sort keys', () => {
    const week = pastWeek();
    expect(parseOpenSeason(openSeasonKey('my-game_1', week).sk)).toEqual({ game: 'my-game_1', season: week });
    expect(parseOpenSeason(openSeasonKey('g', pastMonth()).sk)).toEqual({ game: 'g', season: pastMonth() });
    expect(parseOpenSeason('2026-03-09T00:00:00.000Z#g#W#2026-03-03')).toBeUndefined();
    expect(parseOpenSeason('nonsense')).toBeUndefined();
  });
});

describe('history/test (POST /merchant/games/history/test)', () => {
  it('an admin settles a past season on demand, idempotently', async () => {
    const game = await rewardGame(deps, [{ rank: 1, amount: 9 }]);
    await scoresInPastWeek(deps, game, [
      { id: 'h1', wins: 2 },
      { id: 'h2', wins: 3 },
    ]);
    const admin = await accountWithToken(deps, 'admin');
    const body = { game_code: game.code, season_type: 2, season_range: pastMonth().range };
    const first = await call(app, 'POST', testPath, { token: admin.token, body });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body).toEqual({
      code: 200,
      message: 'success',
      data: {
        game_code: game.code,
        season_type: 2,
        season_range: '2026-03-01-03-31',
        board: 'wins',
        entries: 1,
        settled_at: expect.any(String),
        settled_now: true,
      },
    });
    const before = await itemCount(deps);
    const second = await call(app, 'POST', testPath, { token: admin.token, body });
    expect(second.body.data).toEqual({ ...first.body.data, settled_now: false });
    expect(await itemCount(deps)).toBe(before);
    const { body: history } = await historyOf(game.code, 2, pastMonth().range);
    expect(history.data).toEqual([expect.objectContaining({ platform_player_id: 'h2', rank: 1, achievement: 3, reward_amount: 9, season_type: 2 })]);
    expect((await openSeasons(deps)).map((s) => s.sk)).not.toContain(openSeasonKey(game.code, pastMonth()).sk);
  });

  it('is for admins (403), for ended seasons (409), for real seasons (400)', async () => {
    const game = await rewardGame(deps, [{ rank: 1, amount: 9 }]);
    const merchant = await merchantWithToken(deps);
    const admin = await accountWithToken(deps, 'admin');
    const before = await itemCount(deps);
    const notAdmin = await call(app, 'POST', testPath, {
      token: merchant.token,
      body: { game_code: game.code, season_type: 1, season_range: pastWeek().range },
    });
    expect(notAdmin.status).toBe(403);
    const current = weekOf(new Date());
    const running = await call(app, 'POST', testPath, { token: admin.token, body: { game_code: game.code, season_type: 1, season_range: current.range } });
    expect(running.status).toBe(409);
    expect(running.body).toEqual({ code: 409, message: expect.stringMatching(/^season_range: .*has not ended/), data: null, error: 'season.not_ended' });
    const notAWeek = await call(app, 'POST', testPath, {
      token: admin.token,
      body: { game_code: game.code, season_type: 1, season_range: '2026-03-03-03-09' },
    });
    expect(notAWeek.status).toBe(400);
    expect(notAWeek.body.message).toMatch(/^body\.season_range: /);
    const monthAsWeek = await call(app, 'POST', testPath, {
      token: admin.token,
      body: { game_code: game.code, season_type: 1, season_range: pastMonth().range },
    });
    expect(monthAsWeek.status).toBe(400);
    expect(await itemCount(deps)).toBe(before);
  });

  it('is 404 for a game that does not exist, and writes nothing (no settled marker)', async () => {
    const admin = await accountWithToken(deps, 'admin');
    const missing = `no-such-${newCode('game')}`;
    const before = await itemCount(deps);
    for (const body of [
      { game_code: missing, season_type: 1, season_range: pastWeek().range },
      { game_code: missing, season_type: 2, season_range: pastMonth().range },
    ]) {
      const res = await call(app, 'POST', testPath, { token: admin.token, body });
      expect(res.status, JSON.stringify(res.body)).toBe(404);
      expect(res.body).toEqual({ code: 404, message: `game_code: no game ${missing}`, data: null, error: 'game.not_found' });
    }
    expect(await itemCount(deps)).toBe(before);
    for (const season of [pastWeek(), pastMonth()]) {
      const marker = await deps.db.send(new GetCommand({ TableName: deps.table, Key: settledKey(missing, season), ConsistentRead: true }));
      expect(marker.Item).toBeUndefined();
    }
  });

  it('is refused (403) on a production stage', async () => {
    const prod = await createTestDeps({ production: true, stage: 'prod' });
    const prodApp = createAllApps(prod);
    const game = await rewardGame(prod, [{ rank: 1, amount: 9 }]);
    await scoresInPastWeek(prod, game, [{ id: 'p', wins: 1 }]);
    const admin = await accountWithToken(prod, 'admin');
    const before = await itemCount(prod);
    const res = await call(prodApp, 'POST', '/prod/merchant/games/history/test', {
      token: admin.token,
      body: { game_code: game.code, season_type: 1, season_range: pastWeek().range },
    });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ code: 403, message: expect.stringMatching(/production/), data: null, error: 'season.test_on_production' });
    expect(await itemCount(prod)).toBe(before);
    const marker = await prod.db.send(new GetCommand({ TableName: prod.table, Key: settledKey(game.code, pastWeek()) }));
    expect(marker.Item).toBeUndefined();
  });
});

describe('history rank (GET /merchant/games/history/rank)', () => {
  it('is open, ordered by rank, one Query; an unsettled season or unknown game is an empty list', async () => {
    const game = await rewardGame(deps, [
      { rank: 1, amount: 3 },
      { rank: 2, amount: 2 },
      { rank: 3, amount: 1 },
    ]);
    await scoresInPastWeek(deps, game, [
      { id: 'r1', wins: 1 },
      { id: 'r2', wins: 3 },
      { id: 'r3', wins: 2 },
    ]);
    expect((await historyOf(game.code, 1, pastWeek().range)).body).toEqual({ code: 200, message: 'success', data: [] });
    await settleSeason(deps, game.code, pastWeek());

    const counter = commandCounter(deps);
    counter.start();
    const { body } = await historyOf(game.code, 1, pastWeek().range);
    expect(counter.stop()).toEqual({ Query: 1 });
    expect(mismatches(body, historyRank)).toEqual([]);
    for (const entry of body.data) expect(mismatches(entry, historyEntry)).toEqual([]);
    expect(body.data.map((e: { platform_player_id: string; rank: number }) => [e.rank, e.platform_player_id])).toEqual([
      [1, 'r2'],
      [2, 'r3'],
      [3, 'r1'],
    ]);
    expect((await historyOf('no-such-game', 1, pastWeek().range)).body.data).toEqual([]);
  });

  it('refuses a season_range that is not a season of the type, and a bad type (400)', async () => {
    const cases: Record<string, string | number>[] = [
      { game_code: 'g', season_type: 1, season_range: '2026-03-03-03-09' },
      { game_code: 'g', season_type: 2, season_range: '2026-03-02-03-08' },
      { game_code: 'g', season_type: 1, season_range: '2026-02-30-03-05' },
      { game_code: 'g', season_type: 3, season_range: '2026-03-02-03-08' },
      { game_code: 'g', season_type: 1, season_range: '2026/03/02' },
      { game_code: 'g', season_type: 1 },
    ];
    // A season_range that is no season of its type is the season's rule; a bad type or a missing range, the fields'.
    const codes = ['season.range_invalid', 'season.range_invalid', 'season.range_invalid', 'input.invalid', 'input.invalid', 'input.invalid'];
    for (const [index, query] of cases.entries()) {
      const res = await call(app, 'GET', historyPath, { query });
      expect(res.status, JSON.stringify(query)).toBe(400);
      expect(res.body).toEqual({ code: 400, message: expect.stringMatching(/^query\.season_(range|type)/), data: null, error: codes[index] });
    }
    // A week across New Year keeps the first day's year.
    expect(parseSeasonRange(1, '2029-12-31-01-06')).toEqual({
      type: 1,
      start: new Date('2029-12-31T00:00:00.000Z'),
      end: new Date('2030-01-07T00:00:00.000Z'),
      range: '2029-12-31-01-06',
    });
    expect((await historyOf('g', 1, '2029-12-31-01-06')).body.data).toEqual([]);
  });
});

describe('gameCode (GET /chain/game/code)', () => {
  it("is open and lists every game's code with its package and object ids (null when unset), one Query", async () => {
    const own = await freshApp();
    const merchant = await merchantWithToken(own.deps);
    const [withIds, without] = [newCode('onchain'), newCode('offchain')];
    const pkg = `0x${'A1'.repeat(32)}`;
    const obj = `0x${'b2'.repeat(32)}`;
    const save = await call(own.app, 'POST', `${base}/merchant/games/save`, {
      token: merchant.token,
      body: { ...gamePayload(withIds), package_id: pkg, object_id: obj },
    });
    expect(save.status, JSON.stringify(save.body)).toBe(200);
    expect(save.body.data).toMatchObject({ package_id: pkg.toLowerCase(), object_id: obj });
    await call(own.app, 'POST', `${base}/merchant/games/save`, { token: merchant.token, body: gamePayload(without) });

    const counter = commandCounter(own.deps);
    counter.start();
    const res = await call(own.app, 'GET', `${base}/chain/game/code`);
    expect(counter.stop()).toEqual({ Query: 1 });
    expect(res.status).toBe(200);
    expect(mismatches(res.body, pagedEnvelope)).toEqual([]);
    expect(res.body).toEqual({
      data: [
        { code: without, package_id: null, object_id: null },
        { code: withIds, package_id: pkg.toLowerCase(), object_id: obj },
      ],
      statusCode: 200,
      message: 'success',
      totalPage: 1,
    });

    // update_single_game sets and clears them.
    const newObj = `0x${'c3'.repeat(32)}`;
    expect((await call(own.app, 'POST', `${base}/merchant/games/update`, { token: merchant.token, body: { code: without, object_id: newObj } })).status).toBe(
      201,
    );
    expect((await call(own.app, 'POST', `${base}/merchant/games/update`, { token: merchant.token, body: { code: withIds, package_id: '' } })).status).toBe(201);
    const after = await call(own.app, 'GET', `${base}/chain/game/code`);
    expect(after.body.data).toEqual([
      { code: without, package_id: null, object_id: newObj },
      { code: withIds, package_id: null, object_id: obj },
    ]);
    const bad = await call(own.app, 'POST', `${base}/merchant/games/update`, { token: merchant.token, body: { code: without, package_id: '0x12' } });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/^body\.package_id/);
  });

  afterEach(() => vi.restoreAllMocks());

  it('is read once a minute per process: a change written by another process shows within the minute, its own writes at once', async () => {
    const own = await freshApp();
    const merchant = await merchantWithToken(own.deps);
    const code = newCode('remembered');
    await call(own.app, 'POST', `${base}/merchant/games/save`, { token: merchant.token, body: gamePayload(code) });
    const listed = async () => {
      const counter = commandCounter(own.deps);
      counter.start();
      const res = await call(own.app, 'GET', `${base}/chain/game/code`);
      expect(res.status).toBe(200);
      return { requests: counter.stop(), data: res.body.data as { code: string; object_id: string | null }[] };
    };
    expect(await listed()).toEqual({ requests: { Query: 1 }, data: [{ code, package_id: null, object_id: null }] });

    // Another process (another Lambda container) sets the object id: this one answers what it read, with no request.
    const object = `0x${'d4'.repeat(32)}`;
    await own.deps.db.send(
      new UpdateCommand({ TableName: own.deps.table, Key: gameKey(code), UpdateExpression: 'SET object_id = :o', ExpressionAttributeValues: { ':o': object } }),
    );
    expect(await listed()).toEqual({ requests: {}, data: [{ code, package_id: null, object_id: null }] });

    // A minute on, it reads again.
    const now = Date.now();
    vi.spyOn(Date, 'now').mockReturnValue(now + GAME_LIST_MEMORY_MS);
    expect(await listed()).toEqual({ requests: { Query: 1 }, data: [{ code, package_id: null, object_id: object }] });

    // A game this process creates is listed at once.
    const second = newCode('remembered');
    await call(own.app, 'POST', `${base}/merchant/games/save`, { token: merchant.token, body: gamePayload(second) });
    expect((await listed()).data.map((game) => game.code)).toEqual([second, code]);
  });
});

describe('rewrad_history (GET /chain/reward/history)', () => {
  it("lists the caller's entries newest first with their status, paged, in one Query", async () => {
    const uid = randomUUID();
    const token = (await deps.tokens.issue('platform', uid)).token;
    const gameA = await rewardGame(deps, [
      { rank: 1, amount: 50 },
      { rank: 2, amount: 40 },
    ]);
    const gameB = await rewardGame(deps, [{ rank: 1, amount: 7 }]);
    await scoresInPastWeek(deps, gameA, [
      { id: uid, wins: 5 },
      { id: 'rival', wins: 9 },
    ]);
    await scoresInPastWeek(deps, gameB, [{ id: uid, wins: 1 }]);
    deps.setNow(new Date('2026-04-01T00:00:00.000Z'));
    await settleSeason(deps, gameA.code, pastWeek());
    deps.setNow(new Date('2026-04-02T00:00:00.000Z'));
    await settleSeason(deps, gameB.code, pastWeek());
    await settleSeason(deps, gameA.code, pastMonth());
    deps.setNow(undefined);

    // The authorization layer reads whether the caller deleted their account once a minute per process on a
    // read: a warm process has it.
    await call(app, 'GET', `${base}/chain/reward/history`, { token });
    const counter = commandCounter(deps);
    counter.start();
    const res = await call(app, 'GET', `${base}/chain/reward/history`, { token });
    expect(counter.stop()).toEqual({ Query: 1 });
    expect(res.status).toBe(200);
    expect(mismatches(res.body, pagedEnvelope)).toEqual([]);
    for (const entry of res.body.data) expect(mismatches(entry, historyEntry)).toEqual([]);
    expect(res.body.totalPage).toBe(1);
    expect(
      res.body.data.map((e: { game_code: string; season_type: number; rank: number; reward_amount: number; status: number; create_time: string }) => [
        e.game_code,
        e.season_type,
        e.rank,
        e.reward_amount,
        e.status,
      ]),
    ).toEqual([
      // The two entries of 2 April (newest first; same create_time: higher id first), then 1 April.
      [gameA.code, 2, 2, 40, 0],
      [gameB.code, 1, 1, 7, 0],
      [gameA.code, 1, 2, 40, 0],
    ]);
    const page = await call(app, 'GET', `${base}/chain/reward/history`, { token, query: { page: 1, pageSize: 2 } });
    expect(page.body).toMatchObject({ totalPage: 2, data: [{ game_code: gameA.code, season_type: 1 }] });

    const nobody = await call(app, 'GET', `${base}/chain/reward/history`, { token: (await deps.tokens.issue('platform', randomUUID())).token });
    expect(nobody.body).toEqual({ data: [], statusCode: 200, message: 'success', totalPage: 0 });
    expect((await call(app, 'GET', `${base}/chain/reward/history`)).status).toBe(401);
  });
});
