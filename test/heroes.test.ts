import { randomUUID } from 'node:crypto';
import { allErrorEntries } from '../core/http/error-catalogue.js';
import { statusOfKind } from '../core/http/error-statuses.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { heroIdOfNft } from '../core/heroes/keys.js';
import { balanceOf } from '../core/tickets/balances.js';
import { queryItems } from '../core/platform/query.js';
import { heroError, mismatches } from './contract/contract-shapes.js';
import { createTestDeps, itemCount, type TestDeps } from './support/deps.js';
import { COSTS, grantedHero, HERO_BASE, heroNft, heroPlayer, heroWorld, type HeroWorld } from './support/heroes.js';
import { documentErrors, servedDocument } from './support/openapi-check.js';
import { giveTickets, playerWithTokens, projectWithLevel } from './support/payments.js';
import { commandCounter } from './support/rankings.js';
import { scanAll } from './support/table-snapshot.js';
import { PACKAGE, randomAddress } from './support/sui-node.js';
import type { CallResult } from './support/http.js';

/**
 * The hero game (docs/api.md, "Hero game"): its own base, hero tokens, heroes bound from on-chain NFTs (read from a
 * loopback gRPC full node in the real format) or granted by the game's server, and upgrades paid in tickets in one
 * transaction.
 */
let deps: TestDeps;
let world: HeroWorld;
const document = servedDocument(HERO_BASE, 'hero');

beforeAll(async () => {
  deps = await createTestDeps();
  world = await heroWorld(deps);
});
afterAll(() => world.node.stop());

/** The response conforms to the hero document for its path and status (the path as documented). */
function conforms(res: CallResult, method: string, path: string) {
  expect(documentErrors(document, path, method, res.status, res.body)).toEqual([]);
}

/** The hero base's error body, exactly `{message, statusCode, error}`, with the message naming `field` when given. */
function heroRefusal(res: CallResult, status: number, message: RegExp) {
  expect(res.status).toBe(status);
  expect(Object.keys(res.body).sort()).toEqual(['error', 'message', 'statusCode']);
  // The code is one of the catalogues', of a kind answered with this status (docs/api.md, "Error codes").
  const code = allErrorEntries.find((entry) => entry.code === res.body.error);
  expect(code && statusOfKind[code.kind], String(res.body.error)).toBe(status);
  expect(res.body).toEqual({ message: expect.stringMatching(message), statusCode: status, error: code!.code });
}

const ticketsOf = (uid: string, level: number) => balanceOf(deps, { uid, projectName: world.projectName, level });
const heroesOf = async (token: string) =>
  (await world.request('GET', '/heroes', { token, query: { pageSize: 100 } })).body.heroes as { id: string; level: number }[];

describe('hero auth and the compatibility contract', () => {
  it("answers the contract's 401 of upgrade as {message, statusCode}, with no token or a token of another kind", async () => {
    const player = await playerWithTokens(deps);
    const body = { userId: player.uid, itemIds: [randomUUID()] };
    for (const token of [undefined, player.platform, player.game, 'not.a.jwt']) {
      const res = await world.request('POST', '/heroes/upgrade-level', { token, body });
      heroRefusal(res, 401, /./);
      expect(mismatches(res.body, heroError)).toEqual([]);
      conforms(res, 'post', '/heroes/upgrade-level');
    }
  });

  it('exchanges a platform token for a hero token of the same user; nothing else gets one', async () => {
    const player = await playerWithTokens(deps);
    const res = await world.request('POST', '/auth', { token: player.platform });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ accessToken: expect.any(String), expiresAt: expect.any(String), userId: player.uid });
    conforms(res, 'post', '/auth');
    const claims = await deps.tokens.verify(res.body.accessToken, ['hero']);
    expect(claims).toMatchObject({ kind: 'hero', sub: player.uid });
    await expect(deps.tokens.verify(res.body.accessToken, ['platform', 'game'])).rejects.toThrow();
    for (const token of [player.game, res.body.accessToken]) heroRefusal(await world.request('POST', '/auth', { token }), 401, /token/);
  });

  it('answers every error on this base as {message, statusCode}: unknown paths and malformed bodies too', async () => {
    const player = await heroPlayer(world, deps);
    heroRefusal(await world.request('GET', '/nothing-here'), 404, /no route/);
    heroRefusal(await world.request('POST', '/heroes/bind', { token: player.hero, body: { objectId: 'nope' } }), 400, /^body\.objectId:/);
    heroRefusal(await world.request('POST', '/heroes/bind', { token: player.hero, body: '{"objectId": ' }), 400, /^body: must be valid JSON/);
  });
});

describe('hero configuration (admins)', () => {
  const config = () => ({
    heroType: `${PACKAGE}::hero::Hero`,
    maxLevel: 3,
    projectName: world.projectName,
    levelCosts: [
      { level: 2, ticketLevel: 1, amount: 5 },
      { level: 3, ticketLevel: 2, amount: 7 },
    ],
  });

  it('is open to read and admin-only to set; refusals name the field and write nothing', async () => {
    const read = await world.request('GET', '/heroes/config');
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ heroType: `${PACKAGE}::hero::Hero`, maxLevel: 3, nftCacheSeconds: 60, projectName: world.projectName });
    conforms(read, 'get', '/heroes/config');

    const merchant = await projectWithLevel(deps);
    const before = await itemCount(deps);
    heroRefusal(await world.request('PUT', '/heroes/config', { token: merchant.owner.token, body: config() }), 403, /admin/);
    heroRefusal(
      await world.request('PUT', '/heroes/config', { token: world.admin, body: { ...config(), levelCosts: [{ level: 2, ticketLevel: 1, amount: 5 }] } }),
      400,
      /^body\.levelCosts: every level from 2 to maxLevel needs a cost; level 3/,
    );
    heroRefusal(
      await world.request('PUT', '/heroes/config', {
        token: world.admin,
        body: { ...config(), levelCosts: [...config().levelCosts, { level: 2, ticketLevel: 1, amount: 1 }] },
      }),
      400,
      /^body\.levelCosts\.2\.level: level 2 is priced twice/,
    );
    heroRefusal(await world.request('PUT', '/heroes/config', { token: world.admin, body: { ...config(), heroType: 'hero' } }), 400, /^body\.heroType:/);
    heroRefusal(
      await world.request('PUT', '/heroes/config', { token: world.admin, body: { ...config(), projectName: 'no-such-project' } }),
      404,
      /^body\.projectName: no project/,
    );
    heroRefusal(
      await world.request('PUT', '/heroes/config', {
        token: world.admin,
        body: {
          ...config(),
          levelCosts: [
            { level: 2, ticketLevel: 1, amount: 5 },
            { level: 3, ticketLevel: 9, amount: 7 },
          ],
        },
      }),
      404,
      /^body\.levelCosts\.1\.ticketLevel: .* no price level 9/,
    );
    expect(await itemCount(deps)).toBe(before);

    // The same configuration again (short type written in full), as an admin: 200, the document's shape.
    const set = await world.request('PUT', '/heroes/config', { token: world.admin, body: { ...config(), heroType: `0x${PACKAGE.slice(2)}::hero::Hero` } });
    expect(set.status).toBe(200);
    conforms(set, 'put', '/heroes/config');
  });
});

describe('hero grant (game servers) and heroes_list', () => {
  it('grants a level 1 hero once per reference: the retry answers the first hero, the reference reused otherwise is 422', async () => {
    const player = await heroPlayer(world, deps);
    const body = { userId: player.uid, projectName: world.projectName, reference: `starter-${randomUUID()}` };
    const first = await world.request('POST', '/heroes/grant', { token: world.server, body });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ userId: player.uid, level: 1, experience: 0, source: 'granted', nftObjectId: null });
    conforms(first, 'post', '/heroes/grant');
    const again = await Promise.all(Array.from({ length: 4 }, () => world.request('POST', '/heroes/grant', { token: world.server, body })));
    // The first answer byte for byte: a stored answer keeps its key order.
    for (const res of again) expect({ status: res.status, text: res.text }).toEqual({ status: 201, text: first.text });
    expect(await heroesOf(player.hero)).toHaveLength(1);
    heroRefusal(
      await world.request('POST', '/heroes/grant', { token: world.server, body: { ...body, userId: (await playerWithTokens(deps)).uid } }),
      422,
      /^body\.reference: .* was used for another grant/,
    );
  });

  it("refuses another merchant's server, a project that is not the hero game's, an unknown player and a player token, writing nothing", async () => {
    const player = await heroPlayer(world, deps);
    const stranger = await projectWithLevel(deps);
    const body = { userId: player.uid, projectName: world.projectName, reference: `r-${randomUUID()}` };
    const before = await itemCount(deps);
    heroRefusal(await world.request('POST', '/heroes/grant', { token: stranger.server, body }), 403, /^projectName:/);
    heroRefusal(
      await world.request('POST', '/heroes/grant', { token: stranger.server, body: { ...body, projectName: stranger.project.project_name } }),
      404,
      /^body\.projectName: the hero game/,
    );
    heroRefusal(
      await world.request('POST', '/heroes/grant', { token: world.server, body: { ...body, userId: randomUUID() } }),
      404,
      /^body\.userId: no player/,
    );
    heroRefusal(await world.request('POST', '/heroes/grant', { token: player.hero, body }), 401, /token/);
    expect(await itemCount(deps)).toBe(before);
  });

  it("lists the caller's heroes, oldest first, in pages, with one Query", async () => {
    const player = await heroPlayer(world, deps);
    const granted = [];
    for (let i = 0; i < 5; i++) granted.push(await grantedHero(world, player.uid));
    const counter = commandCounter(deps);
    counter.start();
    const page = await world.request('GET', '/heroes', { token: player.hero, query: { page: 1, pageSize: 2 } });
    expect(counter.stop()).toEqual({ Query: 1 });
    expect(page.status).toBe(200);
    expect(page.body).toEqual({ heroes: granted.slice(2, 4), page: 1, pageSize: 2, total: 5, totalPage: 3 });
    conforms(page, 'get', '/heroes');
    const other = await heroPlayer(world, deps);
    expect((await world.request('GET', '/heroes', { token: other.hero })).body).toMatchObject({ heroes: [], total: 0, totalPage: 0 });
    heroRefusal(await world.request('GET', '/heroes', { token: player.hero, query: { pageSize: 101 } }), 400, /^query\.pageSize:/);
  });
});

describe('bind, unbind and nft_detail (the chain read from a loopback gRPC full node)', () => {
  it("binds an NFT the caller's wallet owns; binding it again answers the first binding without reading the chain", async () => {
    const player = await heroPlayer(world, deps);
    const nft = heroNft(player.address);
    world.script.putObject(nft);
    const first = await world.request('POST', '/heroes/bind', { token: player.hero, body: { objectId: nft.objectId.toUpperCase().replace('0X', '0x') } });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      hero: {
        id: heroIdOfNft(nft.objectId),
        userId: player.uid,
        level: 1,
        experience: 0,
        source: 'nft',
        nftObjectId: nft.objectId,
        created_at: expect.any(String),
        updated_at: expect.any(String),
      },
      bound_at: expect.any(String),
    });
    conforms(first, 'post', '/heroes/bind');
    const reads = world.node.calls('BatchGetObjects').length;
    const again = await world.request('POST', '/heroes/bind', { token: player.hero, body: { objectId: nft.objectId } });
    expect({ status: again.status, text: again.text }).toEqual({ status: 200, text: first.text });
    expect(world.node.calls('BatchGetObjects')).toHaveLength(reads);
    expect(await heroesOf(player.hero)).toEqual([first.body.hero]);
  });

  it('refuses, writing nothing: another owner (403), a kiosk (403), another type (400), a deleted or wrapped object (404), a node down (503)', async () => {
    const player = await heroPlayer(world, deps);
    const bind = (objectId: string) => world.request('POST', '/heroes/bind', { token: player.hero, body: { objectId } });
    const someoneElses = heroNft(randomAddress());
    const inKiosk = heroNft({ kind: 'OBJECT', address: randomAddress() });
    const shared = heroNft({ kind: 'SHARED' });
    const notAHero = heroNft(player.address, `${PACKAGE}::sword::Sword`);
    const deleted = heroNft(player.address);
    const wrapped = heroNft(player.address);
    const mine = heroNft(player.address);
    for (const nft of [someoneElses, inKiosk, shared, notAHero, deleted, wrapped, mine]) world.script.putObject(nft);
    world.script.removeObject(deleted.objectId, 'deleted').removeObject(wrapped.objectId, 'wrapped');

    const before = await itemCount(deps);
    heroRefusal(
      await bind(someoneElses.objectId),
      403,
      new RegExp(
        `^objectId: .* owned by address ${someoneElses.owner.kind === 'ADDRESS' ? someoneElses.owner.address : ''}, not by your wallet address ${player.address}`,
      ),
    );
    heroRefusal(await bind(inKiosk.objectId), 403, /owned by object .* kiosk/);
    heroRefusal(await bind(shared.objectId), 403, /shared object/);
    heroRefusal(await bind(notAHero.objectId), 400, /^objectId: .* is a .*::sword::Sword, not a hero/);
    heroRefusal(await bind(deleted.objectId), 404, /^objectId: no live object/);
    heroRefusal(await bind(wrapped.objectId), 404, /^objectId: no live object/);
    heroRefusal(await bind(randomAddress()), 404, /^objectId: no live object/);
    world.node.failNext('drop');
    heroRefusal(await bind(mine.objectId), 503, /^objectId: the chain node could not be read/);
    world.node.failNext('error');
    heroRefusal(await bind(mine.objectId), 503, /^objectId: the chain node could not be read/);
    expect(await itemCount(deps)).toBe(before);
    expect((await bind(mine.objectId)).status).toBe(200);
  });

  it('answers 503 and writes nothing when the stage reads no objects from the chain', async () => {
    const player = await heroPlayer(world, deps);
    const nft = heroNft(player.address);
    world.script.putObject(nft);
    const chain = deps.chain;
    deps.chain = { ...chain!, reads: undefined };
    try {
      const before = await itemCount(deps);
      heroRefusal(await world.request('POST', '/heroes/bind', { token: player.hero, body: { objectId: nft.objectId } }), 503, /grpcUrl/);
      heroRefusal(await world.request('GET', `/heroes/nft/${nft.objectId}`, { token: player.hero }), 503, /grpcUrl/);
      expect(await itemCount(deps)).toBe(before);
    } finally {
      deps.chain = chain;
    }
  });

  it('an NFT bound to another player is 409 while they own it; transferred on chain, it moves to the new owner with its level', async () => {
    const [alice, bob] = [await heroPlayer(world, deps), await heroPlayer(world, deps)];
    const nft = heroNft(alice.address);
    world.script.putObject(nft);
    expect((await world.request('POST', '/heroes/bind', { token: alice.hero, body: { objectId: nft.objectId } })).status).toBe(200);
    await giveTickets(deps, alice.uid, world.projectName, 1, COSTS[2].amount);
    const upgraded = await world.request('POST', '/heroes/upgrade-level', {
      token: alice.hero,
      body: { userId: alice.uid, itemIds: [heroIdOfNft(nft.objectId)] },
    });
    expect(upgraded.status).toBe(200);

    const before = await itemCount(deps);
    heroRefusal(
      await world.request('POST', '/heroes/bind', { token: bob.hero, body: { objectId: nft.objectId } }),
      409,
      /^objectId: .* bound to another player/,
    );
    expect(await itemCount(deps)).toBe(before);

    world.script.putObject({ ...nft, owner: { kind: 'ADDRESS', address: bob.address } });
    const moved = await world.request('POST', '/heroes/bind', { token: bob.hero, body: { objectId: nft.objectId } });
    expect(moved.status).toBe(200);
    expect(moved.body.hero).toMatchObject({ id: heroIdOfNft(nft.objectId), userId: bob.uid, level: 2 });
    expect(await heroesOf(alice.hero)).toEqual([]);
    expect(await heroesOf(bob.hero)).toEqual([moved.body.hero]);
  });

  it('unbind releases only the caller’s own; the level stays with the NFT and comes back when it is bound again', async () => {
    const [owner, other] = [await heroPlayer(world, deps), await heroPlayer(world, deps)];
    const nft = heroNft(owner.address);
    world.script.putObject(nft);
    await world.request('POST', '/heroes/bind', { token: owner.hero, body: { objectId: nft.objectId } });
    await giveTickets(deps, owner.uid, world.projectName, 1, COSTS[2].amount);
    await world.request('POST', '/heroes/upgrade-level', { token: owner.hero, body: { userId: owner.uid, itemIds: [heroIdOfNft(nft.objectId)] } });

    const before = await itemCount(deps);
    heroRefusal(
      await world.request('POST', '/heroes/unbind', { token: other.hero, body: { objectId: nft.objectId } }),
      404,
      /^objectId: no hero NFT .* bound to you/,
    );
    heroRefusal(await world.request('POST', '/heroes/unbind', { token: owner.hero, body: { objectId: randomAddress() } }), 404, /bound to you/);
    expect(await itemCount(deps)).toBe(before);

    const released = await world.request('POST', '/heroes/unbind', { token: owner.hero, body: { objectId: nft.objectId } });
    expect(released.status).toBe(200);
    expect(released.body).toEqual({ objectId: nft.objectId, heroId: heroIdOfNft(nft.objectId), level: 2, experience: 0, released_at: expect.any(String) });
    conforms(released, 'post', '/heroes/unbind');
    expect(await heroesOf(owner.hero)).toEqual([]);
    heroRefusal(await world.request('POST', '/heroes/unbind', { token: owner.hero, body: { objectId: nft.objectId } }), 404, /bound to you/);

    const rebound = await world.request('POST', '/heroes/bind', { token: owner.hero, body: { objectId: nft.objectId } });
    expect(rebound.body.hero).toMatchObject({ id: heroIdOfNft(nft.objectId), level: 2 });
  });

  it('nft_detail reads the node once per cache time and says how old its answer is; not a hero or not live is 404, a node down 503, neither written', async () => {
    const player = await heroPlayer(world, deps);
    const nft = heroNft(randomAddress());
    world.script.putObject(nft);
    const detail = () => world.request('GET', `/heroes/nft/${nft.objectId}`, { token: player.hero });
    const start = new Date();
    deps.setNow(start);
    try {
      const reads = world.node.calls('BatchGetObjects').length;
      const first = await detail();
      expect(first.status).toBe(200);
      expect(first.body).toEqual({
        objectId: nft.objectId,
        type: nft.type,
        version: expect.any(String),
        owner: { kind: 'address', address: (nft.owner as { address: string }).address },
        fields: { id: nft.objectId, name: 'Arthas', level: '7', dna: Buffer.from([1, 2, 3, 250]).toString('base64') },
        fetched_at: start.toISOString(),
        age_seconds: 0,
        cached: false,
        heroId: heroIdOfNft(nft.objectId),
      });
      conforms(first, 'get', '/heroes/nft/{objectId}');
      deps.setNow(new Date(start.getTime() + 30_000));
      const cached = await detail();
      expect(cached.body).toEqual({ ...first.body, age_seconds: 30, cached: true });
      expect(world.node.calls('BatchGetObjects')).toHaveLength(reads + 1);

      deps.setNow(new Date(start.getTime() + 61_000));
      world.script.putObject({ ...nft, owner: { kind: 'ADDRESS', address: player.address } });
      const fresh = await detail();
      expect(fresh.body).toMatchObject({ cached: false, age_seconds: 0, owner: { kind: 'address', address: player.address } });
      expect(world.node.calls('BatchGetObjects')).toHaveLength(reads + 2);

      const before = await itemCount(deps);
      const sword = heroNft(randomAddress(), `${PACKAGE}::sword::Sword`);
      world.script.putObject(sword);
      heroRefusal(await world.request('GET', `/heroes/nft/${sword.objectId}`, { token: player.hero }), 404, /is not a hero NFT/);
      heroRefusal(await world.request('GET', `/heroes/nft/${randomAddress()}`, { token: player.hero }), 404, /no live object/);
      deps.setNow(new Date(start.getTime() + 200_000));
      world.node.failNext('hang');
      heroRefusal(await detail(), 503, /could not be read/);
      heroRefusal(await world.request('GET', '/heroes/nft/0x12', { token: player.hero }), 400, /^path\.objectId:/);
      expect(await itemCount(deps)).toBe(before);
    } finally {
      deps.setNow(undefined);
    }
  });
});

/**
 * Holds every TransactWriteItems of the deps' client until `reads` BatchGetItems have answered (or a second has
 * passed), so that concurrent requests all read before any writes. Returns the function that removes it.
 */
function readsBeforeWrites(reads: number): () => void {
  let answered = 0;
  let open: () => void;
  const allRead = new Promise<void>((resolve) => (open = resolve));
  const name = `readsBeforeWrites${Math.random()}`;
  deps.db.middlewareStack.add(
    (next, context) => async (args) => {
      if (context.commandName === 'TransactWriteItemsCommand') await Promise.race([allRead, new Promise((resolve) => setTimeout(resolve, 1000))]);
      const out = await next(args);
      if (context.commandName === 'BatchGetItemCommand' && ++answered >= reads) open();
      return out;
    },
    { step: 'initialize', name },
  );
  return () => void deps.db.middlewareStack.remove(name);
}

describe('upgrade', () => {
  async function playerWithHeroes(count: number, tickets: { 1?: number; 2?: number } = {}) {
    const player = await heroPlayer(world, deps);
    const heroes = [];
    for (let i = 0; i < count; i++) heroes.push(await grantedHero(world, player.uid));
    if (tickets[1]) await giveTickets(deps, player.uid, world.projectName, 1, tickets[1]);
    if (tickets[2]) await giveTickets(deps, player.uid, world.projectName, 2, tickets[2]);
    const upgrade = (itemIds: string[], headers?: Record<string, string>, token = player.hero) =>
      world.request('POST', '/heroes/upgrade-level', { token, body: { userId: player.uid, itemIds }, headers });
    return { player, heroes, ids: heroes.map((hero) => hero.id), upgrade };
  }

  it('raises every listed hero one level and pays each level in one transaction; answers the heroes and the tickets spent', async () => {
    const { player, ids, upgrade } = await playerWithHeroes(3, { 1: 20, 2: 10 });
    const first = await upgrade(ids.slice(0, 2));
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      userId: player.uid,
      heroes: ids.slice(0, 2).map((id) => expect.objectContaining({ id, level: 2, userId: player.uid })),
      ticketsSpent: [{ projectName: world.projectName, level: 1, amount: 10 }],
    });
    conforms(first, 'post', '/heroes/upgrade-level');
    // Level 3 of the first hero costs tickets of price level 2; level 2 of the third, of price level 1.
    const counter = commandCounter(deps);
    counter.start();
    const second = await upgrade([ids[0]!, ids[2]!]);
    // One read: the authorization layer's fresh read of whether the player deleted their account (a write) brings
    // the configuration and the heroes its handler declares it reads first (FirstReads, functions/hero.ts).
    expect(counter.stop()).toEqual({ BatchGetItem: 1, TransactWriteItems: 1 });
    expect(second.body.ticketsSpent).toEqual([
      { projectName: world.projectName, level: 2, amount: 7 },
      { projectName: world.projectName, level: 1, amount: 5 },
    ]);
    expect(await ticketsOf(player.uid, 1)).toBe(5);
    expect(await ticketsOf(player.uid, 2)).toBe(3);
    expect((await heroesOf(player.hero)).map((hero) => hero.level)).toEqual([3, 2, 2]);
    const ledger = await queryItems(deps, {
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :ref)',
      ExpressionAttributeValues: { ':pk': `USER#${player.uid}`, ':ref': 'LEDGER#hero-upgrade#' },
      ConsistentRead: true,
    });
    expect(ledger.map((entry) => entry.change).sort()).toEqual([-10, -5, -7]);
  });

  it('refuses with a clear 4xx and changes nothing: duplicates, unknown or foreign ids, max level, too many ids, a short balance, another user', async () => {
    const { player, ids, upgrade } = await playerWithHeroes(2, { 1: 5, 2: 7 });
    const stranger = await playerWithHeroes(1, { 1: 100 });
    // The first hero at the maximum level (3) already.
    expect((await upgrade([ids[0]!])).status).toBe(200);
    expect((await upgrade([ids[0]!])).status).toBe(200);
    await giveTickets(deps, player.uid, world.projectName, 1, 4);

    const levels = async () => (await heroesOf(player.hero)).map((hero) => hero.level);
    const before = { items: await itemCount(deps), levels: await levels(), one: await ticketsOf(player.uid, 1), two: await ticketsOf(player.uid, 2) };
    heroRefusal(await upgrade([ids[1]!, ids[1]!.toUpperCase()]), 400, /^body\.itemIds\.1: duplicates itemIds\.0/);
    heroRefusal(await upgrade([ids[1]!, randomUUID()]), 404, /^body\.itemIds\.1: no hero .* of user/);
    heroRefusal(await upgrade([ids[1]!, stranger.ids[0]!]), 404, /^body\.itemIds\.1: no hero/);
    heroRefusal(await upgrade([ids[1]!, ids[0]!]), 409, /^body\.itemIds\.1: hero .* is at the maximum level 3/);
    heroRefusal(await upgrade(Array.from({ length: 34 }, () => randomUUID())), 400, /^body\.itemIds:/);
    heroRefusal(await upgrade([ids[1]!]), 409, /^body\.itemIds: the balance of .* level 1 is less than the 5 tickets/);
    heroRefusal(await upgrade([]), 400, /^body\.itemIds:/);
    heroRefusal(await upgrade(['not-a-uuid']), 400, /^body\.itemIds\.0:/);
    heroRefusal(
      await world.request('POST', '/heroes/upgrade-level', { token: player.hero, body: { userId: stranger.player.uid, itemIds: stranger.ids } }),
      403,
      /^userId: not the signed-in user/,
    );
    heroRefusal(await upgrade([ids[1]!], undefined, player.platform), 401, /./);
    expect({ items: await itemCount(deps), levels: await levels(), one: await ticketsOf(player.uid, 1), two: await ticketsOf(player.uid, 2) }).toEqual(before);
  });

  it('takes the most heroes one upgrade allows (33) in one transaction, with an Idempotency-Key', async () => {
    const { player, ids, upgrade } = await playerWithHeroes(33, { 1: 33 * COSTS[2].amount });
    const res = await upgrade(ids, { 'Idempotency-Key': `many-${randomUUID()}` });
    expect(res.status).toBe(200);
    expect(res.body.heroes).toHaveLength(33);
    expect(await ticketsOf(player.uid, 1)).toBe(0);
  });

  it('an Idempotency-Key makes a retry answer the first result and pay once; the key with another body is 422', async () => {
    const { player, ids, upgrade } = await playerWithHeroes(2, { 1: 10 });
    const headers = { 'Idempotency-Key': `upgrade-${randomUUID()}` };
    const first = await upgrade([ids[0]!], headers);
    expect(first.status).toBe(200);
    const retries = await Promise.all(Array.from({ length: 4 }, () => upgrade([ids[0]!], headers)));
    for (const retry of retries) expect({ status: retry.status, text: retry.text }).toEqual({ status: 200, text: first.text });
    expect(await ticketsOf(player.uid, 1)).toBe(5);
    expect((await heroesOf(player.hero)).find((hero) => hero.id === ids[0])?.level).toBe(2);
    heroRefusal(await upgrade([ids[1]!], headers), 422, /Idempotency-Key/);
    expect(await ticketsOf(player.uid, 1)).toBe(5);
  });

  it('a retry with its Idempotency-Key answers the first answer after the hero reached the maximum level and the balance was spent', async () => {
    const { player, ids, upgrade } = await playerWithHeroes(1, { 1: 5, 2: 7 });
    expect((await upgrade([ids[0]!])).status).toBe(200);
    const headers = { 'Idempotency-Key': `to-max-${randomUUID()}` };
    const first = await upgrade([ids[0]!], headers);
    expect(first.status).toBe(200);
    expect(first.body.heroes[0].level).toBe(3);
    // The hero is at the maximum level (3) and the balance of level 2 is spent: judged anew, this is 409 twice over.
    heroRefusal(await upgrade([ids[0]!]), 409, /is at the maximum level 3/);
    const before = await scanAll(deps);
    const counter = commandCounter(deps);
    counter.start();
    const retry = await upgrade([ids[0]!], headers);
    expect(counter.stop()).toEqual({ BatchGetItem: 1 });
    expect({ status: retry.status, text: retry.text }).toEqual({ status: 200, text: first.text });
    conforms(retry, 'post', '/heroes/upgrade-level');
    expect(await scanAll(deps)).toEqual(before);
    expect(await ticketsOf(player.uid, 2)).toBe(0);
  });

  it('30 concurrent single-hero upgrades with tickets for 10: exactly 10 succeed, the balance is 0, the levels match', async () => {
    const { player, ids, upgrade } = await playerWithHeroes(30, { 1: 10 * COSTS[2].amount });
    // The balance item takes one transaction at a time (DynamoDB's conflict rule, emulated): a request that keeps
    // colliding ends in a 409 asking to retry, and a client does. A short balance is final.
    const client = async (id: string) => {
      for (;;) {
        const res = await upgrade([id]);
        if (res.status !== 409 || !/retry$/.test(res.body.message)) return res;
      }
    };
    const results = await Promise.all(ids.map(client));
    const succeeded = results.filter((res) => res.status === 200);
    expect(succeeded).toHaveLength(10);
    for (const res of results.filter((r) => r.status !== 200)) heroRefusal(res, 409, /balance .* is less than/);
    expect(await ticketsOf(player.uid, 1)).toBe(0);
    const upgradedIds = new Set(succeeded.map((res) => res.body.heroes[0].id));
    for (const hero of await heroesOf(player.hero)) expect(hero.level).toBe(upgradedIds.has(hero.id) ? 2 : 1);
  });

  it('two concurrent upgrades of one hero: one succeeds, the other is refused on the stale level, one level paid', async () => {
    const { player, ids, upgrade } = await playerWithHeroes(1, { 1: 10, 2: 14 });
    const client = async () => {
      for (;;) {
        const res = await upgrade([ids[0]!]);
        if (res.status !== 409 || !/retry$/.test(res.body.message)) return res;
      }
    };
    // Both read level 1 before either writes: each transaction waits until two reads of the hero have answered.
    const release = readsBeforeWrites(2);
    const results = await Promise.all([client(), client()]).finally(release);
    // The first commits 1 -> 2; the second's condition (still level 1) fails.
    expect(results.map((res) => res.status).sort()).toEqual([200, 409]);
    heroRefusal(results.find((res) => res.status === 409)!, 409, /^body\.itemIds\.0: hero .* is no longer at level 1/);
    expect((await heroesOf(player.hero))[0]!.level).toBe(2);
    expect(await ticketsOf(player.uid, 1)).toBe(5);
    expect(await ticketsOf(player.uid, 2)).toBe(14);
  });
});
