import type { Hono } from 'hono';
import { handle } from 'hono/aws-lambda';
import type { JWK } from 'jose';
import { Resource } from 'sst/resource';
import type { Deps } from '../core/deps.js';
import { isProductionStage } from '../core/platform/stages.js';
import { refuseStandIns } from '../core/platform/stand-ins.js';
import { sourceOfEnv, withRequestSource } from '../core/platform/request-source.js';
import { withRequestContext, type RequestContext } from '../core/platform/request-context.js';
import { recordRequest } from '../core/platform/metrics.js';
import { createTokenService, parseTokenKeys, parseVendorKey } from '../core/platform/tokens.js';
import { cursorKeyOf } from '../core/platform/cursors.js';

/**
 * What a deployed function uses of the stage, each need read from one linked resource. infra/functions.ts links
 * each function to the resources of its needs and nothing else (docs/security.md "Secrets and permissions"):
 * - `table`: the single table (DynamoDB permissions on it).
 * - `files`: the files bucket (S3 permissions on it): save_file.
 * - `issueTokens`: TokenSigningKey, the private token key ring: functions that sign tokens in (it verifies too).
 * - `verifyTokens`: TokenPublicKeys, the ring's public keys only (infra derives them from TokenSigningKey at
 *   deploy): functions that only verify tokens, and JWKS.
 * - `vendorKey`: VendorSigningKey, which signs vendor PaymentRequests (vendor/signature).
 * - `oauthProviders`: OAuthProviders, for the id_tokens of zkLogin and social binding.
 * - `chain`: ChainConfig, the chain node (payments, the indexer).
 * - `claimKey`: ClaimSigningKey, which signs reward claims (sign_code, get_sign).
 * - `sponsorKey`: SponsorKey, the gas sponsor of players' claims (claim_sponsor).
 * - `appStore`: AppleConfig, the App Store settings (bundle id, root certificates, API key).
 * - `googlePlay`: GoogleConfig, the Google Play settings (package name, push audience and account, API key).
 * - `storeKeys`: StoreKeys, the partner store's signing key per region (core/partner-store/regions.ts).
 * - `cursorKey`: CursorKey, which seals the cursors of cursor-paged reads (core/platform/cursors.ts; infra derives
 *   it from TokenSigningKey at deploy).
 */
export type Need =
  | 'table'
  | 'files'
  | 'issueTokens'
  | 'verifyTokens'
  | 'vendorKey'
  | 'oauthProviders'
  | 'chain'
  | 'claimKey'
  | 'sponsorKey'
  | 'appStore'
  | 'googlePlay'
  | 'storeKeys'
  | 'cursorKey';

/**
 * Each deployed function's needs: what its code reads of Deps (test/infra.test.ts derives the same from each
 * function's bundle and fails when they differ, so a handler that starts reading a secret is linked to it).
 * A group without operations is not deployed; it is listed with what its routes will at least need.
 */
export const functionNeeds = {
  // Console and player sign-in (tokens issued), save_file, vendor/signature, stranded payment refunds (checked on
  // chain); a studio's orders and the merchants under review are cursor-paged.
  inner: ['table', 'files', 'issueTokens', 'vendorKey', 'chain', 'cursorKey'],
  // Score reports and boards; sign_code and get_sign sign reward claims.
  boards: ['table', 'verifyTokens', 'claimKey'],
  // The stage overview and the partner store's clients (cursor-paged).
  'admin-console': ['table', 'verifyTokens', 'cursorKey'],
  // login_zk: id_tokens in, tokens out.
  outer: ['table', 'issueTokens', 'oauthProviders'],
  // merchant_login, social binding, zkLogin lookups; a player's export and a studio's deleted players (cursor-paged).
  withoutkey: ['table', 'issueTokens', 'oauthProviders', 'cursorKey'],
  chain: ['table', 'verifyTokens'],
  // orderComplete and the deposit listings read the chain; claim_sponsor reads it and signs with the sponsor key.
  pay: ['table', 'verifyTokens', 'chain', 'sponsorKey'],
  // App Store and Google Play purchases.
  'third-pay': ['table', 'verifyTokens', 'appStore', 'googlePlay'],
  // The partner store's authorization servers: their own keys, one per region (no platform token is taken).
  'partner-store': ['table', 'storeKeys'],
  // hero auth issues hero tokens; bind and nft_detail read objects from the chain.
  hero: ['table', 'issueTokens', 'chain'],
  // JWKS, the API reference and the health check: open routes only, no table.
  meta: ['verifyTokens'],
  // Scheduled jobs (infra/jobs.ts).
  indexer: ['table', 'chain'],
  settlement: ['table'],
  deletions: ['table'],
  // Each board's snapshot, every minute, from the season's score items.
  'rank-snapshots': ['table'],
  // The table's stream consumer (infra/rank-pages.ts): score items' changes into each board's live head.
  'rank-pages': ['table'],
  // The table's other stream consumer (infra/day-figures.ts): orders and ledger entries into the day figures.
  'day-figures': ['table'],
} as const satisfies Record<string, readonly Need[]>;

export type DeployedFunction = keyof typeof functionNeeds;

/** The deployed functions that are jobs: the scheduled ones (infra/jobs.ts) and the table stream's consumers. */
const JOBS: readonly DeployedFunction[] = ['indexer', 'settlement', 'deletions', 'rank-snapshots', 'rank-pages', 'day-figures'];

/**
 * The file of a deployed function, from the repository's root and without its extension: a group's app is
 * functions/<group>.ts, a job functions/jobs/<name>.ts. infra/functions.ts sets each Lambda's handler from it
 * (`<file>.handler`); the Lambdas' names come from infra's component names, not from their files.
 */
export const entryOf = (name: DeployedFunction) => (JOBS.includes(name) ? `functions/jobs/${name}` : `functions/${name}`);

/** The resources infra may link to a function (infra/functions.ts), as SST exposes them. */
interface LinkedResources {
  App: { name: string; stage: string };
  Table: { name: string };
  Files: { name: string };
  TokenSigningKey: { value: string };
  TokenPublicKeys: { keys: JWK[] };
  VendorSigningKey: { value: string };
  OAuthProviders: { value: string };
  ChainConfig: { value: string };
  ClaimSigningKey: { value: string };
  SponsorKey: { value: string };
  AppleConfig: { value: string };
  GoogleConfig: { value: string };
  StoreKeys: { value: string };
  CursorKey: { key: string };
}

/** The modules that turn a linked resource into its part of Deps (the token keys' module is every function's). */
interface PartModules {
  table: typeof import('../core/platform/db.js');
  files: typeof import('../core/platform/files.js');
  oauthProviders: typeof import('../core/identity/id-tokens.js');
  chain: typeof import('../core/chain/source.js');
  appStore: typeof import('../core/app-stores/apple-settings.js');
  googlePlay: typeof import('../core/app-stores/google-settings.js');
  storeKeys: typeof import('../core/partner-store/regions.js');
  claimKey: typeof import('../core/rewards/claim-key.js');
  sponsorKey: typeof import('../core/sponsorship/sponsor-key.js');
}

/**
 * What a function gives deployedDeps: a loader (`() => import(…)`) of the module of each part its needs name,
 * and of no other; the type holds it to its needs. The loaders are written in the function's own file so that
 * its bundle holds only those modules: a module the bundle holds, even one never loaded, makes the bundler
 * keep every export of the code it shares with the function's entry in the chunks that load at a cold start
 * (docs/performance.md).
 */
export type PartLoaders<F extends DeployedFunction> = {
  [N in Extract<(typeof functionNeeds)[F][number], keyof PartModules>]: () => Promise<PartModules[N]>;
};

/**
 * Builds the deployed stage's Deps once per Lambda instance, on the first request, from the resources linked to
 * this function only: a part whose resource is not linked is never read, and using it throws an error naming
 * the resource (a 500 in the log; test/infra.test.ts keeps links and code in step). The vendor key is the one
 * optional part: unlinked or blank, vendor/signature answers 503.
 */
export const deployedDeps = <F extends DeployedFunction>(_fn: F, loaders: PartLoaders<F>): (() => Promise<Deps>) => depsWithParts(loaders);

/** Any set of part loaders: a deployed function's (deployedDeps), or every part (npm run bench's HTTP servers). */
export type AnyPartLoaders = Partial<{ [N in keyof PartModules]: () => Promise<PartModules[N]> }>;

/** Deps built once, on the first call, with the parts `loaders` can load. */
export function depsWithParts(loaders: AnyPartLoaders): () => Promise<Deps> {
  let deps: Promise<Deps> | undefined;
  return () => (deps ??= buildDeps(loaders));
}

async function buildDeps(loaders: AnyPartLoaders): Promise<Deps> {
  const resources = Resource as unknown as LinkedResources;
  const linked = (name: keyof LinkedResources) => name in (Resource as object);
  const stage = resources.App.stage;
  const now = () => new Date();
  const built: Partial<Deps> = { stage, production: isProductionStage(stage), now };
  const load = <N extends keyof PartModules>(need: N, resource: keyof LinkedResources) => (linked(resource) ? loaders[need]?.() : undefined);

  // Each part's module is a chunk of the bundle, loaded only where its resource is linked; they load together,
  // not one after another, so the first request waits for one round of loading.
  const [db, files, idTokens, chain, apple, google, regions, claimKey, sponsorKey] = await Promise.all([
    load('table', 'Table'),
    load('files', 'Files'),
    load('oauthProviders', 'OAuthProviders'),
    load('chain', 'ChainConfig'),
    load('appStore', 'AppleConfig'),
    load('googlePlay', 'GoogleConfig'),
    load('storeKeys', 'StoreKeys'),
    load('claimKey', 'ClaimSigningKey'),
    load('sponsorKey', 'SponsorKey'),
  ]);
  if (db) {
    // DYNAMODB_ENDPOINT is for running the Lambda handlers against DynamoDB Local (npm run bench).
    built.db = db.createDocumentClient({ endpoint: process.env.DYNAMODB_ENDPOINT });
    built.table = resources.Table.name;
  }
  if (files) built.files = files.s3FileStore(resources.Files.name);
  const vendorKey = linked('VendorSigningKey') ? parseVendorKey(resources.VendorSigningKey.value) : undefined;
  const issuer = `game-platform/${stage}`;
  if (linked('TokenSigningKey')) {
    built.tokens = await createTokenService({ signingKey: parseTokenKeys(resources.TokenSigningKey.value), vendorKey, issuer, now });
  } else if (linked('TokenPublicKeys')) {
    built.tokens = await createTokenService({ verifyKeys: resources.TokenPublicKeys.keys, vendorKey, issuer, now });
  }
  // The development stand-ins of npm start (a loopback chain or sign-in provider) are refused in a Lambda (the
  // tests run these handlers in-process against loopback stand-ins of Sui and the providers, at the network edge).
  const inLambda = process.env.AWS_LAMBDA_FUNCTION_NAME !== undefined;
  if (idTokens) {
    const providers = idTokens.parseOAuthProviders(resources.OAuthProviders.value);
    if (inLambda) for (const provider of providers) refuseStandIns('OAuthProviders', [provider.issuer, provider.jwksUri]);
    built.idTokens = idTokens.createIdTokenVerifier(providers, { now });
  }
  if (chain) {
    built.chain = chain.chainFromSetting(resources.ChainConfig.value);
    if (inLambda) refuseStandIns('ChainConfig', [built.chain?.config.url, built.chain?.config.grpcUrl]);
  }
  if (apple) built.appStore = apple.parseAppleSettings(resources.AppleConfig.value);
  if (google) built.googlePlay = google.parseGoogleSettings(resources.GoogleConfig.value);
  // A blank StoreKeys: the partner store is off on this stage (its endpoints answer 503).
  if (regions) built.storeKeys = resources.StoreKeys.value.trim() ? await regions.parseStoreKeys(resources.StoreKeys.value) : undefined;
  if (claimKey) built.claims = await claimKey.claimSignerFromSetting(resources.ClaimSigningKey.value);
  if (sponsorKey) built.sponsor = await sponsorKey.sponsorFromSetting(resources.SponsorKey.value);
  if (linked('CursorKey')) built.cursorKey = cursorKeyOf(resources.CursorKey.key);

  const unlinked: Record<string, string> = {
    db: 'Table',
    table: 'Table',
    files: 'Files',
    tokens: 'TokenSigningKey or TokenPublicKeys',
    idTokens: 'OAuthProviders',
    chain: 'ChainConfig',
    claims: 'ClaimSigningKey',
    sponsor: 'SponsorKey',
    appStore: 'AppleConfig',
    googlePlay: 'GoogleConfig',
    storeKeys: 'StoreKeys',
    cursorKey: 'CursorKey',
  };
  for (const [field, resource] of Object.entries(unlinked)) {
    if (field in built) continue;
    Object.defineProperty(built, field, {
      enumerable: false,
      get() {
        throw new Error(`deps.${field}: ${resource} is not linked to this function (its needs in functions/deployed.ts)`);
      },
    });
  }
  return built as Deps;
}

/** The Lambda event fields read here: the API Gateway request context, for the client's address. */
type LambdaEvent = Parameters<ReturnType<typeof handle>>[0];
type LambdaContext = Parameters<ReturnType<typeof handle>>[1];

/**
 * A Lambda handler for an app built from the deployed Deps (built on the first invocation). Each request runs
 * with its client's address (API Gateway's requestContext.http.sourceIp) as the request source that login
 * throttling keys on (core/platform/request-source.ts), and with its ids (Lambda's and API Gateway's request ids)
 * as the context its log lines carry (core/platform/request-context.ts). Its metrics (count and latency per
 * operation and status class, core/platform/metrics.ts) are written and flushed before it returns.
 */
export function lambdaHandler(createApp: (deps: Deps) => Hono, depsOf: () => Promise<Deps>) {
  let handler: ReturnType<typeof handle> | undefined;
  let stage: string | undefined;
  return async (event: LambdaEvent, context: LambdaContext) => {
    const started = performance.now();
    const requestContext = (event as { requestContext?: { requestId?: string } }).requestContext;
    const ids: RequestContext = { requestId: context?.awsRequestId, apiRequestId: requestContext?.requestId };
    let status = 500;
    try {
      return await withRequestContext(ids, async () => {
        if (!handler) {
          const deps = await depsOf();
          stage = deps.stage;
          handler = handle(createApp(deps));
        }
        const source = sourceOfEnv({ requestContext });
        const response = await withRequestSource(source, () => handler!(event, context));
        status = response.statusCode ?? 200;
        return response;
      });
    } finally {
      recordRequest({
        stage: stage ?? 'unknown',
        group: ids.group,
        operation: ids.operation,
        status,
        milliseconds: performance.now() - started,
        functionName: context?.functionName,
      });
    }
  };
}
