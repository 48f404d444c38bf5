import * as oauth from 'oauth4webapi';
import { generateStoreKeys, parseStoreKeys, type StoreRegion } from '../../core/store/regions.js';
import { createPartnerStoreApp } from '../../functions/partner-store.js';
import { createTestDeps, type TestDeps } from './deps.js';

/** The partner store's tests: an app on deps with fresh region keys, its issuers at `http://localhost`. */

export const STORE_ORIGIN = 'http://localhost';
export const storePathOf = (region: StoreRegion) => `/v2-testing/store${region === 'default' ? '' : `/${region}`}`;
export const storeIssuerOf = (region: StoreRegion) => `${STORE_ORIGIN}${storePathOf(region)}`;

export interface StoreWorld {
  deps: TestDeps;
  app: ReturnType<typeof createPartnerStoreApp>;
  /** oauth4webapi's options: its requests go through the app (customFetch), over the issuers' http URLs. */
  options: { [oauth.customFetch]: (url: string, init?: RequestInit) => Promise<Response>; [oauth.allowInsecureRequests]: true };
  /** A region's metadata, as a client discovers it through the issuer's own path. */
  discover(region: StoreRegion): Promise<oauth.AuthorizationServer>;
}

export async function storeWorld(): Promise<StoreWorld> {
  const deps = await createTestDeps();
  deps.storeKeys = await parseStoreKeys(await generateStoreKeys());
  const app = createPartnerStoreApp(deps);
  return {
    deps,
    app,
    options: { [oauth.customFetch]: async (url, init) => app.request(url, init), [oauth.allowInsecureRequests]: true },
    discover: async (region) =>
      oauth.processDiscoveryResponse(new URL(storeIssuerOf(region)), await app.request(`${storeIssuerOf(region)}/.well-known/oauth-authorization-server`)),
  };
}
