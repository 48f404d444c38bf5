import { randomUUID } from 'node:crypto';
import { createChain } from '../../core/chain/source.js';
import { saveLevel } from '../../core/payments/projects.js';
import { createHeroApp } from '../../functions/hero.js';
import type { Deps } from '../../core/deps.js';
import { call, type CallOptions } from './http.js';
import { accountWithToken } from './merchants.js';
import { playerWithTokens, projectWithLevel } from './payments.js';
import { startSuiGrpc, type SuiGrpc } from './sui-grpc.js';
import { ChainScript, PACKAGE, PAYMENT_TYPE, randomAddress, type ScriptObject } from './sui-node.js';

/** The hero game's world for tests and the bench: a loopback full node, a configured hero game, players. */

export const HERO_TYPE = `${PACKAGE}::hero::Hero`;
export const HERO_BASE = '/hero-testing';

/** The layout of the hero type (`id`, `name`, a u64 `level`, a byte vector `dna`), which says how each API renders it. */
const heroLayout = (type: string) => ({
  struct: {
    type,
    fields: [
      { name: 'id', layout: 'address' },
      { name: 'name', layout: { struct: { type: `0x${'0'.repeat(63)}1::string::String`, fields: [{ name: 'bytes', layout: { vector: 'u8' } }] } } },
      { name: 'level', layout: 'u64' },
      { name: 'dna', layout: { vector: 'u8' } },
    ],
  },
});

/**
 * A hero NFT owned by `owner` (an address unless said otherwise), of `type` (the hero type unless said
 * otherwise): name Arthas, on-chain level 7, dna bytes 1 2 3 250.
 */
export function heroNft(owner: ScriptObject['owner'] | string, type = HERO_TYPE): Omit<ScriptObject, 'version'> {
  const objectId = randomAddress();
  return {
    objectId,
    type,
    owner: typeof owner === 'string' ? { kind: 'ADDRESS', address: owner } : owner,
    fields: { id: objectId, name: 'Arthas', level: '7', dna: [1, 2, 3, 250] },
    layout: heroLayout(type),
  };
}

/**
 * Level costs of the test configuration: level 2 costs 5 tickets of price level 1, level 3 costs 7 of price level
 * 2, up to maxLevel 3.
 */
export const COSTS = { 2: { ticketLevel: 1, amount: 5 }, 3: { ticketLevel: 2, amount: 7 } } as const;

export interface HeroWorld {
  app: ReturnType<typeof createHeroApp>;
  node: SuiGrpc;
  script: ChainScript;
  projectName: string;
  /** The project's merchant's server token (grants). */
  server: string;
  admin: string;
  request(method: string, path: string, options?: CallOptions): ReturnType<typeof call>;
}

/**
 * Deps with a chain whose object reads go to a loopback gRPC full node (a new one unless given), and the hero game
 * configured by an admin.
 */
export async function heroWorld(deps: Deps, node?: SuiGrpc): Promise<HeroWorld> {
  node ??= await startSuiGrpc(new ChainScript());
  const script = node.script;
  deps.chain = createChain(
    { kind: 'graphql', url: 'https://graphql.testnet.sui.io/graphql', paymentEventType: PAYMENT_TYPE, grpcUrl: node.url },
    { timeoutMs: 500 },
  );
  const shop = await projectWithLevel(deps);
  await saveLevel(deps, shop.owner.claims, { project_name: shop.project.project_name, level: 2, amount: '1000', tickets: 10, status: 1 });
  const admin = await accountWithToken(deps, 'admin');
  const app = createHeroApp(deps);
  const request = (method: string, path: string, options?: CallOptions) => call(app, method, `${HERO_BASE}${path}`, options);
  const set = await request('PUT', '/heroes/config', {
    token: admin.token,
    body: {
      heroType: HERO_TYPE,
      maxLevel: 3,
      projectName: shop.project.project_name,
      levelCosts: Object.entries(COSTS).map(([level, cost]) => ({ level: Number(level), ...cost })),
    },
  });
  if (set.status !== 200) throw new Error(`hero config: ${set.status} ${JSON.stringify(set.body)}`);
  return { app, node, script, projectName: shop.project.project_name, server: shop.server, admin: admin.token, request };
}

/** A player with a wallet account and a hero token. */
export async function heroPlayer(world: HeroWorld, deps: Deps) {
  const player = await playerWithTokens(deps);
  const auth = await world.request('POST', '/auth', { token: player.platform });
  if (auth.status !== 200) throw new Error(`hero auth: ${auth.status}`);
  return { ...player, hero: auth.body.accessToken as string };
}

/** A hero granted to `uid` by the game's server. */
export async function grantedHero(world: HeroWorld, uid: string): Promise<{ id: string; level: number }> {
  const res = await world.request('POST', '/heroes/grant', {
    token: world.server,
    body: { userId: uid, projectName: world.projectName, reference: `starter-${randomUUID()}` },
  });
  if (res.status !== 201) throw new Error(`hero grant: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}
