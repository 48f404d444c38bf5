import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateStoreKeys, parseStoreKeys, signAccessToken } from '../core/partner-store/regions.js';
import { createAllApps } from '../functions/apps.js';
import { createTestDeps, type TestDeps } from './support/deps.js';
import { call, type CallResult } from './support/http.js';
import { documentErrors, servedDocument } from './support/openapi-check.js';
import { deductionOf, giveTickets, indexedPayment, playerWithTokens, projectWithLevel, storeOrder } from './support/payments.js';
import { grantedHero, HERO_BASE, heroPlayer, heroWorld, type HeroWorld } from './support/heroes.js';
import { makeAppleChain, notificationPayload, signJws, transactionPayload } from './support/app-store-signing.js';
import { parseGoogleSettings } from '../core/app-stores/google-settings.js';
import { readClaim } from '../core/app-stores/purchase-claims.js';
import { notifications, PUSH_ACCOUNT, pushBody, startLoopbackGoogle, type LoopbackGoogle } from './support/google-play.js';
import { storeIssuerOf, storeSessionOf } from './support/store.js';
import { faults, injectFaults, withFault, type FaultInjector } from './support/table-faults.js';
import { scanAll } from './support/table-snapshot.js';
import { goodsFor, merchantWithProject, player } from './support/goods.js';
import { ledgerMismatches } from './support/ledgers.js';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { historyEntryKey } from '../core/rewards/keys.js';
import { settleSeason } from '../core/rewards/settlement.js';
import { claimableGame, pastWeek, scoresInPastWeek } from './support/rewards.js';

/**
 * Money-moving operations under table faults (docs/reliability.md "Money-moving operations
 * under faults"). For each operation, every fault kind is injected at every DynamoDB command it sends (the
 * 1st, the 2nd, … until a request gets through): each answer is a documented 503 with Retry-After (a
 * transaction conflict that persists: the documented 409 of a concurrent change), and the whole table is as it
 * was. Then the worst case: the operation's write succeeds and its answer is lost; the client's retry (same
 * Idempotency-Key or natural reference) answers the first result and moves the money once. Every balance of the
 * table equals the sum of its ledger at the end.
 */
let deps: TestDeps;
let app: ReturnType<typeof createAllApps>;
let injector: FaultInjector;
const base = '/v2-testing';
/** Each base's served document: a scenario's errors are checked against the document of the base it is sent to. */
const documents: Record<string, ReturnType<typeof servedDocument>> = { [base]: servedDocument(base), [HERO_BASE]: servedDocument(HERO_BASE, 'hero') };
const APPLE_BUNDLE = 'com.studio.game';
const APPLE_PRODUCT = 'com.studio.tickets.100';
const appleChain = makeAppleChain();
const GOOGLE_PACKAGE = 'com.studio.game';
const GOOGLE_PRODUCT = 'tickets_100';
const PUSH_AUDIENCE = 'https://api.example.com/v2-testing/pay/google/notifications';
const figures = { operations: 0, faultsInjected: 0, lostAnswers: 0, commandsReached: {} as Record<string, number> };

beforeAll(async () => {
  deps = await createTestDeps();
  deps.storeKeys = await parseStoreKeys(await generateStoreKeys());
  // App Store purchases verified offline against a root made here (test/apple-purchases.test.ts).
  deps.appStore = { bundleId: APPLE_BUNDLE, environment: 'Sandbox', allowSandbox: false, rootCertificates: [appleChain.root], onlineChecks: false };
  app = createAllApps(deps);
  injector = injectFaults(deps.db);
});

/** The hero game, configured once on first use (its loopback full node stopped at the end; upgrades never read it). */
let heroes: Promise<HeroWorld> | undefined;
const heroGame = () =>
  (heroes ??= (async () => {
    const chain = deps.chain;
    const world = await heroWorld(deps);
    // Only the hero game's NFT reads would use the loopback node: the other scenarios keep the deps' own chain.
    deps.chain = chain;
    return world;
  })());
/** Google Play, configured once on first use: a loopback Google (OIDC keys, OAuth, Play Developer API; HTTP, not
 * table commands, so the injector's count is the table's alone), stopped at the end. */
let google: Promise<LoopbackGoogle> | undefined;
const googlePlay = () =>
  (google ??= (async () => {
    const loopback = await startLoopbackGoogle(GOOGLE_PACKAGE);
    deps.googlePlay = parseGoogleSettings(
      JSON.stringify({
        packageName: GOOGLE_PACKAGE,
        pushAudience: PUSH_AUDIENCE,
        pushServiceAccount: PUSH_ACCOUNT,
        serviceAccountKey: loopback.account.json,
        googleCerts: loopback.certsUrl,
        playApi: loopback.url,
      }),
    );
    return loopback;
  })());
afterAll(async () => {
  if (heroes) await (await heroes).node.stop();
  if (google) await (await google).stop();
});

/** One money-moving request, ready to send again and again; `moved` reads what it moves, `once` what one success leaves. */
interface Prepared {
  send: () => Promise<CallResult>;
  moved: () => Promise<unknown>;
  once: unknown;
}

interface Scenario {
  name: string;
  /** As documented (without the base). */
  path: string;
  /** The base it is sent to and documented on (the main base unless told). */
  base?: string;
  method: 'post';
  prepare: () => Promise<Prepared>;
  /**
   * What the same request answers once it has been handled, from the answer that handled it, when that is not
   * the same answer: a store's notification delivered again answers `duplicate` (as documented), nothing else
   * changed. Unless told, the very same answer.
   */
  repeated?: (answer: CallResult['body']) => unknown;
}

const post =
  (path: string, token: string, body: unknown, headers: Record<string, string> = {}, on = base) =>
  () =>
    call(app, 'POST', `${on}${path}`, { token, body, headers });
const ticketsOf = async (uid: string, projectName: string, level = 1) =>
  (await call(app, 'GET', `${base}/account/game/tickets`, { token: (await deps.tokens.issue('platform', uid)).token, query: { projectName, level } })).body.data
    ?.balance ?? 0;

const scenarios: Scenario[] = [
  {
    name: 'minus_tickets',
    path: '/account/game/minus_tickets',
    method: 'post',
    prepare: async () => {
      const { shop, buyer, body } = await deductionOf(deps);
      return {
        send: post('/account/game/minus_tickets', shop.server, body, { 'Idempotency-Key': randomUUID() }),
        moved: () => ticketsOf(buyer.uid, shop.project.project_name),
        once: 7,
      };
    },
  },
  {
    name: 'createOrder (vendor goods for tickets)',
    path: '/account/vendor/order',
    method: 'post',
    prepare: async () => {
      const owner = await merchantWithProject(deps);
      const goods = await goodsFor(deps, owner, { price: 4 });
      const buyer = await player(deps);
      await giveTickets(deps, buyer.uid, owner.project.project_name, 1, 10);
      const body = { userId: buyer.uid, goodsId: goods.id, quantity: 1, projectName: owner.project.project_name };
      return {
        send: post('/account/vendor/order', buyer.token, body, { 'Idempotency-Key': randomUUID() }),
        moved: () => ticketsOf(buyer.uid, owner.project.project_name),
        once: 6,
      };
    },
  },
  {
    name: 'customGoods',
    path: '/account/vendor/goods/{goodsId}',
    method: 'post',
    prepare: async () => {
      const owner = await merchantWithProject(deps);
      const goods = await goodsFor(deps, owner, { price: 4 });
      const buyer = randomUUID();
      await giveTickets(deps, buyer, owner.project.project_name, 1, 10);
      const body = { userId: buyer, quantity: 2, projectName: owner.project.project_name, outerOrderId: `partner-${randomUUID()}` };
      return { send: post(`/account/vendor/goods/${goods.id}`, owner.serverToken, body), moved: () => ticketsOf(buyer, owner.project.project_name), once: 2 };
    },
  },
  {
    name: 'vendor_reward',
    path: '/wallet/vendor/reward',
    method: 'post',
    prepare: async () => {
      const owner = await merchantWithProject(deps);
      const buyer = await player(deps);
      const body = { billNo: `R-${randomUUID()}`, userId: buyer.uid, projectName: owner.project.project_name, level: 1, amount: 3 };
      return { send: post('/wallet/vendor/reward', owner.serverToken, body), moved: () => ticketsOf(buyer.uid, owner.project.project_name), once: 3 };
    },
  },
  {
    name: 'orderComplete',
    path: '/account/user/orderComplete',
    method: 'post',
    prepare: async () => {
      const { buyer, project, order, digest } = await orderPaid('1500000000');
      return {
        send: post('/account/user/orderComplete', buyer.platform, { orderId: order.id, transactionId: digest }),
        moved: () => ticketsOf(buyer.uid, project),
        once: 100,
      };
    },
  },
  {
    name: 'store grant (currencies and items)',
    path: '/store/grants',
    method: 'post',
    prepare: async () => {
      const issuer = storeIssuerOf('default');
      const client = (
        await signAccessToken(deps.storeKeys!.default, issuer, { sub: 'backend', client_id: 'backend', scope: 'grants', kind: 'client' }, new Date())
      ).token;
      const session = await storeSessionOf(deps, app);
      const uid = (await call(app, 'GET', `${base}/store/user`, { token: session })).body.uid as string;
      const body = { uid, reference: `g-${randomUUID()}`, currencies: { gem: 150 }, items: { kibble: 2 } };
      return { send: post('/store/grants', client, body), moved: () => storeGems(session), once: 150 };
    },
  },
  {
    name: 'adopt_pet (paid in gems)',
    path: '/store/pets/adopt',
    method: 'post',
    prepare: async () => {
      const { session, gems } = await storeUserWithGems(250);
      await post('/store/pets/adopt', session, { name: 'First', species: 'cat' })();
      return { send: post('/store/pets/adopt', session, { name: 'Second', species: 'dog' }, { 'Idempotency-Key': randomUUID() }), moved: gems, once: 150 };
    },
  },
  {
    name: 'feed_pet',
    path: '/store/pets/feed',
    method: 'post',
    prepare: async () => {
      const { session } = await storeUserWithGems(0, { kibble: 3 });
      const pet = (await post('/store/pets/adopt', session, { name: 'Tom', species: 'cat' })()).body;
      const kibble = async () =>
        ((await call(app, 'GET', `${base}/store/balances/items`, { token: session })).body.items as { item: string; balance: number }[]).find(
          (i) => i.item === 'kibble',
        )!.balance;
      return {
        send: post('/store/pets/feed', session, { petId: pet.pet.petId, item: 'kibble', amount: 1 }, { 'Idempotency-Key': randomUUID() }),
        moved: kibble,
        once: 2,
      };
    },
  },
  {
    name: 'hero upgrade (paid in tickets)',
    path: '/heroes/upgrade-level',
    base: HERO_BASE,
    method: 'post',
    prepare: async () => {
      const world = await heroGame();
      const owner = await heroPlayer(world, deps);
      const hero = await grantedHero(world, owner.uid);
      // Level 2 costs 5 tickets of price level 1 (test/support/heroes.ts COSTS).
      await giveTickets(deps, owner.uid, world.projectName, 1, 8);
      const levelOf = async () =>
        ((await call(app, 'GET', `${HERO_BASE}/heroes`, { token: owner.hero })).body.heroes as { id: string; level: number }[]).find((h) => h.id === hero.id)!
          .level;
      const body = { userId: owner.uid, itemIds: [hero.id] };
      return {
        send: post('/heroes/upgrade-level', owner.hero, body, { 'Idempotency-Key': randomUUID() }, HERO_BASE),
        moved: async () => ({ tickets: await ticketsOf(owner.uid, world.projectName), level: await levelOf() }),
        once: { tickets: 3, level: 2 },
      };
    },
  },
  {
    name: 'stranded payment credit',
    path: '/merchant/payments/stranded/credit',
    method: 'post',
    prepare: async () => {
      // Paid short: kept as stranded (reason amount); crediting it completes the still pending order.
      const { shop, buyer, project, digest } = await orderPaid('1');
      const body = { project_name: project, tx_digest: digest, event_seq: '0' };
      return { send: post('/merchant/payments/stranded/credit', shop.owner.token, body), moved: () => ticketsOf(buyer.uid, project), once: 100 };
    },
  },
  {
    name: 'App Store purchase (apple verify)',
    path: '/pay/apple/verify',
    method: 'post',
    prepare: async () => {
      const { order, player: buyer, tickets } = await storeOrder(deps, app, { apple_product_id: APPLE_PRODUCT });
      const signedTransaction = await signJws(
        appleChain,
        transactionPayload({ bundleId: APPLE_BUNDLE, productId: APPLE_PRODUCT, appAccountToken: order.app_account_token }),
      );
      return { send: post('/pay/apple/verify', buyer.platform, { orderId: order.id, signedTransaction }), moved: tickets, once: 100 };
    },
  },
  {
    name: 'Google Play purchase (Pub/Sub push)',
    path: '/pay/google/notifications',
    method: 'post',
    repeated: duplicateOf,
    prepare: async () => {
      const { push, bought, tickets, consumed } = await googlePurchase();
      return { send: push(bought), moved: async () => ({ tickets: await tickets(), consumed: consumed() }), once: { tickets: 100, consumed: true } };
    },
  },
  {
    name: 'Google Play voided purchase (refund)',
    path: '/pay/google/notifications',
    method: 'post',
    repeated: duplicateOf,
    prepare: async () => {
      const { push, bought, voided, tickets } = await googlePurchase();
      expect((await push(bought)()).body.data?.outcome).toBe('credited');
      return { send: push(voided), moved: tickets, once: 0 };
    },
  },
  {
    name: 'App Store refund (server notification)',
    path: '/pay/apple/notifications',
    method: 'post',
    repeated: duplicateOf,
    prepare: async () => {
      const { order, player: buyer, tickets } = await storeOrder(deps, app, { apple_product_id: APPLE_PRODUCT });
      const signedTransactionInfo = await signJws(
        appleChain,
        transactionPayload({ bundleId: APPLE_BUNDLE, productId: APPLE_PRODUCT, appAccountToken: order.app_account_token }),
      );
      expect((await post('/pay/apple/verify', buyer.platform, { orderId: order.id, signedTransaction: signedTransactionInfo })()).status).toBe(200);
      // Apple sends the same signed payload again (same notificationUUID) until it is acknowledged.
      const signedPayload = await signJws(appleChain, notificationPayload({ notificationType: 'REFUND', bundleId: APPLE_BUNDLE, signedTransactionInfo }));
      return { send: () => call(app, 'POST', `${base}/pay/apple/notifications`, { body: { signedPayload } }), moved: tickets, once: 0 };
    },
  },
  {
    name: 'App Store refund before the credit (the purchase barred)',
    path: '/pay/apple/notifications',
    method: 'post',
    repeated: duplicateOf,
    prepare: async () => {
      const { order, tickets } = await storeOrder(deps, app, { apple_product_id: APPLE_PRODUCT });
      const transactionId = String(3_000_000_000_000_000 + Math.floor(Math.random() * 1e12));
      const signedTransactionInfo = await signJws(
        appleChain,
        transactionPayload({ bundleId: APPLE_BUNDLE, productId: APPLE_PRODUCT, appAccountToken: order.app_account_token, transactionId }),
      );
      const signedPayload = await signJws(appleChain, notificationPayload({ notificationType: 'REFUND', bundleId: APPLE_BUNDLE, signedTransactionInfo }));
      // What moved: the tickets (never credited), and the purchase's claim (the bar).
      const moved = async () => ({ tickets: await tickets(), claim: (await readClaim(deps, 'apple', transactionId)) ?? null });
      return {
        send: () => call(app, 'POST', `${base}/pay/apple/notifications`, { body: { signedPayload } }),
        moved,
        once: { tickets: 0, claim: { orderId: null, barred: 'refunded' } },
      };
    },
  },
  {
    name: 'sign_code (reward claim)',
    path: '/merchant/sign/code',
    method: 'post',
    prepare: async () => {
      const { owner, id, claim } = await settledReward();
      // The last claim sign_code answered: the stored one must be it (signed once, that answer repeated).
      let answered: unknown;
      const sign = post('/merchant/sign/code', owner.platform, { id });
      const send = async () => {
        const res = await sign();
        if (res.status === 200) answered = res.body.data;
        return res;
      };
      const moved = async () => {
        const { status, signings, stored } = await claim();
        return { status, signings, answered: stored !== null && isDeepStrictEqual(stored, answered) };
      };
      return { send, moved, once: { status: 1, signings: 1, answered: true } };
    },
  },
];

/**
 * A player (with a wallet) ranked first of a settled past week of a game with an object_id and a reward of 500
 * (test/claims.test.ts); `claim` reads the entry's claim: its status (history listing), how many claims were
 * signed for it (the stored nonces) and the stored claim (get_sign; null before sign_code).
 */
async function settledReward() {
  const owner = await playerWithTokens(deps);
  const game = await claimableGame(deps, [{ rank: 1, amount: 500 }]);
  await scoresInPastWeek(deps, game, [{ id: owner.uid, wins: 3 }]);
  await settleSeason(deps, game.code, pastWeek());
  const listing = async () =>
    (await call(app, 'GET', `${base}/chain/reward/history`, { token: owner.platform })).body.data as { id: number; status: number; reward_amount: number }[];
  const [entry, ...others] = await listing();
  expect([entry?.reward_amount, others]).toEqual([500, []]);
  const id = entry!.id;
  const claim = async () => {
    const status = (await listing()).find((e) => e.id === id)?.status;
    const item = (await deps.db.send(new GetCommand({ TableName: deps.table, Key: historyEntryKey(id), ConsistentRead: true }))).Item!;
    const read = await call(app, 'GET', `${base}/merchant/sign`, { token: owner.platform, query: { id } });
    return { status, signings: (item.claim_nonces as Set<string> | undefined)?.size ?? 0, stored: read.status === 200 ? (read.body.data as unknown) : null };
  };
  return { owner, id, claim };
}

/** A store notification handled before: the same, with outcome `duplicate`. */
function duplicateOf(answer: CallResult['body']) {
  return { ...answer, data: { ...answer.data, outcome: 'duplicate' } };
}

/** A player's pending order of a level sold on Google Play, the purchase as the loopback Google knows it, and
 * its notifications as Pub/Sub pushes them (each delivery with a fresh push token, as Pub/Sub signs one). */
async function googlePurchase() {
  const loopback = await googlePlay();
  const { order, tickets } = await storeOrder(deps, app, { google_product_id: GOOGLE_PRODUCT });
  const token = `${randomUUID()}.AO-J1Oz${randomUUID().replaceAll('-', '')}`;
  const googleOrderId = `GPA.${randomUUID().slice(0, 4)}-${randomUUID().slice(0, 4)}`;
  loopback.purchases.set(token, {
    productId: GOOGLE_PRODUCT,
    purchaseState: 0,
    consumptionState: 0,
    acknowledgementState: 0,
    orderId: googleOrderId,
    obfuscatedExternalAccountId: order.app_account_token,
  });
  const push = (body: ReturnType<typeof pushBody>) => async () =>
    call(app, 'POST', `${base}/pay/google/notifications`, {
      body,
      headers: { authorization: `Bearer ${await loopback.signPushToken({ aud: PUSH_AUDIENCE })}` },
    });
  return {
    push,
    bought: pushBody(notifications.purchased(GOOGLE_PACKAGE, token, GOOGLE_PRODUCT)),
    voided: pushBody(notifications.voided(GOOGLE_PACKAGE, token, googleOrderId)),
    tickets,
    consumed: () => loopback.purchases.get(token)?.consumptionState === 1,
  };
}

/** A player's order of level 1 (1.5 SUI) of a new project, and the indexer's record of `amount` paid for it. */
async function orderPaid(amount: string) {
  const shop = await projectWithLevel(deps);
  const buyer = await playerWithTokens(deps);
  const project = shop.project.project_name;
  const order = (
    await post('/account/user/rechargeOrder', buyer.platform, {
      userId: buyer.uid,
      project,
      priceId: shop.level.priceId,
      prevId: -1,
      level: 1,
      amount: 1_500_000_000,
    })()
  ).body;
  const digest = await indexedPayment(deps, { billNo: order.bill_no, amount, from: buyer.address, to: shop.receiveAddress });
  return { shop, buyer, project, order, digest };
}

const storeGems = async (session: string) => (await call(app, 'GET', `${base}/store/currencies/premium/balance`, { token: session })).body.balance as number;

async function storeUserWithGems(gem: number, items: Record<string, number> = {}) {
  const issuer = storeIssuerOf('default');
  const client = (await signAccessToken(deps.storeKeys!.default, issuer, { sub: 'backend', client_id: 'backend', scope: 'grants', kind: 'client' }, new Date()))
    .token;
  const session = await storeSessionOf(deps, app);
  const uid = (await call(app, 'GET', `${base}/store/user`, { token: session })).body.uid as string;
  const granted = await post('/store/grants', client, { uid, reference: `g-${randomUUID()}`, currencies: { gem }, items })();
  expect(granted.status).toBe(200);
  return { session, gems: () => storeGems(session) };
}

const withoutCounters = (items: Record<string, unknown>[]) => items.filter((item) => !String(item.pk).startsWith('COUNTER#'));

/** The most commands any of these operations sends; a request getting through earlier ends the walk. */
const MAX_COMMANDS = 12;

describe('money-moving operations under table faults', () => {
  for (const scenario of scenarios) {
    it(`${scenario.name}: every fault on every command is a documented 503 (or 409), nothing written; then it succeeds once`, async () => {
      figures.operations++;
      const prepared = await scenario.prepare();
      const before = await prepared.moved();
      const table = await scanAll(deps);
      let succeeded: CallResult | undefined;
      walk: for (let at = 0; at < MAX_COMMANDS; at++) {
        for (const [kind, fault] of Object.entries(faults)) {
          const res = await withFault(injector, fault, at, prepared.send);
          if (res.status < 300) {
            succeeded = res;
            figures.commandsReached[scenario.name] = at;
            break walk;
          }
          figures.faultsInjected++;
          const label = `${scenario.name}, ${kind} on command ${at + 1}: ${JSON.stringify(res.body).slice(0, 200)}`;
          expect([503, 409], label).toContain(res.status);
          if (res.status === 503) expect(res.headers.get('retry-after'), label).toBe('1');
          else expect(kind, label).toBe('transaction conflict');
          expect(documentErrors(documents[scenario.base ?? base]!, scenario.path, scenario.method, res.status, res.body), label).toEqual([]);
          // The one thing a failed request may leave: an id it took from a counter before its transaction failed
          // (a gap in ids; no record, no money). Everything else is as it was.
          expect(withoutCounters(await scanAll(deps)), `${label}: the table changed`).toEqual(withoutCounters(table));
        }
      }
      expect(succeeded, `${scenario.name} never got through`).toBeDefined();
      expect(await prepared.moved()).toEqual(prepared.once);
      expect(before).not.toEqual(prepared.once);
    });

    it(`${scenario.name}: a write whose answer was lost is retried into the first answer, the money moved once`, async () => {
      const prepared = await scenario.prepare();
      injector.loseNextWriteAnswer();
      const lost = await prepared.send();
      figures.lostAnswers++;
      expect(lost.status, JSON.stringify(lost.body)).toBe(503);
      const retried = await prepared.send();
      expect(retried.status, JSON.stringify(retried.body)).toBeLessThan(300);
      const again = await prepared.send();
      expect(again.status, JSON.stringify(again.body)).toBe(retried.status);
      expect(again.body).toEqual(scenario.repeated ? scenario.repeated(retried.body) : retried.body);
      expect(await prepared.moved()).toEqual(prepared.once);
    });

    // A store's notification delivered again is answered anew (`duplicate`); every other replay is the first answer.
    if (!scenario.repeated)
      it(`${scenario.name}: the same request again answers the first answer byte for byte`, async () => {
        const prepared = await scenario.prepare();
        const first = await prepared.send();
        expect(first.status, first.text).toBeLessThan(300);
        const again = await prepared.send();
        expect({ status: again.status, text: again.text }).toEqual({ status: first.status, text: first.text });
      });
  }

  it('every balance of the table equals the sum of its ledger', async () => {
    expect(ledgerMismatches(await scanAll(deps))).toEqual([]);
    console.log(`money faults: ${JSON.stringify(figures)}`);
    expect(figures.faultsInjected).toBeGreaterThan(scenarios.length * Object.keys(faults).length);
  });
});
