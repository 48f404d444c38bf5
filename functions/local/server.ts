import { serve } from '@hono/node-server';
import { join } from 'node:path';
import { paymentHandlers } from '../../core/payments/indexer-handlers.js';
import { startIndexerLoop, type IndexerLoop } from '../../core/chain/loop.js';
import { claimHandlers } from '../../core/rewards/claim-events.js';
import { createClaimSigner } from '../../core/rewards/claim-key.js';
import { startSettlementLoop, type SettlementLoop } from '../../core/rewards/loop.js';
import { startDeletionsLoop } from '../../core/privacy/loop.js';
import { chainFromSetting } from '../../core/chain/source.js';
import { parseGoogleSettings } from '../../core/app-stores/google-settings.js';
import { parseAppleSettings } from '../../core/app-stores/apple-settings.js';
import { createIdTokenVerifier, parseOAuthProviders } from '../../core/identity/id-tokens.js';
import { createDocumentClient } from '../../core/platform/db.js';
import type { Deps } from '../../core/deps.js';
import { diskFileStore } from '../../core/platform/files.js';
import { LOCAL_STAGE, heroBasePath, mainBasePath } from '../../core/platform/stages.js';
import { createTokenService } from '../../core/platform/tokens.js';
import { sourceOfEnv, withRequestSource } from '../../core/platform/request-source.js';
import { createAllApps } from '../apps.js';
import { buildConsole } from '../../console/build.js';
import { configuredDynamo, ensureTable, localConnection, startDynamoLocal, type LocalDynamo } from './dynamo.js';
import { seedLocal } from './seed.js';
import { localSigningKey, localStoreKeys, localVendorKey } from './signing-key.js';
import { parseStoreKeys } from '../../core/partner-store/regions.js';
import { localClaimKey } from './claim-key.js';
import { withUnreadBodyDiscarded } from './unread-body.js';
import { startScoreStreamLoop } from './score-stream.js';
import type { Loop } from '../../core/platform/loop.js';
import { Hono } from 'hono';
import { cors } from 'hono/cors';
import { crossOrigin } from '../../core/http/cross-origin.js';

/**
 * `npm start`: the embedded default. DynamoDB Local with its data under DATA_DIR, the table made from the
 * shared definition, every group under /v2-testing and the hero group under /hero-testing. With the AWS SDK's
 * standard AWS_ENDPOINT_URL_DYNAMODB set, the DynamoDB it names instead (one the user runs, in a container or
 * elsewhere; region and credentials from the SDK's usual variables): nothing is started or stopped, the table
 * is made there when it is missing.
 */
const port = Number(process.env.PORT ?? 3000);
const dataDir = process.env.DATA_DIR ?? '.data';
const stage = LOCAL_STAGE;
const table = 'game-platform';
const log = (line: string) => console.log(`[local] ${line}`);

const configured = configuredDynamo(process.env);
const dynamo: LocalDynamo | undefined = configured ? undefined : await startDynamoLocal({ dataDir: join(dataDir, 'dynamodb') });
const connection = configured ?? localConnection(dynamo!.endpoint);
let server: ReturnType<typeof serve> | undefined;
let indexer: IndexerLoop | undefined;
let settlement: SettlementLoop | undefined;
let rankPages: Loop | undefined;
let deletions: Loop | undefined;
let stopping = false;

async function stop(signal: string) {
  if (stopping) return;
  stopping = true;
  log(`${signal}: stopping`);
  await new Promise<void>((done) => (server ? server.close(() => done()) : done()));
  await Promise.all([indexer?.stop(), settlement?.stop(), rankPages?.stop(), deletions?.stop()]);
  await dynamo?.stop();
  process.exit(0);
}
process.on('SIGINT', () => void stop('SIGINT'));
process.on('SIGTERM', () => void stop('SIGTERM'));

try {
  log(
    configured
      ? `DynamoDB: ${connection.endpoint} (AWS_ENDPOINT_URL_DYNAMODB), region ${connection.region}`
      : `DynamoDB: the embedded DynamoDB Local at ${connection.endpoint}, data in ${join(dataDir, 'dynamodb')}`,
  );
  const created = await ensureTable(connection, table);
  log(`table ${table} ${created ? 'created' : 'found'}`);
  // CLOCK_OFFSET_MS: the local service's clock runs that far ahead (or behind, negative), to see a season end,
  // its settlement and tokens expire without waiting for them.
  const clockOffset = Number(process.env.CLOCK_OFFSET_MS ?? 0);
  if (!Number.isSafeInteger(clockOffset)) throw new Error(`CLOCK_OFFSET_MS: expected an integer number of milliseconds, got ${process.env.CLOCK_OFFSET_MS}`);
  if (clockOffset !== 0) log(`clock: ${clockOffset} ms ahead of this machine's (CLOCK_OFFSET_MS)`);
  const now = () => new Date(Date.now() + clockOffset);
  const files = diskFileStore(join(dataDir, 'files'));
  const deps: Deps = {
    stage,
    production: false,
    db: createDocumentClient(connection),
    table,
    files,
    // The token keys and the vendor PaymentRequest key: separate keys, each kept in DATA_DIR (signing-key.ts).
    tokens: await createTokenService({
      signingKey: await localSigningKey(dataDir),
      vendorKey: await localVendorKey(dataDir),
      issuer: `game-platform/${stage}`,
      now,
    }),
    // OAUTH_PROVIDERS: the providers zkLogin and social binding accept (JSON, see docs/api.md); none by default.
    idTokens: createIdTokenVerifier(parseOAuthProviders(process.env.OAUTH_PROVIDERS), { now }),
    // CHAIN_CONFIG: the chain node and payment event type (JSON, see docs/api.md); unset turns chain features off.
    chain: chainFromSetting(process.env.CHAIN_CONFIG),
    // APPLE_CONFIG: the App Store settings (JSON, see docs/api.md); unset turns App Store purchases off (503).
    appStore: parseAppleSettings(process.env.APPLE_CONFIG),
    // GOOGLE_CONFIG: the Google Play settings (JSON, see docs/api.md); unset turns google_callback off (503).
    googlePlay: parseGoogleSettings(process.env.GOOGLE_CONFIG),
    // CLAIM_SIGNING_KEY: the reward claim key; by default one generated into DATA_DIR.
    claims: await createClaimSigner(process.env.CLAIM_SIGNING_KEY || (await localClaimKey(dataDir))),
    // STORE_KEYS: the partner store's region keys; by default generated into DATA_DIR/store-keys.json.
    storeKeys: await parseStoreKeys(process.env.STORE_KEYS || (await localStoreKeys(dataDir))),
    now,
  };
  await seedLocal(deps, dataDir, process.env, log);
  // The local stand-ins for the deployed jobs record their runs as those do, for the stage overview.
  // The local stand-in for the deployed cron: index chain events every INDEXER_INTERVAL_MS.
  if (deps.chain) {
    const handlers = { ...paymentHandlers(deps), ...claimHandlers(deps) };
    indexer = startIndexerLoop(deps, { intervalMs: Number(process.env.INDEXER_INTERVAL_MS ?? 10_000), handlers });
  }
  // The local stand-in for the deployed settlement cron: close finished seasons every SETTLEMENT_INTERVAL_MS.
  settlement = startSettlementLoop(deps, { intervalMs: Number(process.env.SETTLEMENT_INTERVAL_MS ?? 60_000) });
  // The local stand-in for the deployed stream subscription: score changes into the rank pages every RANK_STREAM_INTERVAL_MS.
  rankPages = startScoreStreamLoop(deps, connection, Number(process.env.RANK_STREAM_INTERVAL_MS ?? 1_000));
  // The local stand-in for the deployed deletions cron: deletions a crash stopped, and every answered deletion's
  // last sweep, every DELETIONS_INTERVAL_MS.
  deletions = startDeletionsLoop(deps, { intervalMs: Number(process.env.DELETIONS_INTERVAL_MS ?? 60_000) });

  // The operator console, built from its source at every start into DATA_DIR (a deploy builds it in infra).
  if (!process.env.CONSOLE_ASSETS_DIR) {
    process.env.CONSOLE_ASSETS_DIR = join(dataDir, 'console');
    await buildConsole(process.env.CONSOLE_ASSETS_DIR);
  }

  const app = createAllApps(deps);
  // Stored files: S3 serves them in a stage; locally this route does, below the main base.
  const filesPrefix = `${mainBasePath(stage)}/files/`;
  const local = async (request: Request, env: unknown) => {
    const url = new URL(request.url);
    if (request.method === 'GET' && url.pathname.startsWith(filesPrefix)) {
      const file = await files.get(decodeURIComponent(url.pathname.slice(filesPrefix.length)));
      if (file) return new Response(file.body, { headers: { 'content-type': file.contentType } });
    }
    // The socket's address is the request source login throttling keys on (core/platform/request-source.ts).
    return withRequestSource(sourceOfEnv(env), () => app.fetch(request, env));
  };
  // Calls from other origins (core/http/cross-origin.ts): deployed, API Gateway answers preflights and adds the
  // headers; here Hono's cors middleware does, with the same policy.
  const edge = new Hono();
  edge.use(
    '*',
    cors({
      origin: crossOrigin.allowOrigins[0],
      allowMethods: [...crossOrigin.allowMethods],
      allowHeaders: [...crossOrigin.allowHeaders],
      exposeHeaders: [...crossOrigin.exposeHeaders],
      maxAge: crossOrigin.maxAgeSeconds,
    }),
  );
  edge.all('*', (c) => local(c.req.raw, c.env));
  // The rest of a body the app answered unread is read off the connection, or the connection closed (unread-body.ts).
  server = serve({ fetch: withUnreadBodyDiscarded(edge.fetch), port, hostname: process.env.HOST ?? '127.0.0.1' }, (info) => {
    const host = `http://localhost:${info.port}`;
    log(`serving ${host}${mainBasePath(stage)} and ${host}${heroBasePath(stage)}`);
    log(`API reference: ${host}${mainBasePath(stage)}/docs and ${host}${heroBasePath(stage)}/docs`);
    log(`operator console: ${host}${mainBasePath(stage)}/console`);
  });
} catch (error) {
  console.error(error);
  await dynamo?.stop();
  process.exit(1);
}
