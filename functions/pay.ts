import { createGroupApp } from '../core/http/app.js';
import type { Deps } from '../core/deps.js';
import { completeOrder } from '../core/payments/complete.js';
import { deposits, depositAddress, paidOrders } from '../core/payments/listing.js';
import { createRechargeOrder } from '../core/payments/orders.js';
import { levelsOf, projectsOnSale } from '../core/payments/projects.js';
import { minusTickets, remainingBalance, ticketBalance } from '../core/tickets/operations.js';
import { payRoutes } from './routes/pay.js';
import { payGoodsHandlers, payGoodsReads } from './handlers/goods.js';
import { sponsorshipHandlers } from './handlers/sponsorship.js';
import { orderCompleteReads, rechargeOrderReads } from '../core/payments/order-keys.js';
import { deployedDeps, lambdaHandler } from './deployed.js';

/** The pay group: what can be bought, recharge orders, tickets and vendor goods orders. */
export const createPayApp = (deps: Deps) =>
  createGroupApp(
    deps,
    payRoutes,
    {
      user_project: async ({ deps }) => ({ data: await projectsOnSale(deps), totalPage: 1 }),
      user_project_level: async ({ deps, query }) => ({ data: await levelsOf(deps, query.project), totalPage: 1 }),
      rechargeOrder: ({ deps, auth, body }) => createRechargeOrder(deps, auth.sub, body),
      getDepositaddress: ({ deps, auth, query }) => depositAddress(deps, auth.sub, query.project, query.orderId),
      orderComplete: ({ deps, auth, body }) => completeOrder(deps, auth.sub, body),
      user_deposit: ({ deps, auth, query }) => deposits(deps, auth.sub, query.page, query.pageSize),
      coins: ({ deps, auth, query }) => paidOrders(deps, auth.sub, query.page, query.pageSize),
      tickets: ({ deps, auth, query }) => ticketBalance(deps, auth, query),
      minus_tickets: ({ deps, auth, body, req }) => minusTickets(deps, auth, body, req.header('idempotency-key')),
      remainBalance: ({ deps, auth, query }) => remainingBalance(deps, auth, query),
      ...payGoodsHandlers,
      ...sponsorshipHandlers,
    },
    {
      reads: {
        rechargeOrder: ({ body }, caller) => rechargeOrderReads(caller.sub, body),
        orderComplete: ({ body }, caller) => orderCompleteReads(caller.sub, body.orderId),
        ...payGoodsReads,
      },
    },
  );

export const handler = lambdaHandler(
  createPayApp,
  deployedDeps('pay', {
    table: () => import('../core/platform/db.js'),
    chain: () => import('../core/chain/source.js'),
    sponsorKey: () => import('../core/sponsorship/sponsor-key.js'),
  }),
);
