import { serve } from '@hono/node-server';
import { join } from 'node:path';
import { paymentHandlers } from '../../core/payments/indexer-handlers.js';
import { startIndexerLoop } from '../../core/chain/loop.js';
import { claimAndGasHandlers } from '../../core/sponsorship/spent.js';
import { createClaimSigner } from '../../core/rewards/claim-key.js';
import { sponsorFromSetting } from '../../core/sponsorship/sponsor-key.js';
import { leagueSettlement } from '../../core/leagues/settlement.js';
import { startSettlementLoop } from '../../core/rewards/loop.js';
import { startDeletionsLoop } from '../../core/privacy/loop.js';
import { startSnapshotLoop } from '../../core/rankings/loop.js';
import { createIdTokenVerifier } from '../../core/identity/id-tokens.js';
import { createDocumentClient } from '../../core/platform/db.js';
import type { Deps } from '../../core/deps.js';
import { diskFileStore } from '../../core/platform/files.js';
import { LOCAL_STAGE, heroBasePath, mainBasePath } from '../../core/platform/stages.js';
import { createTokenService } from '../../core/platform/tokens.js';
import { cursorKeyOf, cursorSecretOf } from '../../core/platform/cursors.js';
import { sourceOfEnv, withRequestSource } from '../../core/platform/request-source.js';
import { createAllApps } from '../../functions/apps.js';
import { buildConsole } from '../../console/build.js';
import { ensureTable, localConnection, startDynamoLocal, type LocalDynamo } from './dynamo.js';
import { listenProblem } from './port-check.js';
import { StartRefused } from './start-refused.js';
import { seedDemoSponsor, seedDemoVerifier, seedLocal } from './seed.js';
import { localSignInKey, localSigningKey, localSponsorKey, localStoreKeys, localVendorKey } from './signing-key.js';
import { DEV_CLIENT_ID, DEV_SIGN_IN_PATH, devSignIn } from './dev-sign-in.js';
import { parseStoreKeys } from '../../core/partner-store/regions.js';
import { localClaimKey } from './claim-key.js';
import { withUnreadBodyDiscarded } from './unread-body.js';
import { startScoreStreamLoop } from './score-stream.js';
import { startDayFiguresLoop } from './day-figures-stream.js';
import { writeServerFile } from './server-file.js';
import { startDevChain, type DevChain } from './dev-chain/dev-chain.js';
import { chainFromSetting } from '../../core/chain/source.js';
import { Hono } from 'hono';
import { cors } from 'hono/cors';
import { crossOrigin } from '../../core/http/cross-origin.js';
import type { Loop } from '../../core/platform/loop.js';
import type { LocalSettings } from './settings.js';

const stage = LOCAL_STAGE;

/** What the start has started so far, recorded here as each part runs: what server.ts stops on exit. */
export interface Started {
  dynamo?: LocalDynamo;
  devChain?: DevChain;
  server?: ReturnType<typeof serve>;
  loops: Loop[];
}

/**
 * The local server's start once its settings are read, its port reserved and DATA_DIR locked (server.ts, which
 * loads this module only then, so that a refusal answers before the service's modules load): DynamoDB Local (or
 * the configured DynamoDB) and its table, the development chain and sign-in provider, the seed, the local
 * stand-ins of the deployed jobs, the console's build and the HTTP server. Everything it starts is recorded in
 * `started` as soon as it runs, for server.ts to stop on exit.
 */
export async function startServer(
  settings: LocalSettings,
  reserved: { release(): Promise<void> },
  started: Started,
  { signal, log, failed }: { signal: AbortSignal; log: (line: string) => void; failed: (error: unknown) => void },
): Promise<void> {
  const { dataDir, port, host, table } = settings;

  const configured = settings.dynamo;
  started.dynamo = configured ? undefined : await startDynamoLocal({ dataDir: join(dataDir, 'dynamodb'), signal });
  const connection = configured ?? localConnection(started.dynamo!.endpoint);
  log(
    configured
      ? `DynamoDB: ${connection.endpoint} (AWS_ENDPOINT_URL_DYNAMODB), region ${connection.region}`
      : `DynamoDB: the embedded DynamoDB Local at ${connection.endpoint}, data in ${join(dataDir, 'dynamodb')}`,
  );
  const created = await ensureTable(connection, table);
  log(`table ${table} ${created ? 'created' : 'found'}`);
  // CLOCK_OFFSET_MS: the local service's clock runs that far ahead (or behind, negative), to see a season end,
  // its settlement and tokens expire without waiting for them.
  const clockOffset = settings.clockOffsetMs;
  if (clockOffset !== 0) log(`clock: ${clockOffset} ms ahead of this machine's (CLOCK_OFFSET_MS)`);
  const now = () => new Date(Date.now() + clockOffset);
  const files = diskFileStore(join(dataDir, 'files'));
  // No CHAIN_CONFIG: the development chain stands in for Sui, with a faucet, its state in DATA_DIR.
  const devChain = settings.devChain ? await startDevChain({ dataDir, now }) : undefined;
  started.devChain = devChain;
  if (devChain) {
    log(`development chain: GraphQL at ${devChain.graphqlUrl}, faucet at ${devChain.faucetUrl} (CHAIN_CONFIG unset; DEV_CHAIN=off for none)`);
  }
  const signingKey = await localSigningKey(dataDir);
  // The development sign-in provider, on this server's own origin, trusted beside OAUTH_PROVIDERS' providers.
  const origin = `http://${host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host}:${port}`;
  const signIn = settings.devSignIn ? await devSignIn({ origin, key: await localSignInKey(dataDir), now }) : undefined;
  const deps: Deps = {
    stage,
    production: false,
    db: createDocumentClient(connection),
    table,
    files,
    // The token keys and the vendor PaymentRequest key: separate keys, each kept in DATA_DIR (signing-key.ts).
    tokens: await createTokenService({
      signingKey,
      vendorKey: await localVendorKey(dataDir),
      issuer: `game-platform/${stage}`,
      now,
    }),
    // The cursor key, derived from the token keys as a deploy derives it (infra/secrets.ts).
    cursorKey: cursorKeyOf(cursorSecretOf(signingKey)),
    // OAUTH_PROVIDERS: the providers zkLogin and social binding accept (JSON, see docs/api.md), and the development
    // sign-in provider unless DEV_SIGN_IN=off.
    idTokens: createIdTokenVerifier([...settings.oauthProviders, ...(signIn ? [signIn.provider] : [])], { now }),
    // CHAIN_CONFIG: the chain node and payment event type (JSON, see docs/api.md); unset, the development chain
    // (DEV_CHAIN=off and unset turns chain features off).
    chain: devChain ? chainFromSetting(devChain.chainSetting) : settings.chain,
    // APPLE_CONFIG: the App Store settings (JSON, see docs/api.md); unset turns App Store purchases off (503).
    appStore: settings.appStore,
    // GOOGLE_CONFIG: the Google Play settings (JSON, see docs/api.md); unset turns google_callback off (503).
    googlePlay: settings.googlePlay,
    // CLAIM_SIGNING_KEY: the reward claim key; by default one generated into DATA_DIR.
    claims: settings.claims ?? (await createClaimSigner(await localClaimKey(dataDir))),
    // SPONSOR_KEY: the gas sponsor of players' claims; on the development chain by default one generated into
    // DATA_DIR and funded by its faucet (seedDemoSponsor); elsewhere none (503) unless set.
    sponsor: settings.sponsor ?? (devChain ? await sponsorFromSetting(await localSponsorKey(dataDir)) : undefined),
    // STORE_KEYS: the partner store's region keys; by default generated into DATA_DIR/store-keys.json.
    storeKeys: settings.storeKeys ?? (await parseStoreKeys(await localStoreKeys(dataDir))),
    now,
  };
  await seedLocal(deps, dataDir, settings.seedAdmin, log);
  if (devChain) {
    await seedDemoVerifier(deps, devChain, log);
    await seedDemoSponsor(deps, devChain, log);
  }
  // The local stand-ins for the deployed jobs record their runs as those do, for the stage overview.
  // The local stand-in for the deployed cron: index chain events every INDEXER_INTERVAL_MS.
  if (deps.chain) {
    const handlers = { ...paymentHandlers(deps), ...claimAndGasHandlers(deps) };
    started.loops.push(startIndexerLoop(deps, { intervalMs: settings.intervalsMs.indexer, handlers }));
  }
  // The local stand-in for the deployed settlement cron: close finished seasons every SETTLEMENT_INTERVAL_MS.
  started.loops.push(startSettlementLoop(deps, { intervalMs: settings.intervalsMs.settlement, also: leagueSettlement(deps) }));
  // The local stand-in for the deployed stream subscription: score changes into each board's live head every
  // RANK_STREAM_INTERVAL_MS.
  started.loops.push(startScoreStreamLoop(deps, connection, settings.intervalsMs.rankStream));
  // The local stand-in for the deployed day figures' subscription: orders and ledger entries into the stage
  // overview's figures, read from the stream as often.
  started.loops.push(startDayFiguresLoop(deps, connection, settings.intervalsMs.rankStream));
  // The local stand-in for the deployed snapshot cron: every open season's boards written whole from its score
  // items every RANK_SNAPSHOT_INTERVAL_MS.
  started.loops.push(startSnapshotLoop(deps, { intervalMs: settings.intervalsMs.rankSnapshots }));
  // The local stand-in for the deployed deletions cron: deletions a crash stopped, and every answered deletion's
  // last sweep, every DELETIONS_INTERVAL_MS.
  started.loops.push(startDeletionsLoop(deps, { intervalMs: settings.intervalsMs.deletions }));

  // The operator console, built from its source at every start into DATA_DIR (a deploy builds it in infra).
  if (settings.consoleAssetsDir) process.env.CONSOLE_ASSETS_DIR = settings.consoleAssetsDir;
  else {
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
  if (signIn) edge.route(DEV_SIGN_IN_PATH, signIn.app);
  edge.all('*', (c) => local(c.req.raw, c.env));
  // The rest of a body the app answered unread is read off the connection, or the connection closed (unread-body.ts).
  await reserved.release();
  const server = serve({ fetch: withUnreadBodyDiscarded(edge.fetch), port, hostname: host }, (info) => {
    const base = `http://localhost:${info.port}`;
    log(`serving ${base}${mainBasePath(stage)} and ${base}${heroBasePath(stage)}`);
    log(`API reference: ${base}${mainBasePath(stage)}/docs and ${base}${heroBasePath(stage)}/docs`);
    log(`operator console: ${base}${mainBasePath(stage)}/console`);
    if (signIn) log(`development sign-in: OpenID provider ${signIn.provider.issuer} (client id ${DEV_CLIENT_ID}; DEV_SIGN_IN=off for none)`);
    // Where the admin CLI finds this server's table, with no --endpoint (tools/local/server-file.ts).
    writeServerFile(dataDir, {
      url: base,
      dynamodb: { endpoint: connection.endpoint, region: connection.region },
      table,
      ...(devChain && { devChain: { graphql: devChain.graphqlUrl, faucet: devChain.faucetUrl } }),
    });
  });
  // Another process that took the port after the check: refused as the check refuses, and everything stopped.
  started.server = server;
  server.once('error', (error: NodeJS.ErrnoException) => failed(new StartRefused([listenProblem(host, port, error)])));
}
