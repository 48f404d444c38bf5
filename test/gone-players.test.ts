import { randomUUID } from 'node:crypto';
import { DeleteCommand, GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerKept } from '../core/platform/kept-answers.js';
import type { Deps } from '../core/deps.js';
import { goneKey, PLAYER_ITEMS_INDEX, playerItemsPartition } from '../core/platform/players.js';
import { type Board, resultKey, scoreKey } from '../core/rankings/keys.js';
import { leaveRankPages, scoreSeasonsOf } from '../core/privacy/rank-pages.js';
import type { RankBoard } from '../core/rankings/rank-pages.js';
import { monthOf, weekOf } from '../core/rankings/seasons.js';
import { createAllApps } from '../functions/apps.js';
import { MAX_REPORT_PLAYERS } from '../core/rankings/models.js';
import { createTestDeps, type TestDeps } from './support/deps.js';
import { grantedHero, heroPlayer, heroWorld, type HeroWorld } from './support/heroes.js';
import { call } from './support/http.js';
import { giveTickets, playerWithTokens, projectWithLevel } from './support/payments.js';
import {
  commandCounter,
  drainRankStream,
  gameWithServer,
  headPages,
  headTop,
  seasonScores,
  snapshotPages,
  streamRecords,
  takeSnapshots,
} from './support/rankings.js';
import { scanAll } from './support/table-snapshot.js';
import { giveTickets as giveVendorTickets, goodsFor, merchantWithProject, player as vendorPlayer } from './support/goods.js';

/**
 * Player account deletion, the writers' side (core/platform/players.ts): every item that holds a player's id but
 * is keyed by something else carries the index of "a player's items that no key leads to" (gsi6), and score
 * reports never write a player whose gone mark exists. A deleted score item leaves the boards' heads (by the
 * stream) and snapshots (by the deletion's sweep, and the next snapshot).
 */
let deps: TestDeps;
let app: ReturnType<typeof createAllApps>;
let world: HeroWorld;
const base = '/v2-testing';

beforeAll(async () => {
  deps = await createTestDeps();
  app = createAllApps(deps);
  world = await heroWorld(deps);
});
afterAll(() => world.node.stop());

interface Found {
  pk: string;
  sk: string;
  kind: string;
}
const byKey = (a: Found, b: Found) => (`${a.pk}\u0000${a.sk}` < `${b.pk}\u0000${b.sk}` ? -1 : 1);

/** What a deletion finds of a player through the index: the keys of the items, with their kind. */
async function indexedItemsOf(targetDeps: Deps, uid: string): Promise<Found[]> {
  const out = await targetDeps.db.send(
    new QueryCommand({
      TableName: targetDeps.table,
      IndexName: PLAYER_ITEMS_INDEX,
      KeyConditionExpression: 'gsi6pk = :pk',
      ExpressionAttributeValues: { ':pk': playerItemsPartition(uid) },
    }),
  );
  return (out.Items ?? []).map((item) => ({ pk: String(item.pk), sk: String(item.sk), kind: String(item.gsi6sk) })).sort(byKey);
}

const found = (key: { pk: string; sk: string }, kind: string): Found => ({ pk: key.pk, sk: key.sk, kind });
/** A stored item's key. */
const keyOf = (item: Record<string, unknown>) => ({ pk: String(item.pk), sk: String(item.sk) });

/** The gone mark the deletion writes first (core/platform/players.ts), put directly. */
async function markGone(uid: string) {
  await deps.db.send(new PutCommand({ TableName: deps.table, Item: { ...goneKey(uid), type: 'gone', deleted_at: Math.floor(Date.now() / 1000) } }));
}

/** Every item of the table whose attributes hold `text` anywhere (a test-only Scan). */
async function itemsHolding(targetDeps: Deps, text: string) {
  return (await scanAll(targetDeps)).filter((item) => JSON.stringify(item).includes(text));
}

const addWin = (token: string, body: object) => call(app, 'POST', `${base}/merchant/games/addWin`, { token, body });
const submit = (token: string, body: object) => call(app, 'POST', `${base}/chain/game/score`, { token, body });

describe("the index of a player's items that no key leads to (gsi6)", () => {
  it("score items and addWin's result record are in it; submitgamescore's result record names no player and is not", async () => {
    const game = await gameWithServer(deps);
    const uid = randomUUID();
    const now = new Date();
    const won = await addWin(game.server, { game_code: game.code, game_player_id: uid, game_player_name: 'Ann', kills: 2, wins: 1, result_id: 'win-1' });
    expect(won.status, JSON.stringify(won.body)).toBe(200);
    const match = await submit(game.server, {
      game_code: game.code,
      result_id: 'match-1',
      scores: [
        { game_player_id: uid, game_player_name: 'Ann', kills: 1, wins: 0 },
        { game_player_id: 'someone-else', game_player_name: 'Bo', kills: 3, wins: 0 },
      ],
    });
    expect(match.status, JSON.stringify(match.body)).toBe(200);

    const expected = [
      found(scoreKey(game.code, weekOf(now), uid, 1), 'SCORE'),
      found(scoreKey(game.code, monthOf(now), uid, 1), 'SCORE'),
      found(resultKey(game.code, 'win-1'), 'RESULT'),
    ].sort(byKey);
    expect(await indexedItemsOf(deps, uid)).toEqual(expected);
    // Every item holding the id is one of them: nothing else names the player (their own partition aside, it has none here).
    expect((await itemsHolding(deps, uid)).map((item) => found(keyOf(item), '')).sort(byKey)).toEqual(expected.map((entry) => ({ ...entry, kind: '' })));
    const stored = await deps.db.send(new GetCommand({ TableName: deps.table, Key: resultKey(game.code, 'match-1'), ConsistentRead: true }));
    expect(answerKept(stored.Item!, 'response')).toMatchObject({ players: 2 });
    expect(stored.Item!.gsi6pk).toBeUndefined();
  });

  it("minus_tickets keeps no record of its own: a keyed deduction's record is its ledger entry, in the player's partition", async () => {
    const shop = await projectWithLevel(deps);
    const buyer = await playerWithTokens(deps, shop.gameCode);
    await giveTickets(deps, buyer.uid, shop.project.project_name, 1, 10);
    const tag = randomUUID().slice(0, 8);
    const body = { userId: buyer.uid, projectName: shop.project.project_name, level: 1, amount: 1 };
    const minus = (token: string, key: string) => call(app, 'POST', `${base}/account/game/minus_tickets`, { token, body, headers: { 'Idempotency-Key': key } });
    expect((await minus(shop.server, `server-${tag}`)).status).toBe(201);
    expect((await minus(buyer.game, `player-${tag}`)).status).toBe(201);

    const all = await scanAll(deps);
    expect(all.filter((item) => item.type === 'idempotency' && String(item.pk).endsWith(tag))).toEqual([]);
    const entries = all.filter((item) => item.pk === `USER#${buyer.uid}` && String(item.sk).startsWith('LEDGER#minus#') && String(item.sk).endsWith(tag));
    expect(entries.map((item) => [String(item.caller).split(':')[0], item.key, typeof item.fingerprint])).toEqual(
      expect.arrayContaining([
        ['merchant', `server-${tag}`, 'string'],
        ['user', `player-${tag}`, 'string'],
      ]),
    );
    expect(entries).toHaveLength(2);
  });

  it("createOrder's idempotency record is in it", async () => {
    const owner = await merchantWithProject(deps);
    const goods = await goodsFor(deps, owner, { price: 2 });
    const buyer = await vendorPlayer(deps);
    await giveVendorTickets(deps, { uid: buyer.uid, projectName: owner.project.project_name, level: 1 }, 10);
    const key = `order-${randomUUID()}`;
    const ordered = await call(app, 'POST', `${base}/account/vendor/order`, {
      token: buyer.token,
      body: { userId: buyer.uid, goodsId: goods.id, quantity: 1, projectName: owner.project.project_name },
      headers: { 'Idempotency-Key': key },
    });
    expect(ordered.status, JSON.stringify(ordered.body)).toBe(200);
    const written = (await scanAll(deps)).filter((item) => item.type === 'idempotency' && String(item.pk).endsWith(`#${key}`));
    expect(written).toHaveLength(1);
    expect(await indexedItemsOf(deps, buyer.uid)).toEqual([found(keyOf(written[0]!), 'IDEMPOTENCY')]);
  });

  it("a hero grant's record is in it; a keyed upgrade keeps no record of its own (its first ledger entry is, in the player's partition)", async () => {
    const owner = await heroPlayer(world, deps);
    const hero = await grantedHero(world, owner.uid);
    await giveTickets(deps, owner.uid, world.projectName, 1, 5);
    const key = `upgrade-${randomUUID()}`;
    const upgraded = await world.request('POST', '/heroes/upgrade-level', {
      token: owner.hero,
      body: { userId: owner.uid, itemIds: [hero.id] },
      headers: { 'Idempotency-Key': key },
    });
    expect(upgraded.status, JSON.stringify(upgraded.body)).toBe(200);

    const items = await scanAll(deps);
    const grants = items.filter((item) => item.type === 'hero_grant' && (answerKept(item) as { userId?: string }).userId === owner.uid);
    const records = items.filter((item) => item.type === 'idempotency' && String(item.pk).endsWith(`#${key}`));
    const entries = items.filter((item) => item.pk === `USER#${owner.uid}` && String(item.sk).startsWith('LEDGER#hero-upgrade#') && item.key === key);
    expect([grants.length, records.length, entries.length]).toEqual([1, 0, 1]);
    expect(typeof entries[0]!.fingerprint).toBe('string');
    expect(await indexedItemsOf(deps, owner.uid)).toEqual([found(keyOf(grants[0]!), 'HEROGRANT')]);
  });
});

describe('score reports never write a deleted player', () => {
  it('addWin naming a player with a gone mark is 404 player.deleted and writes nothing, with a result id or without', async () => {
    const game = await gameWithServer(deps);
    const uid = randomUUID();
    await markGone(uid);
    const before = await scanAll(deps);
    for (const extra of [{ result_id: `gone-${randomUUID()}` }, {}]) {
      const refused = await addWin(game.server, { game_code: game.code, game_player_id: uid, game_player_name: 'Gone', kills: 1, wins: 1, ...extra });
      expect({ status: refused.status, body: refused.body }).toEqual({
        status: 404,
        body: { code: 404, message: 'game_player_id: this player deleted their account', data: null, error: 'player.deleted' },
      });
    }
    expect(await scanAll(deps)).toEqual(before);
  });

  it('addWin: a result counted before the player deleted their account still answers its first answer', async () => {
    const game = await gameWithServer(deps);
    const uid = randomUUID();
    const body = { game_code: game.code, game_player_id: uid, game_player_name: 'Early', kills: 1, wins: 0, result_id: 'early' };
    const first = await addWin(game.server, body);
    expect(first.status).toBe(200);
    await markGone(uid);
    const before = await scanAll(deps);
    expect(await addWin(game.server, body)).toMatchObject({ status: 200, body: first.body });
    expect(await scanAll(deps)).toEqual(before);
  });

  it('submitgamescore of 3 players, 1 gone, records the 2 others exactly and nothing of the third; a retry answers the same', async () => {
    const game = await gameWithServer(deps);
    const [ann, bo, gone] = [randomUUID(), randomUUID(), randomUUID()];
    const goneName = `Gone-${gone.slice(0, 8)}`;
    const goneWallet = `0x${'7e'.repeat(32)}`;
    await markGone(gone);
    const report = {
      game_code: game.code,
      result_id: `match-${randomUUID()}`,
      scores: [
        { game_player_id: ann, game_player_name: 'Ann', kills: 3, wins: 1 },
        { game_player_id: gone, game_player_name: goneName, wallet_address: goneWallet, kills: 9, wins: 2 },
        { game_player_id: bo, game_player_name: 'Bo', kills: 0, wins: 2 },
        { game_player_id: gone, game_player_name: goneName, kills: 1, wins: 0 },
      ],
    };
    const now = new Date();
    const first = await submit(game.server, report);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.data).toMatchObject({ game_code: game.code, result_id: report.result_id, players: 2 });
    for (const season of [weekOf(now), monthOf(now)]) {
      const scores = (await seasonScores(deps, game.code, season, 1)).map(({ id, kills, wins }) => ({ id, kills, wins }));
      expect(scores.sort((a, b) => (a.id < b.id ? -1 : 1))).toEqual(
        [
          { id: ann, kills: 3, wins: 1 },
          { id: bo, kills: 0, wins: 2 },
        ].sort((a, b) => (a.id < b.id ? -1 : 1)),
      );
    }
    for (const text of [gone, goneName, goneWallet.slice(2)]) expect(await itemsHolding(deps, text), text).toEqual([]);

    const before = await scanAll(deps);
    const again = await submit(game.server, report);
    expect({ status: again.status, body: again.body }).toEqual({ status: 200, body: first.body });
    expect(await scanAll(deps)).toEqual(before);
  });

  it("submitgamescore of the most players a report takes reads every gone mark in the authorization layer's batch and skips the deleted", async () => {
    const game = await gameWithServer(deps);
    // A first report of the game: its owner and shard setting are then remembered, as on a warm function.
    expect(
      (
        await submit(game.server, {
          game_code: game.code,
          result_id: `warm-${randomUUID()}`,
          scores: [{ game_player_id: randomUUID(), game_player_name: 'W', kills: 1, wins: 0 }],
        })
      ).status,
    ).toBe(200);
    const ids: string[] = Array.from({ length: MAX_REPORT_PLAYERS }, () => randomUUID());
    const gone = ids[7]!;
    await markGone(gone);
    const report = {
      game_code: game.code,
      result_id: `crowd-${randomUUID()}`,
      scores: ids.map((id, i) => ({ game_player_id: id, game_player_name: `P${i}-${id.slice(0, 6)}`, kills: i + 1, wins: 0 })),
    };
    const counter = commandCounter(deps);
    counter.start();
    const first = await submit(game.server, report);
    // The account state and the 48 marks in one BatchGetItem, then the transaction: no read of the marks of its own.
    expect(counter.stop()).toEqual({ BatchGetItem: 1, TransactWriteItems: 1 });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.data.players).toBe(ids.length - 1);
    const recorded = (await seasonScores(deps, game.code, weekOf(new Date()), 1)).map(({ id }) => id).filter((id) => ids.includes(id));
    expect(recorded.sort()).toEqual(ids.filter((id) => id !== gone).sort());
    expect(await itemsHolding(deps, gone)).toEqual([]);
    expect(await submit(game.server, report)).toMatchObject({ status: 200, body: first.body });
  });

  it('submitgamescore naming only deleted players records no score but its result, so a retry answers the same', async () => {
    const game = await gameWithServer(deps);
    const [gone, alsoGone] = [randomUUID(), randomUUID()];
    await Promise.all([markGone(gone), markGone(alsoGone)]);
    const report = {
      game_code: game.code,
      result_id: `alone-${randomUUID()}`,
      scores: [
        { game_player_id: gone, game_player_name: 'Gone', kills: 4, wins: 1 },
        { game_player_id: alsoGone, game_player_name: 'Also gone', kills: 0, wins: 3 },
      ],
    };
    const before = await scanAll(deps);
    const first = await submit(game.server, report);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.data).toMatchObject({ players: 0 });
    // The one item written is the result record, which names no player.
    const after = await scanAll(deps);
    const added = after.filter((item) => !before.some((old) => old.pk === item.pk && old.sk === item.sk));
    expect(added.map((item) => [item.pk, item.sk])).toEqual([[resultKey(game.code, report.result_id).pk, 'RESULT']]);
    for (const id of [gone, alsoGone]) expect(JSON.stringify(added)).not.toContain(id);
    expect(await submit(game.server, report)).toMatchObject({ status: 200, body: first.body });
    // Another content under the same result id is refused by that record.
    const other = await submit(game.server, { ...report, scores: [{ ...report.scores[0]!, kills: 5 }] });
    expect({ status: other.status, error: other.body.error }).toEqual({ status: 409, error: 'ranking.result_reused' });
    expect(await scanAll(deps)).toEqual(after);
  });
});

describe('a deleted score item leaves the rank pages', () => {
  let streamed: TestDeps;
  let streamedApp: ReturnType<typeof createAllApps>;
  beforeAll(async () => {
    streamed = await createTestDeps({ stream: true });
    streamedApp = createAllApps(streamed);
  });

  it("the player vanishes from every board's head (pages, count, top) by the stream, and from every snapshot by the sweep", async () => {
    const game = await gameWithServer(streamed);
    const [ann, bo, cy] = [randomUUID(), randomUUID(), randomUUID()];
    const now = new Date();
    // Bo leads the wins board (the first standing of its first page) and is second on kills.
    const reported = await call(streamedApp, 'POST', `${base}/chain/game/score`, {
      token: game.server,
      body: {
        game_code: game.code,
        result_id: randomUUID(),
        scores: [
          { game_player_id: ann, game_player_name: 'Ann', kills: 5, wins: 1 },
          { game_player_id: bo, game_player_name: 'Bo-the-deleted', kills: 3, wins: 2 },
          { game_player_id: cy, game_player_name: 'Cy', kills: 1, wins: 0 },
        ],
      },
    });
    expect(reported.status, JSON.stringify(reported.body)).toBe(200);
    await drainRankStream(streamed);
    await takeSnapshots(streamed);
    const boards: RankBoard[] = (['kills', 'wins'] as Board[]).flatMap((board) =>
      [weekOf(now), monthOf(now)].map((season) => ({ board, game: game.code, season })),
    );
    /** A board's stored standings: the head's (count, first standings, entries, top) and the snapshot's. */
    const standings = async (ref: RankBoard) => {
      const [head, snapshot, top] = await Promise.all([headPages(streamed, ref), snapshotPages(streamed, ref), headTop(streamed, ref)]);
      const rows = (pages: typeof head.pages) => pages.flatMap((page) => page.entries.map((entry) => [entry.id, entry.name, entry.score]));
      return {
        head: { players: head.directory.players, firsts: head.directory.pages.map((page) => page.first.id), entries: rows(head.pages) },
        top: (top ?? []).map((entry) => [entry.id, entry.name, entry.score]),
        snapshot: { players: snapshot.directory.players, firsts: snapshot.directory.pages.map((page) => page.first.id), entries: rows(snapshot.pages) },
      };
    };
    const [kills, wins] = [boards[0]!, boards[2]!];
    const winsBefore = {
      players: 2,
      firsts: [bo],
      entries: [
        [bo, 'Bo-the-deleted', 2],
        [ann, 'Ann', 1],
      ],
    };
    expect(await standings(wins)).toEqual({ head: winsBefore, top: winsBefore.entries, snapshot: winsBefore });
    for (const ref of boards) {
      const { head, top, snapshot } = await standings(ref);
      for (const held of [head.entries, top, snapshot.entries])
        expect(
          held.map(([id]) => id),
          `${ref.board} ${ref.season.range}`,
        ).toContain(bo);
    }
    const seasons = scoreSeasonsOf((await scanAll(streamed)).filter((item) => item.game_player_id === bo));
    expect(seasons).toHaveLength(2);

    // What the deletion does to a score item: delete it (the stream then carries only the item before).
    for (const season of [weekOf(now), monthOf(now)]) {
      await streamed.db.send(new DeleteCommand({ TableName: streamed.table, Key: scoreKey(game.code, season, bo, 1) }));
    }
    await drainRankStream(streamed);
    const removals = (await streamRecords(streamed)).filter((record) => record.before?.game_player_id === bo && !record.after);
    expect(removals).toHaveLength(2);

    const killsAfter = {
      players: 2,
      firsts: [ann],
      entries: [
        [ann, 'Ann', 5],
        [cy, 'Cy', 1],
      ],
    };
    const winsAfter = { players: 1, firsts: [ann], entries: [[ann, 'Ann', 1]] };
    // The heads lost the player at once; the snapshots hold them until the sweep (or the next snapshot).
    expect(await standings(kills)).toMatchObject({ head: killsAfter, top: killsAfter.entries });
    expect(await standings(wins)).toMatchObject({ head: winsAfter, top: winsAfter.entries, snapshot: winsBefore });

    // The deletion's sweep takes the player off every snapshot; the heads have nothing more to lose.
    expect(await leaveRankPages(streamed, bo, seasons)).toBe(4);
    expect(await standings(kills)).toEqual({ head: killsAfter, top: killsAfter.entries, snapshot: killsAfter });
    expect(await standings(wins)).toEqual({ head: winsAfter, top: winsAfter.entries, snapshot: winsAfter });
    for (const ref of boards) expect(JSON.stringify(await standings(ref)), `${ref.board} ${ref.season.range}`).not.toContain(bo);
    // Run again, it finds the player on no board; the next snapshot leaves them out too.
    expect(await leaveRankPages(streamed, bo, seasons)).toBe(0);
    await takeSnapshots(streamed);
    expect(await standings(wins)).toEqual({ head: winsAfter, top: winsAfter.entries, snapshot: winsAfter });
    // No item holds the id (the pages are compressed: read above through their reader), nor the name.
    expect(await itemsHolding(streamed, bo)).toEqual([]);
    expect(JSON.stringify(await Promise.all(boards.map(standings)))).not.toContain('Bo-the-deleted');
    const around = await call(streamedApp, 'GET', `${base}/merchant/games/rank/around`, {
      token: game.server,
      query: { game_code: game.code, board: 'wins', season_type: 1, game_player_id: bo },
    });
    expect(around.body.data).toMatchObject({ ranked: false, rank: null, players: 1 });
  });

  it('a player taken off by the sweep before the stream removes them: the later removal changes nothing', async () => {
    const game = await gameWithServer(streamed);
    const [ann, bo] = [randomUUID(), randomUUID()];
    const now = new Date();
    const lines = Array.from({ length: 40 }, (_, i) => ({ game_player_id: `${ann}-${i}`, game_player_name: `A${i}`, kills: 1 + i, wins: 0 }));
    const reported = await call(streamedApp, 'POST', `${base}/chain/game/score`, {
      token: game.server,
      body: { game_code: game.code, result_id: randomUUID(), scores: [...lines, { game_player_id: bo, game_player_name: 'Bo', kills: 30, wins: 0 }] },
    });
    expect(reported.status, JSON.stringify(reported.body)).toBe(200);
    await drainRankStream(streamed);
    const ref: RankBoard = { board: 'kills', game: game.code, season: weekOf(now) };
    const seasons = scoreSeasonsOf((await scanAll(streamed)).filter((item) => item.game_player_id === bo));
    for (const season of [weekOf(now), monthOf(now)]) {
      await streamed.db.send(new DeleteCommand({ TableName: streamed.table, Key: scoreKey(game.code, season, bo, 1) }));
    }
    // The sweep first (the stream's batch is late): the head loses the player, and the snapshot has none yet.
    expect(await leaveRankPages(streamed, bo, seasons)).toBe(2);
    const ids = async () => (await headPages(streamed, ref)).pages.flatMap((page) => page.entries.map((entry) => entry.id));
    const expected = lines.map((line) => line.game_player_id).reverse();
    expect(await ids()).toEqual(expected);
    const swept = await headPages(streamed, ref);
    await drainRankStream(streamed);
    expect(await ids()).toEqual(expected);
    expect((await headPages(streamed, ref)).directory.players).toBe(swept.directory.players);
    expect((await headTop(streamed, ref))?.map((entry) => entry.id)).toEqual(expected);
  });
});
