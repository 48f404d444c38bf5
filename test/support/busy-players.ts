import { randomUUID } from 'node:crypto';
import type { Hono } from 'hono';
import { expect } from 'vitest';
import { settleSeason } from '../../core/rewards/settlement.js';
import { createAllApps } from '../../functions/apps.js';
import { createTestDeps, type TestDeps } from './deps.js';
import { grantedHero, heroNft, heroWorld, type HeroWorld } from './heroes.js';
import { call } from './http.js';
import { startOAuthIssuer, type TestIssuer } from './oauth-issuer.js';
import { indexedPayment, playerWithTokens, projectWithLevel } from './payments.js';
import { pastWeek, rewardGame, scoresInPastWeek } from './rewards.js';
import { goodsFor } from './goods.js';

/**
 * Players who used every part of the platform a player can, through the operations that write what a player
 * holds (the export's test/player-export.test.ts reads it back): all of them in one studio's project and game,
 * and in one past season of a rewarded game, so that they share every partition but their own.
 */
export interface World {
  deps: TestDeps;
  app: Hono;
  issuer: TestIssuer;
  heroes: HeroWorld;
  shop: Awaited<ReturnType<typeof projectWithLevel>>;
  rewarded: Awaited<ReturnType<typeof rewardGame>>;
}

const base = '/v2-testing';

const ok = async (res: Promise<{ status: number; body: unknown }>, status = 200) => {
  const answer = await res;
  expect(answer.status, JSON.stringify(answer.body)).toBe(status);
  return answer.body as Record<string, any>;
};

/**
 * A fresh table and app with an OAuth issuer and the hero game's chain node, the studio's project and game, and a
 * rewarded game (of another studio) whose past week is settled once its players are in; `stop` ends the servers.
 */
export async function startSharedWorld(): Promise<World & { stop(): Promise<void> }> {
  const issuer = await startOAuthIssuer();
  const deps = await createTestDeps({ oauthProviders: [issuer.provider('google', ['client-a'])] });
  const app = createAllApps(deps);
  const heroes = await heroWorld(deps);
  return {
    deps,
    app,
    issuer,
    heroes,
    shop: await projectWithLevel(deps),
    rewarded: await rewardGame(deps, [
      { rank: 1, amount: 500 },
      { rank: 2, amount: 200 },
    ]),
    stop: async () => {
      await heroes.node.stop();
      await issuer.stop();
    },
  };
}

/** What one busy player did, with the values that identify them and the refs of what they wrote. */
export async function busyPlayer(world: World, name: string) {
  const { deps, app, issuer, shop } = world;
  const projectName = shop.project.project_name;
  const player = await playerWithTokens(deps, shop.gameCode);
  const socialId = `social-${randomUUID()}`;
  await ok(
    call(app, 'POST', `${base}/account/social/bind`, {
      token: player.platform,
      body: { id_token: await issuer.sign({ sub: socialId, email: `${name}@example.com` }) },
    }),
  );
  await ok(call(app, 'POST', `${base}/account/params`, { token: player.platform, body: { referrer: `friend-of-${name}` } }));

  const order = await ok(
    call(app, 'POST', `${base}/account/user/rechargeOrder`, {
      token: player.platform,
      body: { userId: player.uid, project: projectName, priceId: shop.level.priceId, prevId: -1, level: 1, amount: 1_500_000_000 },
    }),
  );
  const digest = await indexedPayment(deps, { billNo: order.bill_no, amount: '1500000000', from: player.address, to: shop.receiveAddress });
  await ok(call(app, 'POST', `${base}/account/user/orderComplete`, { token: player.platform, body: { orderId: order.id, transactionId: digest } }));
  const spendKey = `spend-${randomUUID()}`;
  await ok(
    call(app, 'POST', `${base}/account/game/minus_tickets`, {
      token: player.game,
      headers: { 'Idempotency-Key': spendKey },
      body: { userId: player.uid, projectName, level: 1, amount: 7 },
    }),
    201,
  );
  const goods = await goodsFor(deps, { ...shop.owner, project: shop.project } as Parameters<typeof goodsFor>[1], { price: 5 });
  const goodsOrder = await ok(
    call(app, 'POST', `${base}/account/vendor/order`, { token: player.platform, body: { userId: player.uid, goodsId: goods.id, quantity: 2, projectName } }),
  );
  const billNo = `R-${randomUUID()}`;
  await ok(call(app, 'POST', `${base}/wallet/vendor/reward`, { token: shop.server, body: { billNo, userId: player.uid, projectName, level: 1, amount: 40 } }));
  await ok(
    call(app, 'POST', `${base}/merchant/games/addWin`, {
      token: shop.server,
      body: { game_code: shop.gameCode, game_player_id: player.uid, game_player_name: name, kills: 3, wins: 1, result_id: `match-${randomUUID()}` },
    }),
  );

  const hero = (await ok(world.heroes.request('POST', '/auth', { token: player.platform }))).accessToken as string;
  const nft = heroNft(player.address);
  world.heroes.script.putObject(nft);
  await ok(world.heroes.request('POST', '/heroes/bind', { token: hero, body: { objectId: nft.objectId } }));
  const granted = await grantedHero(world.heroes, player.uid);
  return {
    ...player,
    name,
    socialId,
    projectName,
    order: order as { id: number; bill_no: string },
    digest,
    spendKey,
    goodsOrder: goodsOrder.data as { id: number },
    billNo,
    heroes: { nft: nft.objectId, granted: granted.id, grantProject: world.heroes.projectName },
  };
}

/** Each player's wins in the rewarded game's past week, then its settlement: one reward history entry each. */
export async function settledSeason(world: World, players: { uid: string; name: string; address: string }[]) {
  await scoresInPastWeek(
    world.deps,
    world.rewarded,
    players.map((player, i) => ({ id: player.uid, wins: 10 - i, name: player.name, wallet: player.address })),
  );
  await settleSeason(world.deps, world.rewarded.code, pastWeek());
}
