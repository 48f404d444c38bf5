import { composeApps, createGroupApp } from '../core/http/app.js';
import type { FirstReads, Handlers } from '../core/http/operation.js';
import type { Deps } from '../core/deps.js';
import { accept, acceptReads } from '../core/partner-store/authorization.js';
import { verifyStoreBearer } from '../core/partner-store/bearer.js';
import { authorizationPage } from '../core/partner-store/consent-page.js';
import { CONSENT_SCRIPT } from '../core/partner-store/consent-script.js';
import { servedFile, servedFileResponse } from '../core/http/served-files.js';
import { regionJwks, serverMetadata, stageMetadata } from '../core/partner-store/metadata.js';
import { deleteStoreUser } from '../core/partner-store/deletion.js';
import { adoptPet, adoptReads, feedLog, feedPet, feedReads, petRank, userPets } from '../core/partner-store/pets.js';
import { requestIssuer, type StoreRegion } from '../core/partner-store/regions.js';
import { login, storeUser, userInfo } from '../core/partner-store/sessions.js';
import { tokenEndpoint } from '../core/partner-store/token-endpoint.js';
import { currencies, grant, itemBalances, premiumBalance, premiumReads } from '../core/partner-store/wallet.js';
import { deployedDeps, lambdaHandler } from './deployed.js';
import { everyRegion, partnerStoreRootRoutes, partnerStoreRoutes, type regionRootRoutes, type regionRoutes } from './routes/partner-store.js';

/** The partner store group: an OAuth 2.0 authorization server per region (core/partner-store), each region alike. */
export const createPartnerStoreApp = (deps: Deps) =>
  composeApps(deps.stage, [
    createGroupApp(
      deps,
      partnerStoreRoutes,
      everyRegion((region) => regionHandlers(deps, region)),
      {
        verifiers: {
          // Store tokens are verified with the region's key, against the issuer of the request they came with.
          store: (c, rule, authorization) => verifyStoreBearer(deps, rule, requestIssuer(c.req.url, deps.stage, rule.region), authorization),
        },
        reads: everyRegion(() => regionReads),
      },
    ),
    createGroupApp(
      deps,
      partnerStoreRootRoutes,
      everyRegion((region) => rootHandlers(deps, region)),
    ),
  ]);

/** One region's operations. Each request's issuer is the origin it came to, the stage and the region's path. */
function regionHandlers(deps: Deps, region: StoreRegion): Handlers<ReturnType<typeof regionRoutes>> {
  const issuer = (url: string) => requestIssuer(url, deps.stage, region);
  return {
    metadata: async ({ req }) => serverMetadata(deps, region, issuer(req.url)),
    jwks: async () => regionJwks(deps, region),
    tokens: async ({ req, body }) => tokenEndpoint(deps, region, issuer(req.url), req.header('authorization'), body),
    clientToken_serve: async ({ req, body }) => tokenEndpoint(deps, region, issuer(req.url), req.header('authorization'), body, ['client_credentials']),
    clientToken: async ({ req, body }) =>
      tokenEndpoint(deps, region, issuer(req.url), req.header('authorization'), body, ['authorization_code', 'refresh_token'], true),
    userInfo: async ({ auth }) => userInfo(deps, auth.sub),
    authorize2: async ({ req, query }) => authorizationPage(deps, region, issuer(req.url), query),
    consent_script: async ({ req }) => servedFileResponse(await consentScript(), req.header('accept-encoding')),
    accept: async ({ req, auth, body }) => accept(deps, region, issuer(req.url), auth.sub, body),
    login: async ({ req, body }) => login(deps, region, issuer(req.url), body.assertion),
    userDelete: async ({ req, body }) => deleteStoreUser(deps, region, issuer(req.url), body.assertion),
    getUser: async ({ auth }) => storeUser(deps, auth.sub),
    currencies_list: async () => currencies(),
    premium_balance: async ({ auth }) => premiumBalance(deps, auth.sub),
    item_balances: async ({ auth }) => itemBalances(deps, auth.sub),
    grant: async ({ auth, body }) => grant(deps, region, auth.sub, body),
    adopt_pet: async ({ auth, body, req }) => adoptPet(deps, region, auth.sub, body, req.header('idempotency-key')),
    pet_query: async ({ auth }) => userPets(deps, auth.sub),
    feed_pet: async ({ auth, body, req }) => feedPet(deps, auth.sub, body, req.header('idempotency-key')),
    feed_log: async ({ auth, query }) => feedLog(deps, auth.sub, query.page, query.pageSize),
    rank: async ({ query }) => petRank(deps, region, query.limit),
  };
}

/** The consent page's script, gzipped once per process (the same file for every region). */
const consentScript = () => servedFile('partner-store\u0000consent.js', 'text/javascript; charset=utf-8', async () => new TextEncoder().encode(CONSENT_SCRIPT));

/** RFC 8414 §3.1 discovery at the host root: a region's metadata, for this stage only. */
const rootHandlers = (deps: Deps, region: StoreRegion): Handlers<ReturnType<typeof regionRootRoutes>> => ({
  'metadata-root': async ({ req, params }) => stageMetadata(deps, region, params.stage, requestIssuer(req.url, deps.stage, region)),
});

export const handler = lambdaHandler(
  createPartnerStoreApp,
  deployedDeps('partner-store', {
    table: () => import('../core/platform/db.js'),
    storeKeys: () => import('../core/partner-store/regions.js'),
  }),
);

/** What a region's pet handlers read first (operation.ts FirstReads): the same in every region. */
const regionReads: FirstReads<ReturnType<typeof regionRoutes>> = {
  accept: ({ body }) => acceptReads(body.request_id),
  premium_balance: (_, caller) => premiumReads(caller.sub),
  adopt_pet: ({ idempotencyKey }, caller) => adoptReads(caller.sub, idempotencyKey),
  feed_pet: ({ body, idempotencyKey }, caller) => feedReads(caller.sub, body.petId, idempotencyKey),
};
