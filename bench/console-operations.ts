import { randomUUID } from 'node:crypto';
import { MerchantStatus } from '../core/merchants/models.js';
import { ORDER_SHARDS } from '../core/payments/order-keys.js';
import type { OperationBench } from './operation-bench.js';
import { accountWithToken, giveTickets, merchantWithToken, paidPurchase, pendingPurchase } from './fixtures.js';

/** The operator console's reads (functions/routes/console.ts). */
export const consoleOperations: OperationBench[] = [
  {
    group: 'inner',
    op: 'merchant_orders',
    label: 'merchant_orders (all projects)',
    minimum: 1 + ORDER_SHARDS,
    reason: `the caller's projects Query + one Query per shard of each project's orders (${ORDER_SHARDS} per project, in parallel; one project here, one round)`,
    units: { write: 0, read: 4.5, why: 'the projects Query + one Query per order shard, each at least 0.5 even when empty (9 × 0.5)' },
    prepare: async (deps) => {
      const { shop } = await pendingPurchase(deps);
      return { token: shop.owner.token };
    },
  },
  {
    group: 'inner',
    op: 'merchant_orders',
    label: 'merchant_orders (one project)',
    minimum: ORDER_SHARDS,
    reason: `one Query per shard of the project's orders (${ORDER_SHARDS}, in parallel, one round); its owner is remembered per process`,
    units: { write: 0, read: 4, why: 'one Query per order shard, each at least 0.5 even when empty (8 × 0.5)' },
    prepare: async (deps) => {
      const { shop } = await pendingPurchase(deps);
      return { token: shop.owner.token, query: { project: shop.project.project_name } };
    },
  },
  {
    group: 'inner',
    op: 'admin_merchants',
    minimum: 1,
    reason: "one Query of the status's merchants, newest first",
    units: { write: 0, read: 0.5, why: "one Query of the status's merchants" },
    prepare: async (deps) => {
      await merchantWithToken(deps, MerchantStatus.pending);
      return { token: (await accountWithToken(deps, 'admin')).token };
    },
  },
  {
    group: 'inner',
    op: 'player_view',
    minimum: 8,
    reason:
      "the player's account, then the studio's projects Query and the player's balances, ledger and orders Queries ∥ the studio's games Query, each game's shard setting (remembered a minute per process) and the player's scores in one BatchGet: 4 sequential round trips",
    units: {
      write: 0,
      read: 5.5,
      why: 'the account read fresh, so a player who has just signed up is found (1); every other read only shown, eventually consistent: projects, balances, ledger, games, the shard setting (0.5 each), a page of orders over 4 KB (1) and two score items (1)',
    },
    prepare: async (deps) => {
      const { shop, player } = await paidPurchase(deps);
      return { token: shop.owner.token, query: { user_id: player.uid } };
    },
  },
  {
    group: 'inner',
    op: 'player_tickets_grant',
    minimum: 2,
    reason:
      "one read (the authorization layer's batch: the merchant's state and revocations, the player's gone mark, the level and the player's account) + one transaction",
    units: {
      write: 6,
      read: 5,
      why: "one BatchGet of 5 items strongly consistent, since the state, the revocations and the gone mark must be fresh (a suspension stops value at once) and a batch reads all its keys one way (5); the transaction: balance (2), the ledger entry that is the Idempotency-Key's record (2), the player's gone-mark check (2)",
    },
    floor: {
      roundTrips: 2,
      write: 6,
      why: "one read of the merchant's state and the player; one transaction: balance, ledger entry (the key's record) and the gone-mark check, 2 each",
    },
    prepare: async (deps) => {
      const { shop, player } = await pendingPurchase(deps);
      await giveTickets(deps, player.uid, shop.project.project_name, 1, 10);
      return {
        token: shop.owner.token,
        body: { userId: player.uid, projectName: shop.project.project_name, level: 1, amount: 5, reason: 'bench grant' },
        headers: { 'idempotency-key': randomUUID() },
      };
    },
  },
];
