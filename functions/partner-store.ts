import { createGroupApp } from '../core/http/app.js';
import type { Deps } from '../core/platform/deps.js';
import { regionJwks, serverMetadata } from '../core/store/metadata.js';
import { issuerOf, type StoreRegion } from '../core/store/regions.js';
import { regionKey, tokenEndpoint } from '../core/store/token-endpoint.js';
import type { HonoRequest } from 'hono';
import type { TokenClaims } from '../core/platform/tokens.js';
import { verifyStoreBearer } from '../core/store/bearer.js';
import { login, storeUser } from '../core/store/sessions.js';
import { partnerStoreRoutes } from './routes/partner-store.js';
import { lambdaHandler } from './deployed.js';

/** The partner store group: an OAuth 2.0 authorization server per region (core/store). */
export const createPartnerStoreApp = (deps: Deps) => {
  const issuer = (req: HonoRequest, region: StoreRegion) => issuerOf(new URL(req.url).origin, deps.stage, region);
  const region = (name: StoreRegion) => ({
    metadata: async ({ req }: { req: HonoRequest }) => (regionKey(deps, name), serverMetadata(issuer(req, name))),
    jwks: async () => regionJwks(deps, name) as never,
    token: async ({ req, body }: { req: HonoRequest; body: Parameters<typeof tokenEndpoint>[4] }) =>
      tokenEndpoint(deps, name, issuer(req, name), req.header('authorization'), body),
    login: async ({ req, body }: { req: HonoRequest; body: { assertion: string } }) => login(deps, name, issuer(req, name), body.assertion),
    user: async ({ auth }: { auth: TokenClaims }) => storeUser(deps, auth.sub),
  });
  const [main, chengdu] = [region('default'), region('chengdu')];
  return createGroupApp(deps, partnerStoreRoutes, {
    metadata: main.metadata,
    jwks: main.jwks,
    tokens: main.token,
    clientToken_serve: main.token,
    'metadata-chengdu': chengdu.metadata,
    'jwks-chengdu': chengdu.jwks,
    'tokens-chengdu': chengdu.token,
    'clientToken_serve-chengdu': chengdu.token,
    login: main.login,
    'login-chengdu': chengdu.login,
    getUser: main.user,
    'getUser-chengdu': chengdu.user,
  }, {
    // Store tokens are verified with the region's key, against the issuer of the request they came with.
    store: (c, rule, token) => verifyStoreBearer(deps, rule, issuerOf(new URL(c.req.url).origin, deps.stage, rule.region), token),
  });
};

export const handler = lambdaHandler(createPartnerStoreApp);
