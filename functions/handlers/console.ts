import type { Handlers, RouteGroup } from '../../core/http/operation.js';
import { merchantsForReview } from '../../core/merchants/review.js';
import { studioOrders } from '../../core/payments/console-orders.js';
import type { innerConsoleOps } from '../routes/console.js';

/** The operator console's reads of the inner group, spread into its handlers. Routes only translate HTTP to the domains. */
export const innerConsoleHandlers: Handlers<RouteGroup<typeof innerConsoleOps>> = {
  merchant_orders: ({ deps, auth, query }) => studioOrders(deps, auth.sub, query),
  admin_merchants: ({ deps, auth, query }) => merchantsForReview(deps, auth.sub, query),
};
