import { randomUUID } from 'node:crypto';
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it, beforeAll } from 'vitest';
import { gameKey } from '../core/games/keys.js';
import { scoreKey, scorePartition, shardOf } from '../core/rankings/keys.js';
import {
  APPENDED_CHANGES,
  CHANGE_DELAY_MS,
  KEPT_CHANGES,
  readShardChanges,
  seasonShards,
  setBoardShards,
  type ShardChange,
  shardsAt,
} from '../core/rankings/shards.js';
import { monthOf, weekOf, type Season } from '../core/rankings/seasons.js';
import { seasonHistory } from '../core/rewards/history.js';
import { settleSeason } from '../core/rewards/settlement.js';
import { createAllApps } from '../functions/apps.js';
import { createTestDeps, type TestDeps } from './support/deps.js';
import { call } from './support/http.js';
import { merchantWithToken } from './support/merchants.js';
import { gameWithServer, seasonScores, shardedGame as shardedGameOf, shardsSince } from './support/rankings.js';
import { pastWeek, rewardGame, scoresInPastWeek, type Points } from './support/rewards.js';

/**
 * Board shards (core/rankings/shards.ts): a game's seasons spread over K partitions, the K of a season fixed at
 * its start, a hot player's total exact under concurrent reports (with the suite's transaction conflict rule on),
 * settlement the same as from one partition. The 10,000 reports whose boards are kept from every shard's items
 * together are board-shards-load.test.ts, run by itself after the suite.
 */
let deps: TestDeps;
let app: ReturnType<typeof createAllApps>;
const base = '/v2-testing/merchant/games';

beforeAll(async () => {
  deps = await createTestDeps();
  app = createAllApps(deps);
});

const shardedGame = (shards: number) => shardedGameOf(deps, shards);

const scoreItems = (game: string, season: Season, shards: number) => seasonScores(deps, game, season, shards);

const addWin = (server: string, body: Record<string, unknown>) => call(app, 'POST', `${base}/addWin`, { token: server, body });

describe('the setting', () => {
  it('the owner sets K for seasons that start once the change applies; others are refused; bad K names the field', async () => {
    const game = await gameWithServer(deps);
    // A game with scores in its current week and month (one without is sharded for its launch: board-launch.test.ts).
    expect((await addWin(game.server, { game_code: game.code, game_player_id: 'first', game_player_name: 'F', kills: 1, wins: 0 })).status).toBe(200);
    const set = await call(app, 'POST', `${base}/boards`, { token: game.owner.token, body: { game_code: game.code, shards: 8 } });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body.data).toMatchObject({
      game_code: game.code,
      shards: 8,
      week_shards: 1,
      month_shards: 1,
      changes: [{ shards: 8, from: expect.any(String) }],
    });
    expect(Date.parse(set.body.data.changes[0].from) - Date.now()).toBeGreaterThan(CHANGE_DELAY_MS - 60_000);
    const read = await call(app, 'GET', `${base}/boards`, { token: game.owner.token, query: { game_code: game.code } });
    expect(read.body.data).toEqual(set.body.data);

    const stranger = await merchantWithToken(deps);
    expect((await call(app, 'POST', `${base}/boards`, { token: stranger.token, body: { game_code: game.code, shards: 2 } })).status).toBe(403);
    for (const shards of [0, 17, 2.5]) {
      const bad = await call(app, 'POST', `${base}/boards`, { token: game.owner.token, body: { game_code: game.code, shards } });
      expect({ status: bad.status, message: bad.body.message }).toEqual({ status: 400, message: expect.stringMatching(/^body\.shards/) });
    }
    const unknown = await call(app, 'POST', `${base}/boards`, { token: game.owner.token, body: { game_code: 'no-such-game', shards: 2 } });
    expect(unknown.status).toBe(404);
  });

  it('a season keeps the K it started with: a change moves no score, the next season takes it', async () => {
    const game = await gameWithServer(deps);
    // Mid-week, whenever the suite runs: run at the turn of a week, the reports would land in two weeks.
    const now = new Date(weekOf(new Date()).start.getTime() + 3.5 * 86_400_000);
    deps.setNow(now);
    try {
      await addWin(game.server, { game_code: game.code, game_player_id: 'early', game_player_name: 'E', kills: 2, wins: 1 });
      await setBoardShards(deps, game.code, 4);
      expect(await seasonShards(deps, game.code, weekOf(now))).toBe(1);
      await addWin(game.server, { game_code: game.code, game_player_id: 'early', game_player_name: 'E', kills: 3, wins: 0 });
      expect((await scoreItems(game.code, weekOf(now), 1)).map(({ id, kills }) => ({ id, kills }))).toEqual([{ id: 'early', kills: 5 }]);
      // Next week: the change applies (as every process reads it within a minute; here, read now).
      expect(shardsAt(await readShardChanges(deps, game.code), weekOf(new Date(weekOf(now).end.getTime() + CHANGE_DELAY_MS)))).toBe(4);
    } finally {
      deps.setNow(undefined);
    }
  });
});

describe('the list of changes stays bounded', () => {
  /** Every week and month that starts from `first` to `last` (instants), in order. */
  const seasonsBetween = (first: number, last: number): Season[] => {
    const seasons: Season[] = [];
    for (const seasonOf of [weekOf, monthOf]) for (let s = seasonOf(new Date(first)); s.start.getTime() <= last; s = seasonOf(s.end)) seasons.push(s);
    return seasons;
  };
  const DAY = 86_400_000;

  it(`keeps what decides a season's K and the last ${KEPT_CHANGES} written, however many changes are made`, async () => {
    const CHANGES = 375;
    const CHANGE_EVERY_MS = 16 * 3_600_000;
    const game = await gameWithServer(deps);
    const start = Date.parse('2026-01-01T00:00:00Z');
    // Every season current at a change has a score, whatever its K (in shard 0 of one shard and of several): each
    // change is one for the seasons to come (one made in a season without score is a launch: board-launch.test.ts).
    for (const season of seasonsBetween(start, start + CHANGES * CHANGE_EVERY_MS)) {
      for (const pk of [scorePartition(game.code, season, 0, 1), scorePartition(game.code, season, 0, 2)]) {
        await deps.db.send(
          new PutCommand({
            TableName: deps.table,
            Item: { pk, sk: 'PLAYER#seed', game_code: game.code, season_type: season.type, season_range: season.range, game_player_id: 'seed', kills: 1 },
          }),
        );
      }
    }
    const written: ShardChange[] = [];
    try {
      // One change every 16 hours for 250 days, K going round 1 to 16: past APPENDED_CHANGES, the list compacts several times.
      for (let i = 0; i < CHANGES; i++) {
        const at = start + i * CHANGE_EVERY_MS;
        deps.setNow(new Date(at));
        const shards = (i % 16) + 1;
        await setBoardShards(deps, game.code, shards);
        written.push({ shards, from: new Date(at + CHANGE_DELAY_MS).toISOString() });
      }
    } finally {
      deps.setNow(undefined);
    }
    const kept = await readShardChanges(deps, game.code);
    const seasons = seasonsBetween(start, Date.parse(written.at(-1)!.from) + 40 * DAY);
    // Appended until APPENDED_CHANGES, then compacted to at most one change per season start (about 36 weeks and 9
    // months here) and the last ones written, in order.
    expect(kept.length).toBeLessThanOrEqual(Math.max(APPENDED_CHANGES, seasons.length + KEPT_CHANGES + 1));
    expect(kept.slice(-KEPT_CHANGES)).toEqual(written.slice(-KEPT_CHANGES));
    // Every season, past or to come, has the K the whole list gave it.
    for (const season of seasons) expect(shardsAt(kept, season), season.range).toBe(shardsAt(written, season));
    const item = await deps.db.send(new GetCommand({ TableName: deps.table, Key: gameKey(game.code) }));
    expect(JSON.stringify(item.Item).length).toBeLessThan(16_000);
  }, 300_000);

  it('keeps each of concurrent changes, appended or compacting (a write that lost to another is made again on a fresh read)', async () => {
    for (const seeded of [0, APPENDED_CHANGES]) {
      const game = await gameWithServer(deps);
      // A full list of weekly changes years ago: every change below compacts it.
      const old = Array.from({ length: seeded }, (_, i) => ({ shards: 1 + (i % 2), from: new Date(Date.UTC(2020, 0, 6) + i * 7 * DAY).toISOString() }));
      if (seeded > 0) {
        await deps.db.send(
          new UpdateCommand({
            TableName: deps.table,
            Key: gameKey(game.code),
            UpdateExpression: 'SET board_shards = :old',
            ExpressionAttributeValues: { ':old': old },
          }),
        );
      }
      const answers = await Promise.allSettled(Array.from({ length: 8 }, (_, i) => setBoardShards(deps, game.code, i + 1)));
      const kept = (await readShardChanges(deps, game.code)).filter((change) => Date.parse(change.from) > Date.now());
      const made = answers.flatMap((answer, i) => (answer.status === 'fulfilled' ? [i + 1] : []));
      // Five tries each are plenty for eight at once; a change refused after them (409) wrote nothing.
      expect(made.length).toBeGreaterThan(0);
      expect(kept.map((change) => change.shards).sort((a, b) => a - b)).toEqual(made);
      for (const answer of answers) if (answer.status === 'rejected') expect(answer.reason).toMatchObject({ code: 'data.changed_concurrently' });
    }
  });

  it('a list that grew near 400 KB before the bound: the setter and the game update answer 2xx, the list shrinks, no season changes K', async () => {
    const game = await gameWithServer(deps);
    const stored = (await deps.db.send(new GetCommand({ TableName: deps.table, Key: gameKey(game.code) }))).Item!;
    // Changes over the last three years, a dozen a day, K at random: as many as the game item can hold.
    const start = Date.now() - 3 * 365 * DAY;
    const changesOf = (count: number): ShardChange[] =>
      Array.from({ length: count }, (_, i) => ({
        shards: 1 + ((i * 7919) % 16),
        from: new Date(start + Math.floor((i * 3 * 365 * DAY) / count)).toISOString(),
      }));
    const fits = async (count: number) =>
      deps.db.send(new PutCommand({ TableName: deps.table, Item: { ...stored, board_shards: changesOf(count) } })).then(
        () => true,
        () => false,
      );
    let [low, high] = [1_000, 20_000];
    while (high - low > 1) {
      const middle = Math.floor((low + high) / 2);
      if (await fits(middle)) low = middle;
      else high = middle;
    }
    expect(low).toBeGreaterThan(9_000);
    expect(await fits(low)).toBe(true);
    const seeded = changesOf(low);

    const set = await call(app, 'POST', `${base}/boards`, { token: game.owner.token, body: { game_code: game.code, shards: 5 } });
    expect(set.status, JSON.stringify(set.body).slice(0, 300)).toBe(200);
    const update = await call(app, 'POST', `${base}/update`, { token: game.owner.token, body: { code: game.code, describe: 'd'.repeat(2_000) } });
    expect(update.status, JSON.stringify(update.body)).toBe(201);

    const kept = await readShardChanges(deps, game.code);
    expect(set.body.data.changes).toEqual(kept);
    const all = [...seeded, kept.at(-1)!];
    expect(kept.at(-1)).toMatchObject({ shards: 5 });
    const seasons = seasonsBetween(start, Date.now() + 40 * DAY);
    expect(kept.length).toBeLessThanOrEqual(seasons.length + KEPT_CHANGES);
    for (const season of seasons) expect(shardsAt(kept, season), season.range).toBe(shardsAt(all, season));
    const item = await deps.db.send(new GetCommand({ TableName: deps.table, Key: gameKey(game.code) }));
    expect(JSON.stringify(item.Item).length).toBeLessThan(20_000);
  }, 120_000);
});

describe('sharded writes', () => {
  it('200 concurrent reports on one player: every one counted, the player in one shard', async () => {
    const game = await shardedGame(8);
    const reports = Array.from({ length: 200 }, (_, i) => ({ kills: (i % 5) + 1, wins: i % 2 }));
    const answers = await Promise.all(
      reports.map((r) => addWin(game.server, { game_code: game.code, game_player_id: 'hot', game_player_name: 'Hot', kills: r.kills, wins: r.wins || 0 })),
    );
    // A report may answer 409 when conflicts persist: then nothing of it was written, and the caller sends it again.
    const accepted = reports.filter((_, i) => answers[i]!.status === 200);
    expect(answers.every((a) => a.status === 200 || (a.status === 409 && a.body.error === 'data.changed_concurrently'))).toBe(true);
    expect(accepted.length).toBeGreaterThan(0);
    for (const season of [weekOf(new Date()), monthOf(new Date())]) {
      const items = await scoreItems(game.code, season, 8);
      expect(items.map(({ shard, id, kills, wins }) => ({ shard, id, kills, wins }))).toEqual([
        {
          shard: shardOf('hot', 8),
          id: 'hot',
          kills: accepted.reduce((sum, r) => sum + r.kills, 0),
          wins: accepted.reduce((sum, r) => sum + r.wins, 0),
        },
      ]);
    }
  }, 120_000);
});

describe('settlement', () => {
  it('settles a sharded season into the entries the same scores give unsharded, ties in the same order', async () => {
    const rewards = [1, 2, 3, 4, 5, 6].map((rank) => ({ rank, amount: 100 * (7 - rank) }));
    const players: Points[] = ['a', 'b', 'c', 'd', 'e', 'f', 'g'].map((id, i) => ({
      id: `${id}-${randomUUID().slice(0, 6)}`,
      wins: [3, 5, 3, 1, 5, 3, 2][i]!,
    }));
    const entriesOf = async (shards: number) => {
      const game = await rewardGame(deps, rewards);
      await shardsSince(deps, game.code, shards, pastWeek());
      await scoresInPastWeek(deps, game, players);
      expect(await seasonShards(deps, game.code, pastWeek())).toBe(shards);
      await settleSeason(deps, game.code, pastWeek());
      return (await seasonHistory(deps, game.code, pastWeek())).map(({ rank, platform_player_id, achievement, reward_amount }) => ({
        rank,
        platform_player_id,
        achievement,
        reward_amount,
      }));
    };
    const one = await entriesOf(1);
    expect(one.map((e) => e.platform_player_id)).toEqual([1, 4, 0, 2, 5, 6].map((i) => players[i]!.id));
    expect(await entriesOf(4)).toEqual(one);
  });
});

describe('the K of a season', () => {
  it('is the change with the latest `from` at or before its start, whatever order the changes were written in', () => {
    const season = weekOf(new Date('2026-11-25T00:00:00Z'));
    expect(shardsAt([], season)).toBe(1);
    const changes = [
      { shards: 4, from: '2026-11-01T00:00:00.000Z' },
      { shards: 2, from: '2026-10-01T00:00:00.000Z' },
      { shards: 16, from: '2026-11-23T00:00:00.001Z' },
    ];
    expect(shardsAt(changes, season)).toBe(4);
    expect(shardsAt([...changes, { shards: 8, from: '2026-11-23T00:00:00.000Z' }], season)).toBe(8);
    expect(shardsAt(changes, weekOf(new Date('2026-11-30T00:00:00Z')))).toBe(16);
  });
});

describe('keys', () => {
  it('K = 1 is the layout before shards; K > 1 suffixes the shard', () => {
    const season = weekOf(new Date('2026-11-25T00:00:00Z'));
    expect(scoreKey('g', season, 'p', 1)).toEqual({ pk: 'SCORE#g#W#2026-11-23', sk: 'PLAYER#p' });
    expect(scoreKey('g', season, 'p', 4)).toEqual({ pk: `SCORE#g#W#2026-11-23#${shardOf('p', 4)}`, sk: 'PLAYER#p' });
    // The hash spreads ids evenly enough: 8,000 ids over 8 shards, none under 800.
    const counts = new Array(8).fill(0);
    for (let i = 0; i < 8000; i++) counts[shardOf(`player-${i}`, 8)]++;
    expect(Math.min(...counts)).toBeGreaterThan(800);
  });
});
