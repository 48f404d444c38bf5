import { createGame } from '../core/games/games.js';
import { GameCreate } from '../core/games/models.js';
import { completeOrder } from '../core/payments/complete.js';
import { createRechargeOrder } from '../core/payments/orders.js';
import type { Deps } from '../core/deps.js';
import { gamePayload, newCode as newGameCode } from '../test/support/games.js';
import { functionNeeds, type DeployedFunction, type Need } from '../functions/deployed.js';
import { publicJwk } from '../core/platform/tokens.js';
import { cursorSecretOf } from '../core/platform/cursors.js';
import { generateSponsorKey, sponsorFromSetting } from '../core/sponsorship/sponsor-key.js';
import { createLocalDeps, type LocalDeps } from '../test/support/local-deps.js';
import { makeAppleChain, type AppleChain } from '../test/support/app-store-signing.js';
import { PUSH_ACCOUNT, startLoopbackGoogle, type LoopbackGoogle } from '../test/support/google-play.js';
import { parseGoogleSettings } from '../core/app-stores/google-settings.js';
import { startOAuthIssuer, type TestIssuer } from '../test/support/oauth-issuer.js';
import { startSuiGrpc, type SuiGrpc } from '../test/support/sui-grpc.js';
import { generateStoreKeys, parseStoreKeys } from '../core/partner-store/regions.js';
import { accountWithToken, merchantWithToken } from '../test/support/merchants.js';
import { giveTickets, indexedPayment, playerWithTokens, projectWithLevel } from '../test/support/payments.js';
import { goodsFor, merchantWithProject, player as vendorPlayer } from '../test/support/goods.js';
import { randomUUID } from 'node:crypto';
import { MAX_REPORT_PLAYERS, ScoreReport } from '../core/rankings/models.js';
import { submitScores } from '../core/rankings/reports.js';
import type { Board } from '../core/rankings/keys.js';
import { applyHeadChanges } from '../core/rankings/rank-head.js';
import { boardStandings, readSeasonScores } from '../core/rankings/season-scores.js';
import { monthOf, weekOf } from '../core/rankings/seasons.js';
import { shardedGame } from '../test/support/rankings.js';

export { accountWithToken, merchantWithToken, gamePayload };

export interface BenchDeps extends LocalDeps {
  /** A loopback OpenID Connect issuer the deps accept id_tokens of (provider `bench`, client `bench-client`). */
  issuer: TestIssuer;
  /** The certificate chain the bench stage's App Store settings trust (its root), to sign purchases with. */
  appleChain: AppleChain;
  /** A loopback Google (push token keys, OAuth token endpoint, Play Developer API) the stage's Google Play settings name. */
  google: LoopbackGoogle;
  /** A loopback Sui full node's gRPC API: the hero game's object reads (bench/hero-operations.ts links it). */
  suiNode: SuiGrpc;
  /** The settings the deployed functions read (SST_RESOURCE_AppleConfig, GoogleConfig and StoreKeys), as linked. */
  settings: { appStore: string; googlePlay: string; storeKeys: string };
}

/** Deps as the tests build them (fresh table, signing key, file folder, a loopback issuer), outside vitest. */
export async function createBenchDeps(endpoint: string): Promise<BenchDeps> {
  const issuer = await startOAuthIssuer();
  // With a stream, as a deployed table has (the day figures and the boards' heads are kept from it): writes cost
  // DynamoDB Local what they cost it there.
  const deps = await createLocalDeps(endpoint, { tablePrefix: 'bench', stream: true, oauthProviders: [issuer.provider('bench', ['bench-client'])] });
  const appleChain = makeAppleChain('Bench Root');
  const appStore = { bundleId: BENCH_BUNDLE, environment: 'Sandbox' as const, allowSandbox: false, rootCertificates: [appleChain.root], onlineChecks: false };
  const google = await startLoopbackGoogle(BENCH_PACKAGE);
  const settings = {
    appStore: JSON.stringify({ ...appStore, rootCertificates: appStore.rootCertificates.map((certificate) => certificate.toString('base64')) }),
    googlePlay: JSON.stringify({
      packageName: BENCH_PACKAGE,
      pushAudience: BENCH_PUSH_AUDIENCE,
      pushServiceAccount: PUSH_ACCOUNT,
      serviceAccountKey: google.account.json,
      googleCerts: google.certsUrl,
      playApi: google.url,
    }),
    storeKeys: await generateStoreKeys(),
  };
  const suiNode = await startSuiGrpc();
  return {
    ...deps,
    issuer,
    appleChain,
    appStore,
    google,
    googlePlay: parseGoogleSettings(settings.googlePlay),
    suiNode,
    storeKeys: await parseStoreKeys(settings.storeKeys),
    // A gas sponsor: the sponsorship operations answer with its limits, and claim_sponsor signs with it.
    sponsor: await sponsorFromSetting(await generateSponsorKey()),
    settings,
  };
}

/** The bench stage's Android app and push subscription audience. */
export const BENCH_PACKAGE = 'com.bench.game';
export const BENCH_PUSH_AUDIENCE = 'https://bench.example/v2-testing/pay/google/notifications';

export const newCode = () => newGameCode('bench');

/** The bench stage's App Store app; createBenchDeps trusts a chain made in the bench (appleChain). */
export const BENCH_BUNDLE = 'com.bench.game';

type Owner = Awaited<ReturnType<typeof merchantWithToken>>;

/** A game of the owner's merchant, made through the domain (live when the merchant is active). */
export const gameOf = (deps: Deps, owner: Owner, code = newCode()) => createGame(deps, owner.claims, GameCreate.parse(gamePayload(code)));

/** An active merchant with `games` games. */
export async function merchantWithGames(deps: Deps, games: number, status?: number) {
  const owner = await merchantWithToken(deps, status);
  const made = [];
  for (let i = 0; i < games; i++) made.push(await gameOf(deps, owner));
  return { ...owner, games: made };
}

/** The price of level 1 of the bench's projects, in base units (1.5 SUI). */
export const LEVEL_PRICE = 1_500_000_000;

/** An active merchant (merchant and server tokens) with a project on sale and its level 1 at LEVEL_PRICE. */
export const shopWithLevel = (deps: Deps) => projectWithLevel(deps, { price: LEVEL_PRICE });
export { playerWithTokens, giveTickets };

type Shop = Awaited<ReturnType<typeof shopWithLevel>>;
type Player = Awaited<ReturnType<typeof playerWithTokens>>;

/** The rechargeOrder body for level 1 of the shop at its price; `prevId` names an order to replace. */
export const rechargeBody = (shop: Shop, player: Player, prevId = -1) => ({
  userId: player.uid,
  project: shop.project.project_name,
  priceId: shop.level.priceId,
  prevId,
  level: 1,
  amount: String(LEVEL_PRICE),
});

/** A shop, a player with a wallet account, and the player's pending recharge order of level 1. */
export async function pendingPurchase(deps: Deps) {
  const shop = await shopWithLevel(deps);
  const player = await playerWithTokens(deps);
  const order = await createRechargeOrder(deps, player.uid, rechargeBody(shop, player));
  return { shop, player, order };
}

/**
 * A pending purchase whose payment the chain indexer has stored: orderComplete's usual state. With another
 * `amount`, the payment matches no open order and is kept as a stranded payment of the project.
 */
export async function indexedPurchase(deps: Deps, amount = LEVEL_PRICE) {
  const purchase = await pendingPurchase(deps);
  return { ...purchase, digest: await storedPayment(deps, purchase.shop, purchase.player, purchase.order, amount) };
}

/** The chain indexer's record of the player paying `amount` for the order; answers the payment's digest. */
async function storedPayment(deps: Deps, shop: Shop, player: Player, order: { bill_no: string }, amount = LEVEL_PRICE) {
  return indexedPayment(deps, {
    billNo: order.bill_no,
    amount: String(amount),
    from: player.address,
    to: shop.receiveAddress,
    eventType: '0xbe9c::pay::PaymentEvent',
  });
}

/** One more order of level 1 of the shop by `player`, paid and indexed: what one orderComplete completes. */
export async function purchaseOf(deps: Deps, shop: Shop, player: Player) {
  const order = await createRechargeOrder(deps, player.uid, rechargeBody(shop, player));
  return { order, digest: await storedPayment(deps, shop, player, order) };
}

/**
 * `count` players (wallet account, platform and game tokens) each holding `tickets` of a project's level:
 * the many players of one project, goods or game that the load part (bench/load.ts) spreads its callers over.
 */
export function ticketHolders(deps: Deps, projectName: string, level: number, count: number, tickets = 1e9) {
  return Promise.all(
    Array.from({ length: count }, async () => {
      const player = await playerWithTokens(deps);
      await giveTickets(deps, player.uid, projectName, level, tickets);
      return player;
    }),
  );
}

/** A merchant's project with goods on sale at 1 ticket of level 1, and the merchant's server token. */
export async function goodsOnSale(deps: Deps) {
  const owner = await merchantWithProject(deps);
  return { owner, goods: await goodsFor(deps, owner, { price: 1 }) };
}

/** A completed purchase: the order paid and its tickets credited. */
export async function paidPurchase(deps: Deps) {
  const purchase = await indexedPurchase(deps);
  await completeOrder(deps, purchase.player.uid, { orderId: purchase.order.id, transactionId: purchase.digest });
  return purchase;
}

/** A merchant's project with goods (4 tickets each, level 1) and a user holding 100 tickets of that level. */
export async function goodsAndBuyer(deps: Deps) {
  const owner = await merchantWithProject(deps);
  const goods = await goodsFor(deps, owner, { price: 4 });
  const buyer = await vendorPlayer(deps);
  await giveTickets(deps, buyer.uid, goods.projectName, goods.level, 100);
  const server = await deps.tokens.verify(owner.serverToken, ['server']);
  return { owner, goods, buyer, server };
}

/** The SST resource each need of a deployed function is linked as (functions/deployed.ts, infra/functions.ts). */
const resourceOfNeed = (deps: BenchDeps): Record<Need, [string, object]> => ({
  table: ['Table', { name: deps.table }],
  files: ['Files', { name: 'bench-files' }],
  issueTokens: ['TokenSigningKey', { value: JSON.stringify(deps.signingKey) }],
  verifyTokens: ['TokenPublicKeys', { keys: [publicJwk(deps.signingKey)] }],
  vendorKey: ['VendorSigningKey', { value: '' }],
  oauthProviders: ['OAuthProviders', { value: '[]' }],
  chain: ['ChainConfig', { value: '' }],
  claimKey: ['ClaimSigningKey', { value: '' }],
  sponsorKey: ['SponsorKey', { value: '' }],
  appStore: ['AppleConfig', { value: deps.settings.appStore }],
  googlePlay: ['GoogleConfig', { value: deps.settings.googlePlay }],
  storeKeys: ['StoreKeys', { value: deps.settings.storeKeys }],
  cursorKey: ['CursorKey', { key: cursorSecretOf({ current: deps.signingKey }) }],
});

/**
 * The environment a deployed function reads its Deps from (functions/deployed.ts: SST_RESOURCE_* and
 * DYNAMODB_ENDPOINT), naming the bench's table, token key, App Store and Google Play settings and partner store keys. With a
 * function's name, only the resources infra links to that function (its needs), as a deployed one has them;
 * without, every resource (the in-process benches serve several groups from one environment). No OAuth
 * provider, vendor key, chain or claim key: none of the operations the bench sends to a bundle uses them.
 */
export function deployedEnv(deps: BenchDeps, fn?: DeployedFunction): Record<string, string> {
  const resources = resourceOfNeed(deps);
  const needs: readonly Need[] = fn ? functionNeeds[fn] : (Object.keys(resources) as Need[]).filter((need) => need !== 'verifyTokens');
  const env: Record<string, string> = { SST_RESOURCE_App: JSON.stringify({ name: 'game-platform', stage: deps.stage }), DYNAMODB_ENDPOINT: deps.endpoint };
  for (const need of needs) {
    const [name, value] = resources[need];
    env[`SST_RESOURCE_${name}`] = JSON.stringify(value);
  }
  return env;
}

/**
 * A game whose current seasons have `shards` board shards (the change made before they started) and `players`
 * players on its four boards, each with a score of its own (no tie at any cut), the boards' live heads as the
 * stream's consumer leaves them (core/rankings/rank-head.ts: what gameRank reads); answers its code.
 */
export async function shardedGameWithScores(deps: BenchDeps, shards: number, players: number): Promise<string> {
  const game = await shardedGame(deps, shards);
  for (let start = 0; start < players; start += MAX_REPORT_PLAYERS) {
    const scores = Array.from({ length: Math.min(MAX_REPORT_PLAYERS, players - start) }, (_, i) => ({
      game_player_id: `player-${start + i}`,
      game_player_name: `Player ${start + i}`,
      kills: start + i + 1,
      wins: start + i + 1,
    }));
    await submitScores(deps, ScoreReport.parse({ game_code: game.code, result_id: `fixture-${randomUUID()}`, scores }));
  }
  for (const season of [weekOf(deps.now()), monthOf(deps.now())]) {
    const items = await readSeasonScores(deps, game.code, season, true);
    for (const board of ['kills', 'wins'] as Board[]) {
      await applyHeadChanges(
        deps,
        { board, game: game.code, season },
        boardStandings(board, items).map((after) => ({ id: after.id, after })),
      );
    }
  }
  return game.code;
}
