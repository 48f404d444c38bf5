import { randomUUID } from 'node:crypto';
import { Ed25519Keypair } from '@mysten/sui/keypairs/ed25519';
import {
  giveTickets,
  indexedPurchase,
  merchantWithToken,
  newCode,
  paidPurchase,
  pendingPurchase,
  playerWithTokens,
  rechargeBody,
  shopWithLevel,
  type BenchDeps,
} from './fixtures.js';
import type { OperationBench } from './operations.js';

/** A shop and a player holding `tickets` of its level 1: the state of every ticket operation. */
async function playerWithTickets(deps: BenchDeps, tickets = 50) {
  const shop = await shopWithLevel(deps);
  // Its game token is for a game of the shop's merchant: a game token spends only in its merchant's projects.
  const player = await playerWithTokens(deps, shop.gameCode);
  await giveTickets(deps, player.uid, shop.project.project_name, 1, tickets);
  return { shop, player, projectName: shop.project.project_name };
}

/** Projects and price levels (console), recharge orders and their payment, ticket balances. */
export const paymentOperations: OperationBench[] = [
  {
    group: 'inner',
    op: 'project_create',
    minimum: 3,
    reason:
      "one BatchGet (the merchant: merchant_id, the token does not carry it; the name's project: a taken name is 409 before any write) + project id counter + conditional Put (the name is unique)",
    prepare: async (deps) => ({
      token: (await merchantWithToken(deps)).token,
      body: { project_name: newCode(), receive_address: Ed25519Keypair.generate().toSuiAddress(), coin_type: '0x2::sui::SUI', precison: 9 },
    }),
  },
  {
    group: 'inner',
    op: 'project_update',
    minimum: 1,
    reason: 'one conditional UpdateItem (owner checked in the condition)',
    prepare: async (deps) => {
      const shop = await shopWithLevel(deps);
      return { token: shop.owner.token, body: { project_name: shop.project.project_name, description: 'Updated by the bench' } };
    },
  },
  {
    group: 'inner',
    op: 'project_list',
    minimum: 1,
    reason: "Query of the merchant's projects index",
    prepare: async (deps) => ({ token: (await shopWithLevel(deps)).owner.token }),
  },
  {
    group: 'inner',
    op: 'level_save',
    label: 'level save (new level)',
    minimum: 3,
    reason: 'project and level read together (one partition: one BatchGet) + price id counter + conditional Put',
    prepare: async (deps) => {
      const shop = await shopWithLevel(deps);
      return { token: shop.owner.token, body: { project_name: shop.project.project_name, level: 2, amount: 3_000_000_000, tickets: 250 } };
    },
  },
  {
    group: 'inner',
    op: 'level_save',
    label: 'level save (new price)',
    minimum: 2,
    reason: 'project and level read together (one partition: one BatchGet) + conditional Put (the level keeps its priceId)',
    prepare: async (deps) => {
      const shop = await shopWithLevel(deps);
      return { token: shop.owner.token, body: { project_name: shop.project.project_name, level: 1, amount: 2_000_000_000, tickets: 120 } };
    },
  },
  {
    group: 'pay',
    op: 'user_project',
    minimum: 1,
    reason: 'Query of the all-projects index (on-sale filter)',
    prepare: async (deps) => {
      await shopWithLevel(deps);
      return {};
    },
  },
  {
    group: 'pay',
    op: 'user_project_level',
    minimum: 1,
    reason: "Query of the project's level items",
    prepare: async (deps) => ({ query: { project: (await shopWithLevel(deps)).project.project_name } }),
  },
  {
    group: 'pay',
    op: 'rechargeOrder',
    label: 'rechargeOrder (prevId -1)',
    minimum: 5,
    reason:
      'whether the caller deleted their account (GetItem, fresh on a write) + one BatchGet (project, level, account) + order id counter + Put + the count of the stage overview: a lone UpdateItem ADD on one of the 16 shard items of the day, after the transaction (core/platform/day-stats.ts)',
    prepare: async (deps) => {
      const shop = await shopWithLevel(deps);
      const player = await playerWithTokens(deps);
      return { token: player.platform, body: rechargeBody(shop, player) };
    },
  },
  {
    group: 'pay',
    op: 'rechargeOrder',
    label: 'rechargeOrder (replacing prevId)',
    minimum: 5,
    reason:
      'whether the caller deleted their account (GetItem, fresh on a write) + one BatchGet (project, level, account, the previous order: checked before the id is taken) + order id counter + one transaction (Put, the previous order cancelled on condition) + the count of the stage overview: a lone UpdateItem ADD on one of the 16 shard items of the day, after the transaction (core/platform/day-stats.ts)',
    prepare: async (deps) => {
      const { shop, player, order } = await pendingPurchase(deps);
      return { token: player.platform, body: rechargeBody(shop, player, order.id) };
    },
  },
  {
    group: 'pay',
    op: 'getDepositaddress',
    label: 'getDepositaddress (newest pending)',
    minimum: 2,
    reason: "project GetItem ∥ Query of the caller's newest orders (another partition)",
    prepare: async (deps) => {
      const { shop, player } = await pendingPurchase(deps);
      return { token: player.platform, query: { project: shop.project.project_name } };
    },
  },
  {
    group: 'pay',
    op: 'getDepositaddress',
    label: 'getDepositaddress (orderId)',
    minimum: 1,
    reason: 'one BatchGet (project, order): both keys are in the request',
    prepare: async (deps) => {
      const { shop, player, order } = await pendingPurchase(deps);
      return { token: player.platform, query: { project: shop.project.project_name, orderId: order.id } };
    },
  },
  {
    group: 'pay',
    op: 'orderComplete',
    label: 'user/orderComplete (payment indexed)',
    minimum: 5,
    reason:
      'whether the caller deleted their account (GetItem, fresh on a write) + one BatchGet (order, account) + payment Query by transaction + one transaction (order paid, transaction claimed, tickets credited) + the count of the stage overview: a lone UpdateItem ADD on one of the 16 shard items of the day, after the transaction (core/platform/day-stats.ts)',
    prepare: async (deps) => {
      const { player, order, digest } = await indexedPurchase(deps);
      return { token: player.platform, body: { orderId: order.id, transactionId: digest } };
    },
  },
  {
    group: 'pay',
    op: 'orderComplete',
    label: 'user/orderComplete (repeated)',
    minimum: 2,
    reason: 'whether the caller deleted their account (GetItem, fresh on a write) + one BatchGet (order, account): a paid order answers from its tx_digest',
    prepare: async (deps) => {
      const { player, order, digest } = await paidPurchase(deps);
      return { token: player.platform, body: { orderId: order.id, transactionId: digest } };
    },
  },
  {
    group: 'pay',
    op: 'user_deposit',
    minimum: 3,
    reason: "account GetItem (wallet address) + one Query of the payer's payments (page and total from one read, as coins) + BatchGet of the orders paid",
    prepare: async (deps) => ({ token: (await paidPurchase(deps)).player.platform }),
  },
  {
    group: 'pay',
    op: 'coins',
    minimum: 1,
    reason: "Query of the caller's paid orders index",
    prepare: async (deps) => ({ token: (await paidPurchase(deps)).player.platform }),
  },
  {
    group: 'pay',
    op: 'tickets',
    label: 'game/tickets (player)',
    minimum: 1,
    reason: 'balance GetItem',
    prepare: async (deps) => {
      const { player, projectName } = await playerWithTickets(deps);
      return { token: player.platform, query: { projectName, level: 1 } };
    },
  },
  {
    group: 'pay',
    op: 'tickets',
    label: 'game/tickets (server token)',
    minimum: 1,
    reason: 'one BatchGet (project for its owner, balance): both keys are in the request',
    prepare: async (deps) => {
      const { shop, player, projectName } = await playerWithTickets(deps);
      return { token: shop.server, query: { projectName, level: 1, userId: player.uid } };
    },
  },
  {
    group: 'pay',
    op: 'minus_tickets',
    label: 'minus_tickets (server token)',
    minimum: 3,
    reason:
      "the named player's deletion mark (read in the same BatchGet as the account state) + the caller's account state, read fresh because it moves value (suspension, revocation: one BatchGet) + one transaction (balance debit on condition, ledger entry, the Idempotency-Key's record) + the count of the stage overview: a lone UpdateItem ADD on one of the 16 shard items of the day, after the transaction (core/platform/day-stats.ts); the project's owner is remembered",
    prepare: async (deps) => {
      const { shop, player, projectName } = await playerWithTickets(deps);
      return { token: shop.server, headers: { 'idempotency-key': `bench-${randomUUID()}` }, body: { userId: player.uid, projectName, level: 1, amount: 3 } };
    },
  },
  {
    group: 'pay',
    op: 'minus_tickets',
    label: 'minus_tickets (game token)',
    minimum: 3,
    reason:
      'whether the caller deleted their account (GetItem, fresh on a write) + one transaction (balance debit on condition, ledger entry) + the count of the stage overview: a lone UpdateItem ADD on one of the 16 shard items of the day, after the transaction (core/platform/day-stats.ts)',
    prepare: async (deps) => {
      const { player, projectName } = await playerWithTickets(deps);
      return { token: player.game, body: { userId: player.uid, projectName, level: 1, amount: 3 } };
    },
  },
  {
    group: 'pay',
    op: 'remainBalance',
    label: 'remainBalance (player)',
    minimum: 1,
    reason: "Query of the user's balances",
    prepare: async (deps) => ({ token: (await playerWithTickets(deps)).player.platform }),
  },
  {
    group: 'pay',
    op: 'remainBalance',
    label: 'remainBalance (server token)',
    minimum: 1,
    reason: "Query of the user's balances of the project; the project's owner and the server's account state are remembered (per process)",
    prepare: async (deps) => {
      const { shop, player, projectName } = await playerWithTickets(deps);
      return { token: shop.server, query: { userId: player.uid, projectName } };
    },
  },
];
