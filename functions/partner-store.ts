import { composeApps, createGroupApp } from '../core/http/app.js';
import { storeError } from '../core/store/errors.js';
import type { Deps } from '../core/platform/deps.js';
import { regionJwks, serverMetadata } from '../core/store/metadata.js';
import { regionKey, requestIssuer, type StoreRegion } from '../core/store/regions.js';
import { tokenEndpoint } from '../core/store/token-endpoint.js';
import type { HonoRequest } from 'hono';
import type { TokenClaims } from '../core/platform/tokens.js';
import { verifyStoreBearer } from '../core/store/bearer.js';
import { login, storeUser } from '../core/store/sessions.js';
import { accept, authorize, RedirectError, type AuthorizeQuery as AuthorizeQueryInput } from '../core/store/authorization.js';
import { consentPage } from '../core/store/consent-page.js';
import { CURRENCIES, grant, itemBalances, premiumBalance } from '../core/store/wallet.js';
import { adoptPet, feedLog, feedPet, petRank, userPets } from '../core/store/pets.js';
import type { GrantBody } from '../core/store/models.js';
import type * as z from 'zod/mini';
import { partnerStoreRootRoutes, partnerStoreRoutes } from './routes/partner-store.js';
import { lambdaHandler } from './deployed.js';

/** The partner store group: an OAuth 2.0 authorization server per region (core/store). */
export const createPartnerStoreApp = (deps: Deps) => composeApps(deps.stage, [createRegionsApp(deps), createDiscoveryApp(deps)]);

/** RFC 8414 §3.1 discovery at the host root: each region's metadata, for this stage only. */
function createDiscoveryApp(deps: Deps) {
  const metadata = (region: StoreRegion) => async ({ req, params }: { req: HonoRequest; params: { stage: string } }) => {
    if (params.stage !== deps.stage) throw storeError('store.stage_unknown', `stage: ${params.stage.slice(0, 64)} is not this stage`);
    return serverMetadata(deps, region, requestIssuer(req.url, deps.stage, region));
  };
  return createGroupApp(deps, partnerStoreRootRoutes, { 'metadata-root': metadata('default'), 'metadata-root-chengdu': metadata('chengdu') });
}

function createRegionsApp(deps: Deps) {
  const issuer = (req: HonoRequest, region: StoreRegion) => requestIssuer(req.url, deps.stage, region);
  const region = (name: StoreRegion) => ({
    metadata: async ({ req }: { req: HonoRequest }) => serverMetadata(deps, name, issuer(req, name)),
    jwks: async () => regionJwks(deps, name) as never,
    token: async ({ req, body }: { req: HonoRequest; body: Parameters<typeof tokenEndpoint>[4] }) =>
      tokenEndpoint(deps, name, issuer(req, name), req.header('authorization'), body),
    serverToken: async ({ req, body }: { req: HonoRequest; body: Parameters<typeof tokenEndpoint>[4] }) =>
      tokenEndpoint(deps, name, issuer(req, name), req.header('authorization'), body, ['client_credentials']),
    authorize: async ({ req, query }: { req: HonoRequest; query: AuthorizeQueryInput }) => {
      const at = issuer(req, name);
      regionKey(deps, name);
      try {
        const pending = await authorize(deps, name, at, query);
        return new Response(consentPage(pending, `${at}/oauth/accept`), {
          headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', 'content-security-policy': "default-src 'none'; script-src 'unsafe-inline'; connect-src 'self'; frame-ancestors 'none'" },
        });
      } catch (error) {
        if (error instanceof RedirectError) return new Response(null, { status: 302, headers: { location: error.location, 'cache-control': 'no-store' } });
        throw error;
      }
    },
    accept: async ({ req, auth, body }: { req: HonoRequest; auth: TokenClaims; body: { request_id: string; decision: 'allow' | 'deny' } }) =>
      accept(deps, name, issuer(req, name), auth.sub, body),
    login: async ({ req, body }: { req: HonoRequest; body: { assertion: string } }) => login(deps, name, issuer(req, name), body.assertion),
    user: async ({ auth }: { auth: TokenClaims }) => storeUser(deps, auth.sub),
    userInfo: async ({ auth }: { auth: TokenClaims }) => {
      const user = await storeUser(deps, auth.sub);
      return { sub: user.uid, name: user.name, partner: user.partner, partner_user_id: user.partner_user_id };
    },
    publicToken: async ({ req, body }: { req: HonoRequest; body: Parameters<typeof tokenEndpoint>[4] }) =>
      tokenEndpoint(deps, name, issuer(req, name), req.header('authorization'), body, ['authorization_code', 'refresh_token'], true),
    currencies: async () => ({ currencies: CURRENCIES.map((c) => ({ ...c })) }),
    premium: async ({ auth }: { auth: TokenClaims }) => premiumBalance(deps, auth.sub),
    items: async ({ auth }: { auth: TokenClaims }) => itemBalances(deps, auth.sub),
    adopt: async ({ auth, body, req }: { auth: TokenClaims; body: { name: string; species: string }; req: HonoRequest }) => adoptPet(deps, name, auth.sub, body, req.header('idempotency-key')),
    pets: async ({ auth }: { auth: TokenClaims }) => userPets(deps, auth.sub),
    feed: async ({ auth, body, req }: { auth: TokenClaims; body: { petId: string; item: string; amount: number }; req: HonoRequest }) => feedPet(deps, auth.sub, body, req.header('idempotency-key')),
    feedLog: async ({ auth, query }: { auth: TokenClaims; query: { page: number; pageSize: number } }) => feedLog(deps, auth.sub, query.page, query.pageSize),
    rank: async ({ query }: { query: { limit: number } }) => petRank(deps, name, query.limit),
    grant: async ({ auth, body }: { auth: TokenClaims; body: z.infer<typeof GrantBody> }) => grant(deps, name, auth.sub, body),
  });
  const [main, chengdu] = [region('default'), region('chengdu')];
  return createGroupApp(deps, partnerStoreRoutes, {
    metadata: main.metadata,
    jwks: main.jwks,
    tokens: main.token,
    clientToken_serve: main.serverToken,
    'metadata-chengdu': chengdu.metadata,
    'jwks-chengdu': chengdu.jwks,
    'tokens-chengdu': chengdu.token,
    'clientToken_serve-chengdu': chengdu.serverToken,
    clientToken: main.publicToken,
    'clientToken-chengdu': chengdu.publicToken,
    userInfo: main.userInfo,
    'userInfo-chengdu': chengdu.userInfo,
    authorize2: main.authorize,
    'authorize2-chengdu': chengdu.authorize,
    accept: main.accept,
    'accept-chengdu': chengdu.accept,
    login: main.login,
    'login-chengdu': chengdu.login,
    getUser: main.user,
    'getUser-chengdu': chengdu.user,
    currencies_list: main.currencies,
    'currencies_list-chengdu': chengdu.currencies,
    premium_balance: main.premium,
    'premium_balance-chengdu': chengdu.premium,
    item_balances: main.items,
    'item_balances-chengdu': chengdu.items,
    grant: main.grant,
    'grant-chengdu': chengdu.grant,
    adopt_pet: main.adopt,
    'adopt_pet-chengdu': chengdu.adopt,
    pet_query: main.pets,
    'pet_query-chengdu': chengdu.pets,
    feed_pet: main.feed,
    'feed_pet-chengdu': chengdu.feed,
    feed_log: main.feedLog,
    'feed_log-chengdu': chengdu.feedLog,
    rank: main.rank,
    'rank-chengdu': chengdu.rank,
  }, {
    // Store tokens are verified with the region's key, against the issuer of the request they came with.
    store: (c, rule, authorization) => verifyStoreBearer(deps, rule, requestIssuer(c.req.url, deps.stage, rule.region), authorization),
  });
}

export const handler = lambdaHandler(createPartnerStoreApp);
