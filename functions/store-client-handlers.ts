import type { Handlers, RouteGroup } from '../core/http/operation.js';
import { listClients, registerClientAnswer } from '../core/partner-store/clients.js';
import type { innerStoreClientOps } from './routes/store-clients.js';

/** The partner store's clients, admin operations of the inner group, spread into its handlers. Routes only translate HTTP to core/partner-store. */
export const innerStoreClientHandlers: Handlers<RouteGroup<typeof innerStoreClientOps>> = {
  store_client_register: ({ deps, body }) => registerClientAnswer(deps, body),
  store_client_list: ({ deps, query }) => listClients(deps, query),
};
