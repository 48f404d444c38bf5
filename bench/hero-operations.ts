import { randomUUID } from 'node:crypto';
import { bindNft } from '../core/heroes/bindings.js';
import { heroIdOfNft } from '../core/heroes/keys.js';
import { nftDetail } from '../core/heroes/nft.js';
import { grantHero } from '../core/heroes/roster.js';
import { COSTS, heroNft, heroWorld, type HeroWorld } from '../test/support/heroes.js';
import { giveTickets, playerWithTokens, type BenchDeps } from './fixtures.js';
import type { OperationBench } from './operation-bench.js';

/**
 * The hero game (hero base). One configured hero game per table: made on the first entry's prepare, with the
 * bench's loopback gRPC full node as the stage's object reads.
 */
const worlds = new WeakMap<BenchDeps, Promise<HeroWorld>>();
const worldOf = (deps: BenchDeps) => worlds.get(deps) ?? worlds.set(deps, heroWorld(deps, deps.suiNode)).get(deps)!;

/** A player with a hero token, and the world. */
async function heroPlayer(deps: BenchDeps) {
  const world = await worldOf(deps);
  const player = await playerWithTokens(deps);
  const { token } = await deps.tokens.issue('hero', player.uid);
  return { world, player, token };
}

/** A player's hero NFT on the loopback chain, bound to the player unless told not to. */
async function boundNft(deps: BenchDeps, bind = true) {
  const { world, player, token } = await heroPlayer(deps);
  const nft = heroNft(player.address);
  world.script.putObject(nft);
  if (bind) await bindNft(deps, player.uid, nft.objectId);
  return { world, player, token, objectId: nft.objectId };
}

const grant = async (deps: BenchDeps, world: HeroWorld, uid: string) => {
  const server = await deps.tokens.verify(world.server, ['server']);
  return grantHero(deps, server, { userId: uid, projectName: world.projectName, reference: `bench-${randomUUID()}` });
};

export const heroOperations: OperationBench[] = [
  {
    group: 'hero',
    op: 'config_set',
    base: 'hero',
    minimum: 2,
    reason:
      "BatchGet (the project and the price levels the costs name) + PutItem of the configuration (the admin's account state is remembered: no value moves)",
    units: { write: 1, read: 1.5, why: 'one BatchGet of 3 items, eventually consistent (1.5) + PutItem (1)' },
    prepare: async (deps) => {
      const world = await worldOf(deps);
      return {
        token: world.admin,
        body: {
          heroType: `0x${'ab'.repeat(32)}::hero::Hero`,
          maxLevel: 3,
          projectName: world.projectName,
          levelCosts: Object.entries(COSTS).map(([level, cost]) => ({ level: Number(level), ...cost })),
        },
      };
    },
  },
  {
    group: 'hero',
    op: 'config_get',
    base: 'hero',
    minimum: 1,
    reason: 'GetItem of the configuration',
    units: { write: 0, read: 0.5, why: 'GetItem, eventually consistent' },
    prepare: async (deps) => {
      await worldOf(deps);
      return {};
    },
  },
  {
    group: 'hero',
    op: 'auth',
    base: 'hero',
    minimum: 1,
    reason: "whether the caller deleted their account (GetItem, fresh on a write); then signs a hero token for the platform token's user",
    units: { write: 0, read: 1, why: 'the gone mark read fresh (1)' },
    prepare: async (deps) => ({ token: (await heroPlayer(deps)).player.platform }),
  },
  {
    group: 'hero',
    op: 'grant',
    base: 'hero',
    minimum: 2,
    reason:
      "one BatchGet, strongly consistent: the server's account state, read fresh (moves value), with the named player's deletion mark, the configuration, the player and the reference's grant (the route's reads) + one transaction (grant record, hero)",
    units: {
      write: 5,
      read: 6,
      why: "the caller's account state (its merchant and revocation items), the player's gone mark, configuration, player and the reference's grant in one strongly consistent read (6 × 1); one transaction: grant record (2) and its entry among the player's items (1), hero (2)",
    },
    prepare: async (deps) => {
      const { world, player } = await heroPlayer(deps);
      return { token: world.server, body: { userId: player.uid, projectName: world.projectName, reference: `bench-${randomUUID()}` } };
    },
  },
  {
    group: 'hero',
    op: 'heroes_list',
    base: 'hero',
    minimum: 1,
    reason: "one Query of the player's HERO# items",
    units: { write: 0, read: 0.5, why: "one Query of the player's heroes, only shown" },
    prepare: async (deps) => {
      const { world, player, token } = await heroPlayer(deps);
      for (let i = 0; i < 3; i++) await grant(deps, world, player.uid);
      return { token };
    },
  },
  {
    group: 'hero',
    op: 'bind',
    base: 'hero',
    label: 'bind (first)',
    minimum: 2,
    reason:
      "one BatchGet, strongly consistent: the caller's gone mark (fresh on a write) with the configuration, account, the NFT's binding and its hero (the route's reads) + one transaction (binding, hero); the object is read from the node, not the table",
    units: {
      write: 4,
      read: 5,
      why: 'the gone mark, configuration, account, binding and hero in one strongly consistent read (5 × 1); one transaction: binding, hero (4)',
    },
    prepare: async (deps) => {
      const { token, objectId } = await boundNft(deps, false);
      return { token, body: { objectId } };
    },
  },
  {
    group: 'hero',
    op: 'bind',
    base: 'hero',
    label: 'bind (repeated)',
    minimum: 1,
    reason:
      "one BatchGet, strongly consistent: the caller's gone mark (fresh on a write) with the route's reads: bound to the caller already, the binding answers (no node read)",
    units: { write: 0, read: 5, why: 'the gone mark, configuration, account, binding and hero in one strongly consistent read (5 × 1)' },
    prepare: async (deps) => {
      const { token, objectId } = await boundNft(deps);
      return { token, body: { objectId } };
    },
  },
  {
    group: 'hero',
    op: 'unbind',
    base: 'hero',
    minimum: 2,
    reason:
      "one BatchGet, strongly consistent: the caller's gone mark (fresh on a write) with the binding and the hero (the route's reads) + one transaction (hero deleted, level kept on the binding)",
    units: {
      write: 4,
      read: 3,
      why: 'the gone mark, binding and hero in one strongly consistent read (3 × 1); one transaction: hero deleted, binding kept (4)',
    },
    prepare: async (deps) => {
      const { token, objectId } = await boundNft(deps);
      return { token, body: { objectId } };
    },
  },
  {
    group: 'hero',
    op: 'nft_detail',
    base: 'hero',
    label: 'nft_detail (node read)',
    minimum: 2,
    reason: 'BatchGet (configuration, cache) + PutItem of the cache; the object from the node',
    units: { write: 1, read: 1, why: 'configuration and cache, eventually consistent (1) + the cache PutItem (1)' },
    prepare: async (deps) => {
      const { token, objectId } = await boundNft(deps, false);
      return { token, params: { objectId } };
    },
  },
  {
    group: 'hero',
    op: 'nft_detail',
    base: 'hero',
    label: 'nft_detail (cached)',
    minimum: 1,
    reason: 'BatchGet (configuration, cache): within the cache time, no node read and no write',
    units: { write: 0, read: 1, why: 'configuration and cache, eventually consistent (1)' },
    prepare: async (deps) => {
      const { token, objectId } = await boundNft(deps, false);
      await nftDetail(deps, objectId);
      return { token, params: { objectId } };
    },
  },
  {
    group: 'hero',
    op: 'upgrade',
    base: 'hero',
    minimum: 2,
    reason:
      "one BatchGet, strongly consistent: the caller's gone mark (fresh on a write) with the configuration, the heroes and the Idempotency-Key's record (the route's reads) + one transaction (each hero on its level, the balance on its sum, the ledger entry, which is the key's record)",
    units: {
      write: 10,
      read: 5,
      why: "the gone mark, configuration, the two heroes and the Idempotency-Key's record in one strongly consistent read (5 × 1); one transaction: each hero on its level (2 × 2), the balance (2) and one ledger entry that is also the Idempotency-Key's record, over 1 KB with the answer it keeps for retries (2 × 2)",
    },
    floor: {
      roundTrips: 2,
      write: 10,
      why: "One read (the gone mark, configuration, the heroes, the key's record); the transaction. Here 2 heroes on one price level: each hero on its level (2 × 2), the balance (2), one ledger entry that is also the key's record, 1.2 KB with the answer a retry is given byte for byte (2 × 2).",
    },
    prepare: async (deps) => {
      const { world, player, token, objectId } = await boundNft(deps);
      const granted = await grant(deps, world, player.uid);
      await giveTickets(deps, player.uid, world.projectName, 1, 2 * COSTS[2].amount);
      return { token, body: { userId: player.uid, itemIds: [heroIdOfNft(objectId), granted.id] }, headers: { 'Idempotency-Key': `bench-${randomUUID()}` } };
    },
  },
];
