// A partner app's use of the client, for its bundle size (npm run client-size): the store's code flow with PKCE.
import { StoreApp, unwrap } from '../src/index.js';

export async function adopt(callback: URL) {
  const app = await StoreApp.discover({
    baseUrl: 'https://api.example.com/v2-prod',
    issuer: 'https://api.example.com/v2-prod/store',
    clientId: 'c',
    redirectUri: 'https://a/cb',
  });
  const { pending } = await app.authorization();
  const store = await app.complete(callback, pending);
  return unwrap(store.api.POST('/store/pets/adopt', { body: { name: 'Mochi', species: 'cat' } }));
}
