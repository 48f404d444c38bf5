import { MerchantStatus } from '../core/merchants/models.js';
import { ORDER_SHARDS } from '../core/payments/order-keys.js';
import type { OperationBench } from './operations.js';
import { accountWithToken, merchantWithToken, pendingPurchase } from './fixtures.js';

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
];
