import { registerClient } from '../core/partner-store/clients.js';
import { accountWithToken, type BenchDeps } from './fixtures.js';
import type { OperationBench } from './operation-bench.js';

/** The partner store's clients, registered and listed by an admin (functions/routes/store-clients.ts). */
const partnerServer = (name: string) => ({
  region: 'default' as const,
  type: 'confidential' as const,
  name,
  redirect_uris: ['https://bench.example/cb'],
  scopes: ['currencies'],
});

export const storeClientOperations: OperationBench[] = [
  {
    group: 'admin-console',
    op: 'store_client_register',
    minimum: 2,
    reason:
      "the admin account's state read fresh (a registration is read as moving value) + the client's conditional Put (with its place in the region's list)",
    units: { write: 2, read: 2, why: "the admin's account state read fresh (2) + the client's conditional Put (1) and its entry in the region's list (1)" },
    prepare: async (deps: BenchDeps) => ({ token: (await accountWithToken(deps, 'admin')).token, body: partnerServer('bench partner') }),
  },
  {
    group: 'admin-console',
    op: 'store_client_list',
    minimum: 1,
    reason: "one Query of the region's clients on gsi1, newest first (the admin's account state is remembered per process)",
    units: { write: 0, read: 1.5, why: "one Query of the region's clients: 0.5 per 4 KB read (21 clients here, 9 KB)" },
    prepare: async (deps: BenchDeps) => {
      for (const name of ['bench listed 1', 'bench listed 2']) await registerClient(deps, partnerServer(name));
      return { token: (await accountWithToken(deps, 'admin')).token, query: { region: 'default', limit: 20 } };
    },
  },
];
