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
import type { OperationBench } from './operation-bench.js';

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
    units: {
      write: 4,
      read: 1,
      why: "one BatchGet eventually consistent (the merchant's id never changes; the Put's condition decides the name: 1) + project id counter (1) + the conditional Put (1) and its two index entries (2)",
    },
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
    units: { write: 3, read: 0, why: "one conditional UpdateItem (1) + the project's two index entries rewritten (2)" },
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
    units: { write: 0, read: 0.5, why: "one Query of the merchant's projects" },
    prepare: async (deps) => ({ token: (await shopWithLevel(deps)).owner.token }),
  },
  {
    group: 'inner',
    op: 'level_save',
    label: 'level save (new level)',
    minimum: 3,
    reason: 'project and level read together (one partition: one BatchGet) + price id counter + conditional Put',
    units: {
      write: 2,
      read: 1,
      why: "one BatchGet of project and level, eventually consistent (the Put's condition decides: 1) + price id counter (1) + conditional Put (1)",
    },
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
    units: { write: 1, read: 1, why: 'one BatchGet of project and level, eventually consistent (1) + conditional Put (1)' },
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
    units: { write: 0, read: 0.5, why: 'one Query of the all-projects index, under 4 KB' },
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
    units: { write: 0, read: 0.5, why: "one Query of the project's levels" },
    prepare: async (deps) => ({ query: { project: (await shopWithLevel(deps)).project.project_name } }),
  },
  {
    group: 'pay',
    op: 'rechargeOrder',
    label: 'rechargeOrder (prevId -1)',
    minimum: 3,
    reason:
      "one BatchGet, strongly consistent: the caller's gone mark (fresh on a write) with project, level and account (the route's reads) + order id counter, once every check passed + Put",
    units: {
      write: 5,
      read: 4,
      why: "the gone mark, project, level and account in one strongly consistent read (4 × 1); order id counter (1) + the order's Put (1) and its entries in the player's, the link's and the project's orders indexes (3)",
    },
    floor: {
      roundTrips: 3,
      write: 5,
      why: "One read (the gone mark with project, level and account); the order id's counter, since order ids are the contract's consecutive integers and the id is taken only once every check passed (a refused request writes nothing); the Put. The order (1) and its three index entries: the player's orders, the store link, the project's orders (3); the counter (1).",
    },
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
    minimum: 3,
    reason:
      "one BatchGet, strongly consistent: the caller's gone mark (fresh on a write) with project, level, account and the previous order (the route's reads: checked before the id is taken) + order id counter + one transaction (Put, the previous order cancelled on condition)",
    units: {
      write: 11,
      read: 5,
      why: 'the gone mark, project, level, account and the previous order in one strongly consistent read (5 × 1); order id counter (1) + one transaction: the order (2) and its three entries (3), the previous order cancelled (2) and its three entries rewritten (3)',
    },
    floor: {
      roundTrips: 3,
      write: 11,
      why: "As with prevId -1: one read, the order id's counter, then one transaction instead of the Put. The counter (1); the order (2) and its three index entries (3), the previous order cancelled (2) and its three entries rewritten (3): each index projects every attribute.",
    },
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
    units: { write: 0, read: 1, why: "project GetItem and the player's orders Query, eventually consistent (0.5 each)" },
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
    units: { write: 0, read: 1, why: 'one BatchGet of project and order, eventually consistent (2 × 0.5)' },
    prepare: async (deps) => {
      const { shop, player, order } = await pendingPurchase(deps);
      return { token: player.platform, query: { project: shop.project.project_name, orderId: order.id } };
    },
  },
  {
    group: 'pay',
    op: 'orderComplete',
    label: 'user/orderComplete (payment indexed)',
    minimum: 3,
    reason:
      "one BatchGet, strongly consistent: the caller's gone mark (fresh on a write) with the order and the account (the route's reads) + payment Query by transaction + one transaction (order paid, transaction claimed, tickets credited)",
    units: {
      write: 14,
      read: 3.5,
      why: "the gone mark, order and account in one strongly consistent read (3 × 1) + the payment's Query (0.5); one transaction: the order paid (2) and its four index entries (4), the transaction claimed (2), balance (2), ledger (2), the gone-mark check (2)",
    },
    floor: {
      roundTrips: 3,
      write: 14,
      why: "One read (the gone mark, the order, the account); the payment's Query by transaction digest, an index; the transaction. The order paid (2) and its four index entries (4: the paid index gains one, the three others are rewritten); the transaction's claim (2); balance (2); ledger (2); the gone-mark check (2), since only a check inside the transaction keeps a player whose deletion starts meanwhile from receiving anything.",
    },
    prepare: async (deps) => {
      const { player, order, digest } = await indexedPurchase(deps);
      return { token: player.platform, body: { orderId: order.id, transactionId: digest } };
    },
  },
  {
    group: 'pay',
    op: 'orderComplete',
    label: 'user/orderComplete (repeated)',
    minimum: 1,
    reason:
      "one BatchGet, strongly consistent: the caller's gone mark (fresh on a write) with the order and the account (the route's reads): a paid order answers from its tx_digest",
    units: { write: 0, read: 3, why: 'the gone mark, order and account in one strongly consistent read (3 × 1): a paid order answers' },
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
    units: {
      write: 0,
      read: 1.5,
      why: "account GetItem, the payer's payments Query and the orders BatchGet, all only shown: eventually consistent (0.5 each)",
    },
    prepare: async (deps) => ({ token: (await paidPurchase(deps)).player.platform }),
  },
  {
    group: 'pay',
    op: 'coins',
    minimum: 1,
    reason: "Query of the caller's paid orders index",
    units: { write: 0, read: 0.5, why: "one Query of the player's paid orders" },
    prepare: async (deps) => ({ token: (await paidPurchase(deps)).player.platform }),
  },
  {
    group: 'pay',
    op: 'tickets',
    label: 'game/tickets (player)',
    minimum: 1,
    reason: 'balance GetItem',
    units: { write: 0, read: 1, why: 'the balance, strongly consistent: a player sees a credit or a debit at once' },
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
    units: { write: 0, read: 1, why: 'the balance, strongly consistent: a game server decides on it' },
    prepare: async (deps) => {
      const { shop, player, projectName } = await playerWithTickets(deps);
      return { token: shop.server, query: { projectName, level: 1, userId: player.uid } };
    },
  },
  {
    group: 'pay',
    op: 'minus_tickets',
    label: 'minus_tickets (server token)',
    minimum: 2,
    reason:
      "one BatchGet, strongly consistent: the caller's account state, read fresh because it moves value (suspension, revocation), with the named player's deletion mark + one transaction (balance debit on condition, the ledger entry, which is the Idempotency-Key's record); the project's owner is remembered",
    units: {
      write: 4,
      read: 3,
      why: "the caller's account state (its merchant and revocation items) and the player's gone mark in one strongly consistent read (3 × 1); one transaction: the balance debited on condition and one ledger entry that is also the Idempotency-Key's record (2 × 2)",
    },
    floor: {
      roundTrips: 2,
      write: 4,
      why: "The account state and the named player's gone mark read fresh (a process's first call of the account in a second; later ones read the gone mark only), so that a suspension or a revocation stops value from its answer; the transaction. The balance and the ledger entry, 2 each in a transaction; the ledger entry is the Idempotency-Key's record.",
    },
    prepare: async (deps) => {
      const { shop, player, projectName } = await playerWithTickets(deps);
      return { token: shop.server, headers: { 'idempotency-key': `bench-${randomUUID()}` }, body: { userId: player.uid, projectName, level: 1, amount: 3 } };
    },
  },
  {
    group: 'pay',
    op: 'minus_tickets',
    label: 'minus_tickets (game token)',
    minimum: 2,
    reason: 'whether the caller deleted their account (GetItem, fresh on a write) + one UpdateItem (balance debited on condition, holding its ledger entry)',
    units: {
      write: 1,
      read: 1,
      why: "the gone mark read fresh (1); one UpdateItem of the balance holding its ledger entry (1 while the item is under 1 KB, as for a player's first deductions; 2 from about 10 held entries on, and every 8th deduction moves a page in a transaction: about 2.75 on average, docs/performance.md)",
    },
    floor: {
      roundTrips: 2,
      write: 1,
      why: "The caller's gone mark read fresh; the balance's update. Without an Idempotency-Key the ledger entry needs no item of its own: the balance holds it, so one item is written, outside a transaction.",
    },
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
    units: { write: 0, read: 1, why: "one Query of the player's balances, strongly consistent (a balance: a credit shows at once)" },
    prepare: async (deps) => ({ token: (await playerWithTickets(deps)).player.platform }),
  },
  {
    group: 'pay',
    op: 'remainBalance',
    label: 'remainBalance (server token)',
    minimum: 1,
    reason: "Query of the user's balances of the project; the project's owner and the server's account state are remembered (per process)",
    units: { write: 0, read: 1, why: "one Query of the player's balances of the project, strongly consistent (a game server decides on it)" },
    prepare: async (deps) => {
      const { shop, player, projectName } = await playerWithTickets(deps);
      return { token: shop.server, query: { userId: player.uid, projectName } };
    },
  },
];
