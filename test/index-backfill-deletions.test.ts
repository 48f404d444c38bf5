import { randomUUID } from 'node:crypto';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backfillIndexes, type BackfillCounts } from '../core/platform/index-backfill.js';
import { PLAYER_ITEMS_INDEX, playerItemsPartition, type PlayerItemKind } from '../core/platform/players.js';
import { queryItems } from '../core/platform/query.js';
import { INDEX_BACKFILLS } from '../tools/admin/index-backfills.js';
import type { createAllApps } from '../functions/apps.js';
import { busyPlayer, startSharedWorld, type World } from './support/busy-players.js';
import type { TestDeps } from './support/deps.js';
import { call } from './support/http.js';
import { busyStoreUser, partnerBackend } from './support/store-partner.js';
import { storePathOf, storeWorld } from './support/store.js';
import { scanAll } from './support/table-snapshot.js';

/**
 * The same pass gives the items a deletion finds through "a player's items that no key leads to" (gsi6) their
 * entry when they were written before it (docs/security.md "Items written before the index"): a player's scores,
 * addWin results and hero grants, a store user's codes, token families and refresh tokens. Made through the real
 * operations and taken back to what an older version wrote, they are missed by a deletion before the pass, and
 * found by one after it: the deletion then leaves nothing of the player.
 */
type Item = Record<string, unknown>;
type Deps = Pick<TestDeps, 'db' | 'table'>;

/** The player's (or store user's) entries in the index: kind, then key. */
async function indexedOf(deps: Deps, uid: string) {
  const items = await queryItems(deps, {
    IndexName: PLAYER_ITEMS_INDEX,
    KeyConditionExpression: 'gsi6pk = :pk',
    ExpressionAttributeValues: { ':pk': playerItemsPartition(uid) },
  });
  return items.map((item) => `${String(item.gsi6sk)} ${String(item.pk)} ${String(item.sk)}`).sort();
}

/** What a write before the index left: the user's items of `kinds` without their entry. */
async function unindexed(deps: Deps, uid: string, kinds: PlayerItemKind[]) {
  const items = await queryItems(deps, {
    IndexName: PLAYER_ITEMS_INDEX,
    KeyConditionExpression: 'gsi6pk = :pk',
    ExpressionAttributeValues: { ':pk': playerItemsPartition(uid) },
  });
  const old = items.filter((item) => kinds.includes(item.gsi6sk as PlayerItemKind));
  for (const item of old) {
    await deps.db.send(new UpdateCommand({ TableName: deps.table, Key: { pk: item.pk, sk: item.sk }, UpdateExpression: 'REMOVE gsi6pk, gsi6sk' }));
  }
  return old.length;
}

/** Every item holding one of `values` anywhere (keys and nested attributes included). */
const holders = (items: Item[], values: string[]) => items.filter((item) => values.some((value) => JSON.stringify(item).includes(value)));
const kindsOf = (items: Item[]) => [...new Set(items.map((item) => String(item.pk).split('#')[0]))].sort();

const NOTHING: BackfillCounts = { scanned: 0, updated: 0, already_set: 0, without_keys: 0, unreadable: 0, changed_meanwhile: 0 };

const PLAYER_KINDS: PlayerItemKind[] = ['SCORE', 'RESULT', 'HEROGRANT'];

describe("backfill-indexes: a player's items no key leads to", () => {
  const base = '/v2-testing';
  let deps: TestDeps;
  let app: ReturnType<typeof createAllApps>;
  let world: World;

  let stopWorld: () => Promise<void>;

  beforeAll(async () => {
    ({ stop: stopWorld, ...world } = await startSharedWorld());
    ({ deps, app } = world);
  });
  afterAll(() => stopWorld());

  async function deleteAccount(player: Awaited<ReturnType<typeof busyPlayer>>) {
    const challenge = await call(app, 'POST', `${base}/account/deletion/challenge`, { token: player.platform });
    expect(challenge.status, JSON.stringify(challenge.body)).toBe(200);
    const { signature } = await player.keypair.signPersonalMessage(new TextEncoder().encode(challenge.body.data.message));
    const deleted = await call(app, 'POST', `${base}/account/delete`, { token: player.platform, body: { signature } });
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
  }

  /** What holds the player after their deletion, but its own record (kept until its sweep) and the studios' notices. */
  const leftOf = async (player: { uid: string; address: string; name: string }) =>
    holders(await scanAll(deps), [player.uid, player.address, player.name]).filter((item) => !/^(ERASURE|DELETIONS)#/.test(String(item.pk)));

  it('sets the entries of scores, addWin results and hero grants, so that the deletion leaves nothing of the player', async () => {
    const early = await busyPlayer(world, `Early-${randomUUID().slice(0, 8)}`);
    const player = await busyPlayer(world, `Ann-${randomUUID().slice(0, 8)}`);
    const indexed = await indexedOf(deps, player.uid);
    // Its keyed deduction keeps no record of its own (the ledger entry is the record, in the player's partition).
    expect(indexed.map((entry) => entry.split(' ')[0])).toEqual(['HEROGRANT', 'RESULT', 'SCORE', 'SCORE']);
    // A week's and a month's score, the result, the grant: of each player.
    expect(await unindexed(deps, early.uid, PLAYER_KINDS)).toBe(4);
    expect(await unindexed(deps, player.uid, PLAYER_KINDS)).toBe(4);
    expect(await indexedOf(deps, player.uid)).toEqual([]);

    // A deletion before the pass cannot find them: they stay, naming the player.
    await deleteAccount(early);
    expect(kindsOf(await leftOf(early))).toEqual(['HEROGRANT', 'RESULT', 'SCORE']);

    const counts = await backfillIndexes(deps, INDEX_BACKFILLS);
    expect(counts.scores).toMatchObject({ updated: 4, unreadable: 0, changed_meanwhile: 0 });
    expect(counts.results).toMatchObject({ updated: 2, without_keys: 0, unreadable: 0, changed_meanwhile: 0 });
    expect(counts.hero_grants).toEqual({ ...NOTHING, scanned: 2, updated: 2 });
    expect(await indexedOf(deps, player.uid)).toEqual(indexed);

    await deleteAccount(player);
    expect(await leftOf(player)).toEqual([]);
    const again = await backfillIndexes(deps, INDEX_BACKFILLS);
    for (const kind of Object.values(again)) expect(kind.updated).toBe(0);
  });

  it('counts a submitgamescore result, which names no player, as one its write gives no keys', async () => {
    const scored = await call(app, 'POST', `${base}/chain/game/score`, {
      token: world.shop.server,
      body: {
        game_code: world.shop.gameCode,
        result_id: `match-${randomUUID()}`,
        scores: [{ game_player_id: randomUUID(), game_player_name: 'Bo', kills: 1, wins: 0 }],
      },
    });
    expect(scored.status, JSON.stringify(scored.body)).toBe(200);
    const before = await scanAll(deps);
    const counts = await backfillIndexes(deps, INDEX_BACKFILLS);
    expect(counts.results).toMatchObject({ without_keys: 1, updated: 0, unreadable: 0 });
    expect(await scanAll(deps)).toEqual(before);
  });
});

describe("backfill-indexes: a store user's items no key leads to", () => {
  const STORE_KINDS: PlayerItemKind[] = ['STORECODE', 'STOREFAMILY', 'STOREREFRESH'];

  it('sets the entries of codes, token families and refresh tokens, so that the store deletion leaves nothing of the user', async () => {
    const world = await storeWorld();
    const partner = await partnerBackend(world);
    const deleteUser = async (sub: string) => {
      const res = await call(world.app, 'POST', `${storePathOf('default')}/user/delete`, { body: { assertion: await partner.signDeletion(sub) } });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    };
    const early = await busyStoreUser(world, partner);
    const user = await busyStoreUser(world, partner);
    const indexed = await indexedOf(world.deps, user.uid);
    // Two codes (one exchanged, one spare), the family the exchange started, its two refresh tokens.
    const stored = (entries: string[]) => entries.map((entry) => entry.split(' ')[0]).filter((kind) => kind !== 'IDEMPOTENCY');
    expect(stored(indexed)).toEqual(['STORECODE', 'STORECODE', 'STOREFAMILY', 'STOREREFRESH', 'STOREREFRESH']);
    expect(await unindexed(world.deps, early.uid, STORE_KINDS)).toBe(5);
    expect(await unindexed(world.deps, user.uid, STORE_KINDS)).toBe(5);

    await deleteUser(early.sub);
    expect(kindsOf(holders(await scanAll(world.deps), [early.uid]))).toEqual(['STORECODE', 'STOREFAMILY', 'STOREREFRESH']);

    const counts = await backfillIndexes(world.deps, INDEX_BACKFILLS);
    expect(counts.store_codes).toEqual({ ...NOTHING, scanned: 4, updated: 4 });
    expect(counts.store_families).toEqual({ ...NOTHING, scanned: 2, updated: 2 });
    expect(counts.store_refresh_tokens).toEqual({ ...NOTHING, scanned: 4, updated: 4 });
    expect(await indexedOf(world.deps, user.uid)).toEqual(indexed);

    await deleteUser(user.sub);
    expect(holders(await scanAll(world.deps), [user.uid, user.sub, user.name])).toEqual([]);
  });
});
