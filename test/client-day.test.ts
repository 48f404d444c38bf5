import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import {
  createHeroClient,
  createMainClient,
  type MainClient,
  type PlayerSession,
  settle,
  signInWithSuiWallet,
  signInWithZkLogin,
  StoreApp,
  unwrap,
} from '@game-platform/client';
import { Ed25519Keypair, Ed25519PublicKey } from '@mysten/sui/keypairs/ed25519';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { demoServerEnv, killLocalServers, startLocalServer, type LocalServer } from './support/local-server.js';
import { contractCheckedFetch } from './support/contract-answers.js';
import { startOAuthIssuer, type TestIssuer } from './support/oauth-issuer.js';
import { KIT_PACKAGE, payThroughKit } from './support/payment-kit.js';
import { startSuiGraphQL, type SuiGraphQL } from './support/sui-graphql.js';

/**
 * A player's day and a studio's game server, written with the TypeScript client (clients/ts) as a game would
 * write them, against `npm start`: the merchant opens a shop; a player signs in with a Sui wallet, buys tickets
 * (the payment on the suite's loopback chain), spends one in the game; the game server deducts tickets with
 * Idempotency-Keys, reports results and reads the boards; the player adopts a pet through the partner store's
 * code flow. Then the server is started again with its clock eight days on: the week has ended and been
 * settled, every player token has expired (the client renews them), the player signs a reward claim and
 * upgrades a hero the game granted.
 */
const STAGE_BASE = '/v2-testing';
const HERO_BASE = '/hero-testing';
const GAME = 'demo-arena';
const REDIRECT = 'https://pets.example/callback';
const ADMIN = { email: 'ops@example.com', password: 'an admin password for this test' };
const DAY_MS = 86_400_000;

let chain: SuiGraphQL;
let issuer: TestIssuer;
let server: LocalServer;
let dataDir: string;
let env: Record<string, string>;
const origin = () => server.base;
/** Every answer the clients receive is checked against the OpenAPI document, as the suite's in-process answers are. */
const fetch = contractCheckedFetch();
const api = (token?: string): MainClient => createMainClient({ baseUrl: origin() + STAGE_BASE, fetch, ...(token ? { token } : {}) });

beforeAll(async () => {
  [chain, issuer] = await Promise.all([startSuiGraphQL(), startOAuthIssuer()]);
  dataDir = join(mkdtempSync(join(tmpdir(), 'client-day-')), 'data');
  env = demoServerEnv(dataDir, chain.url, { SETTLEMENT_INTERVAL_MS: '500', OAUTH_PROVIDERS: JSON.stringify([issuer.provider('google', ['pets-game'])]) });
  server = await startLocalServer(env);
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await killLocalServers();
  await Promise.all([chain?.stop(), issuer?.stop()]);
});

/** What the studio set up in the console, as the shop of the day. */
interface Shop {
  server: string;
  project: string;
  priceId: number;
}
let shop: Shop;
let player: PlayerSession;
let wallet: Ed25519Keypair;
let signatures = 0;
/** The order the player paid. */
let paidBill: string;

/** `npm run admin -- register-store-client …` against the server's DynamoDB and table, as an operator registers one. */
async function registerStoreClient(args: string[]): Promise<string> {
  const { stdout } = await promisify(execFile)('npm', [
    'run',
    '-s',
    'admin',
    '--',
    'register-store-client',
    ...args,
    '--table',
    env.DYNAMODB_TABLE!,
    '--endpoint',
    env.AWS_ENDPOINT_URL_DYNAMODB!,
  ]);
  return (JSON.parse(stdout) as { client_id: string }).client_id;
}

describe('a day with the TypeScript client against npm start', () => {
  it('the studio opens a shop: a project, a price level, a reward table, the game on chain, a server token', async () => {
    const { password } = JSON.parse(readFileSync(join(dataDir, 'demo-credentials.json'), 'utf8')) as { password: string };
    const login = await unwrap(api().POST('/merchant/login', { body: { email: 'demo-merchant@example.com', password } }));
    const console_ = api(login.accessToken);
    const project = `arena-${Date.now().toString(36)}`;
    const receiver = Ed25519Keypair.generate().toSuiAddress();
    await unwrap(console_.POST('/merchant/projects', { body: { project_name: project, receive_address: receiver, coin_type: '0x2::sui::SUI', precison: 9 } }));
    const level = await unwrap(
      console_.POST('/merchant/projects/levels', { body: { project_name: project, level: 1, amount: 100_000_000, tickets: 100, status: 1 } }),
    );
    await unwrap(console_.POST('/merchant/games/rewards', { body: { game_code: GAME, board: 'wins', rewards: [{ rank: 1, amount: 5_000_000 }] } }));
    await unwrap(console_.POST('/merchant/games/update', { body: { code: GAME, object_id: Ed25519Keypair.generate().toSuiAddress() } }));
    const token = await unwrap(console_.GET('/merchant/token'));
    shop = { server: token.accessToken, project, priceId: level.priceId };
  });

  it('a player signs in with a Sui wallet, buys 100 tickets on chain and spends one in the game', async () => {
    wallet = Ed25519Keypair.generate();
    // The wallet, counting what it signs.
    const signer = {
      toSuiAddress: () => wallet.toSuiAddress(),
      signPersonalMessage: (bytes: Uint8Array) => {
        signatures++;
        return wallet.signPersonalMessage(bytes);
      },
    };
    player = await signInWithSuiWallet({ baseUrl: origin() + STAGE_BASE, fetch, signer, gameCode: GAME });
    expect(signatures).toBe(1);
    const order = await unwrap(
      player.api.POST('/account/user/rechargeOrder', {
        body: { userId: player.userId, project: shop.project, priceId: shop.priceId, prevId: -1, level: 1, amount: 100_000_000 },
      }),
    );
    expect(order).toMatchObject({ status: 0, amount_base: '100000000', tickets: 100 });
    const deposit = await unwrap(player.api.GET('/account/user/getDepositaddress', { params: { query: { project: shop.project, orderId: order.id } } }));
    // The wallet pays the order's payment URI; the loopback chain emits the Payment Kit's receipt.
    const paid = payThroughKit(chain.script, {
      nonce: order.bill_no,
      amount: order.amount_base,
      receiver: deposit.receive_address,
      sender: wallet.toSuiAddress(),
      registry: 'ephemeral',
    });
    const completed = await unwrap(player.api.POST('/account/user/orderComplete', { body: { orderId: order.id, transactionId: paid.txDigest } }));
    expect(completed).toMatchObject({ uid: player.userId, wallet_address: wallet.toSuiAddress(), status: 1 });
    paidBill = order.bill_no;

    // minus_tickets takes a game token (the session's game's), tickets the platform token: the session picks.
    const spent = await unwrap(
      player.api.POST('/account/game/minus_tickets', { body: { userId: player.userId, projectName: shop.project, level: 1, amount: 1 } }),
    );
    expect(spent).toMatch(/^minus#/);
    const tickets = await unwrap(player.api.GET('/account/game/tickets', { params: { query: { projectName: shop.project, level: 1 } } }));
    expect(tickets).toMatchObject({ balance: 99 });
  });

  it("unwrap answers the payload, one rule for every operation and typed so: the bare record, or the envelope's data; settle the whole answer", async () => {
    const same = async <T>(call: () => Promise<{ data?: T; response: Response }>) => {
      const whole = await settle(call());
      if (!whole.ok) throw whole.error;
      return { payload: await unwrap(call()), whole: whole.data };
    };
    // A bare record (rechargeOrder): the body itself.
    const body = { userId: player.userId, project: shop.project, priceId: shop.priceId, prevId: -1, level: 1, amount: 100_000_000 };
    const order = await unwrap(player.api.POST('/account/user/rechargeOrder', { body }));
    expectTypeOf(order.bill_no).toEqualTypeOf<string>();
    const answered = await settle(player.api.POST('/account/user/rechargeOrder', { body }));
    expect(answered.ok && Object.keys(answered.data).sort()).toEqual(Object.keys(order).sort());
    expect(order).toMatchObject({ status: 0, tickets: 100 });

    // A list in the account envelope `{data, statusCode, message, totalPage}`: the list; settle has the page count.
    const deposits = await same(() => player.api.GET('/account/user/deposit', { params: { query: { page: 0, pageSize: 10 } } }));
    expectTypeOf(deposits.payload).toBeArray();
    expectTypeOf(deposits.whole.totalPage).toEqualTypeOf<number>();
    expect(deposits.payload.map((d) => d.order?.bill_no)).toEqual([paidBill]);
    expect(deposits.whole).toEqual({ data: deposits.payload, statusCode: 200, message: 'success', totalPage: 1 });

    // One record in the account envelope: the record.
    const tickets = await same(() => player.api.GET('/account/game/tickets', { params: { query: { projectName: shop.project, level: 1 } } }));
    expectTypeOf(tickets.payload).toEqualTypeOf<{ userId: string; projectName: string; level: number; balance: number }>();
    expect(tickets.payload).toEqual({ userId: player.userId, projectName: shop.project, level: 1, balance: 99 });
    expect(tickets.whole).toEqual({ data: tickets.payload, statusCode: 200, message: 'success', totalPage: 1 });

    // The merchant envelope `{code, message, data}`: its data.
    const boards = await same(() => api().GET('/merchant/games/rank', { params: { query: { game_code: GAME } } }));
    expectTypeOf(boards.payload.gameWeekWinRank).toBeArray();
    expect(Object.keys(boards.payload).sort()).toEqual(['gameMothKillRank', 'gameMothWinRank', 'gameWeekKillRank', 'gameWeekWinRank']);
    expect(boards.whole).toEqual({ code: 200, message: 'success', data: boards.payload });

    // An error is thrown whatever the envelope, as its ApiError.
    await expect(unwrap(api().GET('/merchant/games/rank', { params: { query: { game_code: 'no-such-game' } } }))).rejects.toMatchObject({
      name: 'ApiError',
      status: 404,
    });
  });

  it('the game server deducts concurrently with a key per match, a retried match takes once, and reports the results', async () => {
    const gameServer = api(shop.server);
    const deduct = (key?: string) =>
      gameServer.POST('/account/game/minus_tickets', {
        body: { userId: player.userId, projectName: shop.project, level: 1, amount: 2 },
        ...(key ? { params: { header: { 'Idempotency-Key': key } } } : {}),
      });
    const matches = await Promise.all(Array.from({ length: 10 }, () => unwrap(deduct())));
    expect(new Set(matches).size).toBe(10);
    const first = await unwrap(deduct('match-7'));
    expect(await unwrap(deduct('match-7'))).toEqual(first);
    const balance = await unwrap(player.api.GET('/account/game/tickets', { params: { query: { projectName: shop.project, level: 1 } } }));
    expect(balance).toMatchObject({ balance: 99 - 10 * 2 - 2 });

    // A deduction past the balance is refused, once, with its code.
    const short = await settle(
      gameServer.POST('/account/game/minus_tickets', { body: { userId: player.userId, projectName: shop.project, level: 1, amount: 1000 } }),
    );
    expect(short.ok ? 'passed' : short.error.code).toBe('tickets.balance_short');

    for (const [kills, wins] of [
      [3, 1],
      [4, 1],
    ] as const)
      await unwrap(
        gameServer.POST('/merchant/games/addWin', { body: { game_code: GAME, game_player_id: player.userId, game_player_name: 'Wallet player', kills, wins } }),
      );
    // gameRank is a stream batch behind the reports: the local server's loop applies them within moments.
    const boards = () => unwrap(api().GET('/merchant/games/rank', { params: { query: { game_code: GAME } } }));
    await expect
      .poll(async () => (await boards()).gameWeekKillRank[0], { timeout: 30_000, interval: 100 })
      .toMatchObject({ total: '7', game_player_id: player.userId });
    const rank = await boards();
    expect(rank.gameWeekWinRank[0]).toMatchObject({ total: '2', game_player_id: player.userId });
    expect(rank.gameWeekKillRank[0]).toMatchObject({ total: '7', game_player_id: player.userId });
  });

  it('a second player signs in with zkLogin: the same identity is the same user and address at every sign-in', async () => {
    const sub = `google-user-${Date.now()}`;
    const idToken = () => issuer.sign({ sub, aud: 'pets-game' });
    const first = await signInWithZkLogin({ baseUrl: origin() + STAGE_BASE, fetch, idToken });
    const again = await signInWithZkLogin({ baseUrl: origin() + STAGE_BASE, fetch, idToken });
    expect({ userId: again.userId, address: again.address }).toEqual({ userId: first.userId, address: first.address });
    const info = await unwrap(api().GET('/account/zk/info', { headers: { authorization: `Bearer ${await idToken()}` } }));
    expect(info.address).toBe(first.address);
  });

  it('the player adopts a pet in the partner store through a partner app (authorization code with PKCE)', async () => {
    const { privateKey, publicKey } = await generateKeyPair('ES256');
    const partner = await registerStoreClient([
      '--region',
      'default',
      '--type',
      'confidential',
      '--name',
      'Partner backend',
      '--redirect-uri',
      REDIRECT,
      '--scope',
      'profile',
      '--assertion-jwk',
      JSON.stringify(await exportJWK(publicKey)),
    ]);
    const petApp = await registerStoreClient(['--region', 'default', '--type', 'public', '--name', 'Pet app', '--redirect-uri', REDIRECT, '--scope', 'pets']);
    const storeIssuer = `${origin()}${STAGE_BASE}/store`;
    // The partner's backend signs its user in; the store's front end keeps that session for the consent page.
    const assertion = await new SignJWT({})
      .setProtectedHeader({ alg: 'ES256' })
      .setIssuer(partner)
      .setSubject(`partner-user-${player.userId}`)
      .setAudience(storeIssuer)
      .setIssuedAt()
      .setExpirationTime('2m')
      .setJti(crypto.randomUUID())
      .sign(privateKey);
    const { session } = await unwrap(api().POST('/store/login', { body: { assertion } }));

    const app = await StoreApp.discover({
      baseUrl: origin() + STAGE_BASE,
      issuer: storeIssuer,
      clientId: petApp,
      redirectUri: REDIRECT,
      scope: 'pets',
      allowInsecureRequests: true,
    });
    const { url, pending } = await app.authorization();
    // The user's browser: the consent page, and Allow.
    const page = await fetch(new Request(url));
    const html = await page.text();
    const requestId = /data-request-id="([^"]+)"/.exec(html)![1]!;
    const acceptUrl = new URL(/data-accept-url="([^"]+)"/.exec(html)![1]!, url);
    const accepted = await fetch(
      new Request(acceptUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${session}` },
        body: JSON.stringify({ request_id: requestId, decision: 'allow' }),
      }),
    );
    const { redirect_to } = (await accepted.json()) as { redirect_to: string };

    const store = await app.complete(new URL(redirect_to), pending);
    const pet = await unwrap(store.api.POST('/store/pets/adopt', { body: { name: 'Mochi', species: 'cat' } }));
    expect(pet).toMatchObject({ pet: { name: 'Mochi', species: 'cat', level: 1 }, paid: 0 });
    const pets = await unwrap(store.api.GET('/store/pets'));
    expect(JSON.stringify(pets)).toContain('Mochi');
  });

  it('eight days on: tokens renewed, the week settled, a reward claim signed, a granted hero upgraded', async () => {
    const port = new URL(origin()).port;
    await server.stop();
    server = await startLocalServer({
      ...env,
      PORT: port,
      CLOCK_OFFSET_MS: String(8 * DAY_MS),
      SEED_ADMIN_EMAIL: ADMIN.email,
      SEED_ADMIN_PASSWORD: ADMIN.password,
    });
    // The player's session goes on: its tokens have expired by the server's clock, not by this machine's, so the
    // first calls are refused (401 auth.token_expired) and the session renews them: the wallet signs in again.
    const signaturesBefore = signatures;

    // Settlement closes the week the results were reported in; the player was first, and is paid.
    let entry: { id: number; reward_amount: number } | undefined;
    for (let tries = 0; !entry && tries < 60; tries++) {
      const history = await unwrap(player.api.GET('/chain/reward/history', { params: { query: { page: 0, pageSize: 10 } } }));
      entry = history.find((e) => e.reward_amount > 0);
      if (!entry) await new Promise((r) => setTimeout(r, 500));
    }
    expect(signatures).toBe(signaturesBefore + 1);
    expect(entry, server.output().split('\n').slice(-30).join('\n')).toMatchObject({ reward_amount: 5_000_000 });
    const claim = await unwrap(player.api.POST('/merchant/sign/code', { body: { id: entry!.id } }));
    expect(claim).toMatchObject({ recipient: wallet.toSuiAddress(), amount: '5000000', scheme: 'ed25519' });
    const key = new Ed25519PublicKey(Buffer.from(claim.public_key, 'base64'));
    expect(await key.verify(Buffer.from(claim.message, 'hex'), Buffer.from(claim.signature, 'base64'))).toBe(true);

    // The hero game: an admin configures it, the game's server grants a hero, the player pays a level in tickets.
    const admin = await unwrap(api().POST('/merchant/login', { body: ADMIN }));
    const heroBase = origin() + HERO_BASE;
    await unwrap(
      createHeroClient({ baseUrl: heroBase, fetch, token: admin.accessToken }).PUT('/heroes/config', {
        body: { heroType: `${KIT_PACKAGE}::hero::Hero`, maxLevel: 2, projectName: shop.project, levelCosts: [{ level: 2, ticketLevel: 1, amount: 5 }] },
      }),
    );
    const granted = await unwrap(
      createHeroClient({ baseUrl: heroBase, fetch, token: shop.server }).POST('/heroes/grant', {
        body: { userId: player.userId, projectName: shop.project, reference: 'welcome-hero' },
      }),
    );
    const heroes = player.hero(heroBase);
    const upgraded = await unwrap(heroes.POST('/heroes/upgrade-level', { body: { userId: player.userId, itemIds: [granted.id] } }));
    expect(upgraded).toMatchObject({ heroes: [{ id: granted.id, level: 2 }], ticketsSpent: [{ projectName: shop.project, level: 1, amount: 5 }] });
    const tickets = await unwrap(player.api.GET('/account/game/tickets', { params: { query: { projectName: shop.project, level: 1 } } }));
    expect(tickets).toMatchObject({ balance: 99 - 22 - 5 });
  }, 120_000);
});
