import { registerClient } from '../core/store/clients.js';
import type { BenchDeps } from './fixtures.js';
import type { OperationBench } from './operations.js';

/** The partner store's authorization servers (the default region; chengdu's operations are the same code). */
const basic = (id: string, secret: string) => ({ authorization: `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`, 'content-type': 'application/x-www-form-urlencoded' });

async function serverClient(deps: BenchDeps) {
  const { client, client_secret } = await registerClient(deps, { region: 'default', type: 'confidential', name: 'bench', redirect_uris: ['https://bench.example/cb'], scopes: ['currencies'] });
  return { headers: basic(client.client_id, client_secret!), body: 'grant_type=client_credentials' };
}

const region = (op: string, minimum: number, reason: string, prepare: OperationBench['prepare']): OperationBench => ({ group: 'partner-store', op, minimum, reason, prepare });

export const partnerStoreOperations: OperationBench[] = [
  region('metadata', 0, 'made from the request URL', async () => ({})),
  region('jwks', 0, "the region's public key, in memory", async () => ({})),
  region('tokens', 1, "the client's GetItem (its type, scopes and secret hash); the token is signed, not stored", serverClient),
  region('clientToken_serve', 1, "the client's GetItem", serverClient),
  ...(['metadata', 'jwks'] as const).map((op) => ({ ...region(`${op}-chengdu`, 0, 'as the default region', async () => ({})) })),
  region('tokens-chengdu', 1, 'as the default region', async (deps) => {
    const { client, client_secret } = await registerClient(deps, { region: 'chengdu', type: 'confidential', name: 'bench', redirect_uris: ['https://bench.example/cb'], scopes: ['pets'] });
    return { headers: basic(client.client_id, client_secret!), body: 'grant_type=client_credentials' };
  }),
  region('clientToken_serve-chengdu', 1, 'as the default region', async (deps) => {
    const { client, client_secret } = await registerClient(deps, { region: 'chengdu', type: 'confidential', name: 'bench', redirect_uris: ['https://bench.example/cb'], scopes: ['pets'] });
    return { headers: basic(client.client_id, client_secret!), body: 'grant_type=client_credentials' };
  }),
];
