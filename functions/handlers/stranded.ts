import type { FirstReads, Handlers, RouteGroup } from '../../core/http/operation.js';
import { listStranded } from '../../core/payments/stranded.js';
import { creditStranded, refundStranded, strandedReads } from '../../core/payments/stranded-settlement.js';
import type { innerStrandedOps } from '../routes/stranded.js';

/** Stranded payments of the inner group, spread into its handlers. Routes only translate HTTP to core/payments. */
export const innerStrandedHandlers: Handlers<RouteGroup<typeof innerStrandedOps>> = {
  stranded_list: ({ deps, auth, query }) => listStranded(deps, auth, query),
  stranded_credit: ({ deps, auth, body }) => creditStranded(deps, auth, body),
  stranded_refund: ({ deps, auth, body }) => refundStranded(deps, auth, body),
};

/** What a credit reads in the authorization layer's batch (the project and the payment: one read request, not two). */
export const innerStrandedReads: FirstReads<RouteGroup<typeof innerStrandedOps>> = {
  stranded_credit: ({ body }) => strandedReads(body),
};
