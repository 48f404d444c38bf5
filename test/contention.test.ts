import { randomUUID } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Hono } from 'hono';
import { beforeAll, describe, expect, it } from 'vitest';
import { dynamoEndpoint } from './support/deps.js';
import { createRechargeOrder } from '../core/payments/orders.js';
import { openSeasonKey } from '../core/rankings/keys.js';
import { monthOf, weekOf } from '../core/rankings/seasons.js';
import { balanceOf } from '../core/tickets/balances.js';
import { createAllApps } from '../functions/apps.js';
import { ConflictEmulator, type ConflictStats, type ItemKey, type SentTransaction } from './support/conflict-emulator.js';
import { createLocalDeps, type LocalDeps } from './support/local-deps.js';
import { call } from './support/http.js';
import { giveTickets, indexedPayment, playerWithTokens, projectWithLevel } from './support/payments.js';
import { gameWithServer, seasonScores } from './support/rankings.js';
import { itemsSharedByPlayers, keepJournal, playersOf, readJournal, removeEndedRunJournals, runJournalDir } from './support/transaction-journal.js';
import { goodsFor, merchantWithProject, giveTickets as giveVendorTickets } from './support/goods.js';

/**
 * What DynamoDB Local hides (docs/data-model.md "Transactions and contention"): under the real service's
 * TransactionConflict rule, emulated for every test's deps (test/support/conflict-emulator.ts), many players acting
 * at once on one project, merchant, goods or game must not cancel each other. Each test below counts the emulator's
 * cancellations and refusals while its requests run: 0, and every request succeeds. The last test walks the
 * transactions every test file of the run has sent (this file runs in a group of its own, after the whole
 * suite: vitest.config.ts) for items that two different players' transactions share.
 */
let deps: LocalDeps;
let app: Hono;
const base = '/v2-testing';
// An emulator of this file's own, journalled like the run's default one: these tests run under the rule even
// when a run turns the default off (CONFLICT_EMULATION=off).
const emulator = new ConflictEmulator();
keepJournal(emulator, runJournalDir()!);

beforeAll(async () => {
  deps = await createLocalDeps(dynamoEndpoint(), { conflicts: emulator });
  app = createAllApps(deps);
});

/** The emulator's counts while `run` runs (the tests of a file run one at a time). */
async function conflictsDuring<T>(run: () => Promise<T>): Promise<{ result: T; conflicts: ConflictStats }> {
  const before = emulator.stats();
  const result = await run();
  const after = emulator.stats();
  return {
    result,
    conflicts: {
      transactions: after.transactions - before.transactions,
      cancelled: after.cancelled - before.cancelled,
      refusedWrites: after.refusedWrites - before.refusedWrites,
      cancelledReads: after.cancelledReads - before.cancelledReads,
    },
  };
}

const noConflicts = (transactions: number) => ({ transactions, cancelled: 0, refusedWrites: 0, cancelledReads: 0 });

/** Runs `make` for 0..count-1, `width` at a time: setting up many players without flooding a shared machine. */
async function inBatches<T>(count: number, width: number, make: (i: number) => Promise<T>): Promise<T[]> {
  const made: T[] = [];
  for (let start = 0; start < count; start += width) {
    made.push(...(await Promise.all(Array.from({ length: Math.min(width, count - start) }, (_, i) => make(start + i)))));
  }
  return made;
}

describe('with the real conflict rule, many players at once', () => {
  it('200 concurrent minus_tickets of 200 players of one project, by its game server, half with an Idempotency-Key: all 201, no conflict', async () => {
    const shop = await projectWithLevel(deps);
    const projectName = shop.project.project_name;
    const players = await inBatches(200, 50, async () => {
      const uid = randomUUID();
      await giveTickets(deps, uid, projectName, 1, 5);
      return uid;
    });
    const { result, conflicts } = await conflictsDuring(() =>
      Promise.all(
        players.map((userId, i) =>
          call(app, 'POST', `${base}/account/game/minus_tickets`, {
            token: shop.server,
            body: { userId, projectName, level: 1, amount: 2 },
            headers: i % 2 === 0 ? { 'Idempotency-Key': `k-${userId}` } : {},
          }),
        ),
      ),
    );
    expect(result.filter((res) => res.status !== 201).map((res) => res.body)).toEqual([]);
    // Half with an Idempotency-Key: a transaction each. The other half, one UpdateItem each of the player's balance
    // (core/tickets/held-ledger.ts), none refused for a transaction in flight.
    expect(conflicts).toEqual(noConflicts(100));
    for (const uid of players.slice(0, 5)) expect(await balanceOf(deps, { uid, projectName, level: 1 })).toBe(3);
  }, 120_000);

  it('50 concurrent orderCompletes of 50 players of one project: all paid, no conflict', async () => {
    const shop = await projectWithLevel(deps);
    const projectName = shop.project.project_name;
    const purchases = await inBatches(50, 25, async () => {
      const player = await playerWithTokens(deps);
      const order = await createRechargeOrder(deps, player.uid, {
        userId: player.uid,
        project: projectName,
        priceId: shop.level.priceId,
        prevId: -1,
        level: 1,
        amount: '1500000000',
      });
      const digest = await indexedPayment(deps, { billNo: order.bill_no, amount: '1500000000', from: player.address, to: shop.receiveAddress });
      return { player, order, digest };
    });
    const { result, conflicts } = await conflictsDuring(() =>
      Promise.all(
        purchases.map(({ player, order, digest }) =>
          call(app, 'POST', `${base}/account/user/orderComplete`, { token: player.platform, body: { orderId: order.id, transactionId: digest } }),
        ),
      ),
    );
    expect(result.filter((res) => res.status !== 200).map((res) => res.body)).toEqual([]);
    expect(conflicts).toEqual(noConflicts(50));
    for (const { player } of purchases.slice(0, 5)) expect(await balanceOf(deps, { uid: player.uid, projectName, level: 1 })).toBe(100);
  }, 120_000);

  it('50 concurrent goods orders of 50 players (createOrder) and 50 for 50 users by the merchant (customGoods), of one goods: all made, no conflict', async () => {
    const owner = await merchantWithProject(deps);
    const goods = await goodsFor(deps, owner, { price: 3 });
    const projectName = owner.project.project_name;
    const buyers = await inBatches(100, 50, async () => {
      const uid = randomUUID();
      await giveVendorTickets(deps, { uid, projectName, level: 1 }, 10);
      return { uid, token: (await deps.tokens.issue('platform', uid)).token };
    });
    const [players, users] = [buyers.slice(0, 50), buyers.slice(50)];
    const { result, conflicts } = await conflictsDuring(() =>
      Promise.all([
        ...players.map((buyer) =>
          call(app, 'POST', `${base}/account/vendor/order`, { token: buyer.token, body: { userId: buyer.uid, goodsId: goods.id, quantity: 1, projectName } }),
        ),
        ...users.map((user) =>
          call(app, 'POST', `${base}/account/vendor/goods/${goods.id}`, {
            token: owner.serverToken,
            body: { userId: user.uid, quantity: 1, projectName, outerOrderId: `partner-${randomUUID()}` },
          }),
        ),
      ]),
    );
    expect(result.filter((res) => res.status !== 200).map((res) => res.body)).toEqual([]);
    expect(new Set(result.map((res) => res.body.data.id)).size).toBe(100);
    expect(conflicts).toEqual(noConflicts(100));
    for (const buyer of [...players.slice(0, 3), ...users.slice(0, 3)]) expect(await balanceOf(deps, { uid: buyer.uid, projectName, level: 1 })).toBe(7);
  }, 120_000);

  it('100 concurrent first score reports of 100 players of one game in a season new to it: all counted, no conflict, the season recorded for settlement', async () => {
    const { code, server } = await gameWithServer(deps);
    const { result, conflicts } = await conflictsDuring(() =>
      Promise.all(
        Array.from({ length: 100 }, (_, i) =>
          i % 2 === 0
            ? call(app, 'POST', `${base}/merchant/games/addWin`, {
                token: server,
                body: { game_code: code, game_player_id: `p${i}`, game_player_name: `P${i}`, kills: 1, wins: 1 },
              })
            : call(app, 'POST', `${base}/chain/game/score`, {
                token: server,
                body: { game_code: code, result_id: `match-${i}`, scores: [{ game_player_id: `p${i}`, game_player_name: `P${i}`, kills: 2, wins: 1 }] },
              }),
        ),
      ),
    );
    expect(result.filter((res) => res.status !== 200).map((res) => res.body)).toEqual([]);
    expect(conflicts).toEqual(noConflicts(100));
    const now = new Date();
    for (const season of [weekOf(now), monthOf(now)]) {
      const open = await deps.db.send(new GetCommand({ TableName: deps.table, Key: openSeasonKey(code, season), ConsistentRead: true }));
      expect(open.Item).toMatchObject({ game_code: code, season_type: season.type, season_range: season.range });
    }
    // Every report counted: each player's score item holds their points, in both seasons (the boards are kept from
    // these items by the stream, which this table has not).
    for (const season of [weekOf(now), monthOf(now)]) {
      const scores = (await seasonScores(deps, code, season, 1)).map(({ id, kills, wins }) => [id, kills, wins]);
      expect(scores.sort()).toEqual(Array.from({ length: 100 }, (_, i) => [`p${i}`, i % 2 === 0 ? 1 : 2, 1]).sort());
    }
  }, 120_000);
});

/**
 * Items that transactions of different players may share, each with why. Any other item in transactions of
 * two different players is a place where the real service cancels one player's request because of another's.
 */
const MEANT_TO_BE_SHARED: { prefixes: string[]; why: string }[] = [
  {
    prefixes: ['WALLET#', 'SOCIAL#', 'ZKSALT#', 'NONCE#'],
    why: 'a sign-in identity (an address, a social account, a zkLogin subject, a sign-in nonce) belongs to one user: the item is there so that a second user claiming it is refused',
  },
  {
    prefixes: ['TXUSE#', 'OUTER#', 'BILL#', 'RESULT#', 'IDEMPOTENCY#'],
    why: 'one payment, partner order, bill, match result or Idempotency-Key is used once: the item is there so that a second request naming it is refused or answered from it, whoever it is for',
  },
];
const meantToBeShared = (key: ItemKey) => MEANT_TO_BE_SHARED.some(({ prefixes }) => prefixes.some((prefix) => key.pk.startsWith(prefix)));

describe('the transactions of the run', () => {
  it('finds an item two players share (the rule the walk applies)', () => {
    const sent = (uid: string, shared: string): SentTransaction => ({
      cancelled: false,
      items: [
        { table: 't', pk: `USER#${uid}`, sk: 'TICKETS#p#1', action: 'Update' },
        { table: 't', pk: shared, sk: 'PROJECT', action: 'ConditionCheck' },
      ],
    });
    expect(playersOf(sent('u1', 'PROJECT#p'))).toEqual(['u1']);
    expect(itemsSharedByPlayers([sent('u1', 'PROJECT#p'), sent('u2', 'PROJECT#p')], meantToBeShared)).toEqual([
      { table: 't', pk: 'PROJECT#p', sk: 'PROJECT', action: 'ConditionCheck', players: [['u1'], ['u2']] },
    ]);
    // One player's own transactions may share anything; a claim item is shared on purpose.
    expect(itemsSharedByPlayers([sent('u1', 'PROJECT#p'), sent('u1', 'PROJECT#p')], meantToBeShared)).toEqual([]);
    expect(itemsSharedByPlayers([sent('u1', 'TXUSE#d'), sent('u2', 'TXUSE#d')], meantToBeShared)).toEqual([]);
    // A score report is for the players it scores; two matches that both had a player share that player's items.
    const score = (player: string) => ({ table: 't', pk: 'SCORE#g#W#2026-11-23', sk: `PLAYER#${player}`, action: 'Update' as const });
    const match = (...players: string[]): SentTransaction => ({ cancelled: false, items: players.map(score) });
    expect(playersOf(match('b', 'a'))).toEqual(['a', 'b']);
    expect(itemsSharedByPlayers([match('a', 'b', 'c'), match('a', 'b'), match('b', 'd')], meantToBeShared)).toEqual([]);
    // An item in transactions that have no player in common is shared, even when each pair has one.
    const board = (...players: string[]): SentTransaction => ({
      cancelled: false,
      items: [...players.map(score), { table: 't', pk: 'BOARD#g', sk: 'TOP', action: 'Update' }],
    });
    expect(itemsSharedByPlayers([board('a', 'b'), board('b', 'c'), board('c', 'a')], meantToBeShared).map((item) => item.pk)).toEqual(['BOARD#g']);
  });

  it("share no item between two different players' transactions, but for the allowed claims", () => {
    removeEndedRunJournals();
    const dir = runJournalDir();
    expect(dir).toBeDefined();
    const sent = readJournal(dir!);
    // This file's own requests above are in it: every money path and the score reports, by many players.
    expect(sent.filter((transaction) => playersOf(transaction).length > 0).length).toBeGreaterThan(600);
    const shared = itemsSharedByPlayers(sent, meantToBeShared).map(({ table, pk, sk, action, players }) => ({
      item: `${pk} / ${sk} (${action}, table ${table})`,
      players: players.slice(0, 3).map((set) => set.join('+')),
      transactions: players.length,
    }));
    expect(shared).toEqual([]);
  });
});
