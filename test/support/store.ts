import { randomUUID } from 'node:crypto';
import type { Hono } from 'hono';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import * as oauth from 'oauth4webapi';
import type { Deps } from '../../core/deps.js';
import { registerClient } from '../../core/partner-store/clients.js';
import { generateStoreKeys, parseStoreKeys, type StoreRegion } from '../../core/partner-store/regions.js';
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

/** A store user of the region signed in through a partner backend's assertion (POST <issuer>/login): their store session. */
export async function storeSessionOf(deps: Deps, app: Hono, region: StoreRegion = 'default'): Promise<string> {
  const { publicKey, privateKey } = await generateKeyPair('ES256', { extractable: true });
  const { client } = await registerClient(deps, {
    region,
    type: 'confidential',
    name: 'backend',
    redirect_uris: ['https://store.example/cb'],
    scopes: [],
    assertion_jwk: (await exportJWK(publicKey)) as Record<string, unknown>,
  });
  const iat = Math.floor(Date.now() / 1000);
  const assertion = await new SignJWT({ iss: client.client_id, sub: `u-${randomUUID()}`, aud: storeIssuerOf(region), iat, exp: iat + 60, jti: randomUUID() })
    .setProtectedHeader({ alg: 'ES256' })
    .sign(privateKey);
  const res = await app.request(`${storeIssuerOf(region)}/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ assertion }),
  });
  return ((await res.json()) as { session: string }).session;
}
