import { beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { Ed25519Keypair } from '@mysten/sui/keypairs/ed25519';
import { Secp256k1Keypair } from '@mysten/sui/keypairs/secp256k1';
import { Secp256r1Keypair } from '@mysten/sui/keypairs/secp256r1';
import type { Keypair } from '@mysten/sui/cryptography';
import { createAllApps } from '../functions/apps.js';
import { findAccount } from '../core/identity/accounts.js';
import { call } from './support/http.js';
import { createTestDeps, itemCount as countItems, type TestDeps } from './support/deps.js';
import { merchantWithToken } from './support/merchants.js';
import { gamePayload, newCode } from './support/games.js';
import { giveTickets } from './support/payments.js';
import { pastWeek, rewardGame, scoresInPastWeek } from './support/rewards.js';
import { settleSeason } from '../core/rewards/settlement.js';

let deps: TestDeps;
let app: ReturnType<typeof createAllApps>;
const base = '/v2-testing';

beforeAll(async () => {
  deps = await createTestDeps();
  app = createAllApps(deps);
});

const itemCount = () => countItems(deps);

async function nonceFor(address: string) {
  const res = await call(app, 'GET', `${base}/account/nonce`, { query: { address } });
  expect(res.status).toBe(200);
  return res.body.data as { nonce: string; message: string; expiresAt: string };
}

async function signedNonce(keypair: Keypair) {
  const address = keypair.toSuiAddress();
  const { message } = await nonceFor(address);
  const { signature } = await keypair.signPersonalMessage(new TextEncoder().encode(message));
  return { address, signature, message };
}

const register = (body: unknown) => call(app, 'POST', `${base}/account/register/chainwallet`, { body });

describe('getNonce', () => {
  it('gives a 5-minute sign-in message naming the address, normalised to lower case', async () => {
    const address = Ed25519Keypair.generate().toSuiAddress();
    const res = await call(app, 'GET', `${base}/account/nonce`, { query: { address: address.toUpperCase().replace('0X', '0x') } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ statusCode: 200, message: 'success', totalPage: 1 });
    expect(res.body.data.address).toBe(address);
    expect(res.body.data.message).toContain(address);
    expect(res.body.data.message).toContain(res.body.data.nonce);
    const lifetime = Date.parse(res.body.data.expiresAt) - Date.now();
    expect(lifetime).toBeGreaterThan(4 * 60_000);
    expect(lifetime).toBeLessThanOrEqual(5 * 60_000);
  });

  it.each([['0x1234'], ['not-an-address'], [`0x${'g'.repeat(64)}`]])('refuses %s with a 400 naming the field', async (address) => {
    const res = await call(app, 'GET', `${base}/account/nonce`, { query: { address } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ statusCode: 400, message: expect.stringMatching(/^query\.address/), error: 'input.invalid' });
  });
});

describe('chainwallet_register', () => {
  it.each([
    ['Ed25519', () => Ed25519Keypair.generate()],
    ['Secp256k1', () => Secp256k1Keypair.generate()],
    ['Secp256r1', () => Secp256r1Keypair.generate()],
  ] as const)('binds a %s wallet to a new user and returns the token pair', async (_scheme, makeKeypair) => {
    const keypair = makeKeypair();
    const uuid = randomUUID();
    const { address, signature } = await signedNonce(keypair);
    const res = await register({ uuid, address, signature });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      platformToken: { accessToken: expect.any(String), expiresAt: expect.any(String) },
      gameToken: { accessToken: expect.any(String), expiresAt: expect.any(String) },
    });
    expect(await deps.tokens.verify(res.body.platformToken.accessToken, ['platform'])).toMatchObject({ sub: uuid, kind: 'platform' });
    const game = await deps.tokens.verify(res.body.gameToken.accessToken, ['game']);
    expect(game).toMatchObject({ sub: uuid, kind: 'game' });
    expect(game.game_code).toBeUndefined();
    await expect(deps.tokens.verify(res.body.platformToken.accessToken, ['game'])).rejects.toMatchObject({ kind: 'Unauthenticated' });
    expect(await findAccount(deps, uuid)).toMatchObject({ uid: uuid, wallet_address: address, wallet_type: 1, status: 1, private_key: '' });
  });

  it('signs the same user in again with a new nonce, keeping the account', async () => {
    const keypair = Ed25519Keypair.generate();
    const uuid = randomUUID();
    expect((await register({ uuid, ...(await signedNonce(keypair)) })).status).toBe(200);
    const account = await findAccount(deps, uuid);
    const again = await register({ uuid, ...(await signedNonce(keypair)) });
    expect(again.status).toBe(200);
    expect(await findAccount(deps, uuid)).toEqual(account);
  });

  it('refuses a replayed signature: the nonce was consumed with the binding', async () => {
    const keypair = Secp256k1Keypair.generate();
    const body = { uuid: randomUUID(), ...(await signedNonce(keypair)) };
    expect((await register(body)).status).toBe(200);
    const before = await itemCount();
    const replay = await register(body);
    expect(replay.status).toBe(401);
    expect(replay.body).toEqual({ statusCode: 401, message: expect.stringMatching(/nonce/), error: 'wallet.nonce_missing' });
    expect(await itemCount()).toBe(before);
  });

  it('refuses wrong, foreign and expired signatures with 401 and writes nothing', async () => {
    const keypair = Ed25519Keypair.generate();
    const address = keypair.toSuiAddress();
    const { message } = await nonceFor(address);
    const uuid = randomUUID();
    const before = await itemCount();

    const wrongMessage = await keypair.signPersonalMessage(new TextEncoder().encode(`${message}!`));
    expect((await register({ uuid, address, signature: wrongMessage.signature })).status).toBe(401);

    const foreign = await Ed25519Keypair.generate().signPersonalMessage(new TextEncoder().encode(message));
    const foreignRes = await register({ uuid, address, signature: foreign.signature });
    expect(foreignRes.status).toBe(401);
    expect(foreignRes.body.message).toMatch(/^signature/);

    const asTransaction = await keypair.signTransaction(new TextEncoder().encode(message));
    expect((await register({ uuid, address, signature: asTransaction.signature })).status).toBe(401);

    const good = await keypair.signPersonalMessage(new TextEncoder().encode(message));
    deps.setNow(new Date(Date.now() + 5 * 60_000 + 1000));
    try {
      const expired = await register({ uuid, address, signature: good.signature });
      expect(expired.status).toBe(401);
      expect(expired.body.message).toMatch(/nonce/);
    } finally {
      deps.setNow(undefined);
    }
    expect(await itemCount()).toBe(before);
    // The nonce is still good for its own signature within its lifetime.
    expect((await register({ uuid, address, signature: good.signature })).status).toBe(200);
  });

  it('refuses an address bound to another user and a user bound to another address (409)', async () => {
    const keypair = Ed25519Keypair.generate();
    const owner = randomUUID();
    expect((await register({ uuid: owner, ...(await signedNonce(keypair)) })).status).toBe(200);
    const before = await itemCount();
    const taken = await register({ uuid: randomUUID(), ...(await signedNonce(keypair)) });
    expect(taken.status).toBe(409);
    expect(taken.body.message).toMatch(/^address/);
    const second = await register({ uuid: owner, ...(await signedNonce(Secp256r1Keypair.generate())) });
    expect(second.status).toBe(409);
    expect(second.body.message).toMatch(/^uuid/);
    // Two nonces were issued (items), nothing else was written.
    expect(await itemCount()).toBe(before + 2);
  });

  it('lets exactly one of two players racing to bind the same address win', async () => {
    const keypair = Ed25519Keypair.generate();
    const signed = await signedNonce(keypair);
    const results = await Promise.all([register({ uuid: randomUUID(), ...signed }), register({ uuid: randomUUID(), ...signed })]);
    expect(results.map((r) => r.status).sort()).toEqual([200, expect.any(Number)].sort());
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status !== 200).every((r) => r.status === 401 || r.status === 409)).toBe(true);
  });

  it('refuses malformed input naming the field', async () => {
    const address = Ed25519Keypair.generate().toSuiAddress();
    const cases = [
      [{ uuid: 'nope', address, signature: 'AA==' }, /^body\.uuid/],
      [{ uuid: randomUUID(), address: '0x12', signature: 'AA==' }, /^body\.address/],
      [{ uuid: randomUUID(), address, signature: 'not base64!' }, /^body\.signature/],
      [{ uuid: randomUUID(), address }, /^body\.signature/],
    ] as const;
    for (const [body, field] of cases) {
      const res = await register(body);
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(field);
    }
  });
});

describe('chainwallet_register: a uuid the platform knows is taken only by that user', () => {
  /** An attacker who learned a player's id signs in with their own wallet under it. */
  async function takeOver(uuid: string, token?: string) {
    const attacker = Ed25519Keypair.generate();
    const signed = await signedNonce(attacker);
    const before = await itemCount();
    const res = await call(app, 'POST', `${base}/account/register/chainwallet`, {
      body: { uuid, address: signed.address, signature: signed.signature },
      token,
    });
    return { res, before, signed };
  }

  it('refuses a uuid holding tickets but no account (409, nothing written); a platform token of that user proves it', async () => {
    const uuid = randomUUID();
    // Value held for the id without an account (tickets credited before credits required one).
    await giveTickets(deps, uuid, 'legacy-project', 1, 500);
    const otherPlayer = (await register({ uuid: randomUUID(), ...(await signedNonce(Ed25519Keypair.generate())) })).body;

    const attempts = [
      undefined, // no proof
      otherPlayer.platformToken.accessToken, // a platform token of another user
      otherPlayer.gameToken.accessToken, // not a platform token
      (await deps.tokens.issue('game', uuid)).token, // the user's game token: not a platform token
      'not-a-token',
    ];
    for (const token of attempts) {
      const { res, before } = await takeOver(uuid, token);
      expect(res.status).toBe(409);
      expect(res.body).toEqual({
        statusCode: 409,
        message: expect.stringMatching(/^uuid: the platform already holds records/),
        error: 'wallet.user_has_records',
      });
      expect(await itemCount()).toBe(before);
    }
    expect(await findAccount(deps, uuid)).toBeUndefined();

    // The user, proven by a platform token of the uuid, binds a wallet.
    const own = await takeOver(uuid, (await deps.tokens.issue('platform', uuid)).token);
    expect(own.res.status).toBe(200);
    expect(await deps.tokens.verify(own.res.body.platformToken.accessToken, ['platform'])).toMatchObject({ sub: uuid });
    expect(await findAccount(deps, uuid)).toMatchObject({ uid: uuid, wallet_address: own.signed.address });
  });

  it('refuses a uuid that has reward history from a settled season (409, nothing written), so its rewards cannot be claimed by another wallet', async () => {
    const game = await rewardGame(deps, [{ rank: 1, amount: 1000 }]);
    const player = randomUUID();
    // The game's server reported the player's wins (no wallet named); the season was settled: rank 1, 1000.
    await scoresInPastWeek(deps, game, [{ id: player, wins: 5 }]);
    await settleSeason(deps, game.code, pastWeek());

    const { res, before } = await takeOver(player);
    expect(res.status).toBe(409);
    expect(res.body.message).toMatch(/^uuid: the platform already holds rewards/);
    expect(await itemCount()).toBe(before);
    expect(await findAccount(deps, player)).toBeUndefined();
  });

  it("keeps an account's wallet: another address is 409 even with the account's own platform token", async () => {
    const owner = Ed25519Keypair.generate();
    const uuid = randomUUID();
    const pair = (await register({ uuid, ...(await signedNonce(owner)) })).body;
    for (const token of [undefined, pair.platformToken.accessToken]) {
      const { res, before } = await takeOver(uuid, token);
      expect(res.status).toBe(409);
      expect(res.body.message).toMatch(/^uuid/);
      expect(await itemCount()).toBe(before);
    }
    expect((await findAccount(deps, uuid))?.wallet_address).toBe(owner.toSuiAddress());
  });

  it('binds a uuid the platform knows nothing of with no token, as before', async () => {
    const { res } = await takeOver(randomUUID());
    expect(res.status).toBe(200);
  });
});

describe('chainwallet/token', () => {
  it('issues a game token for an existing game, 404 for an unknown one, and needs a platform token', async () => {
    const { token } = await merchantWithToken(deps);
    const code = newCode();
    expect((await call(app, 'POST', `${base}/merchant/games/save`, { token, body: gamePayload(code) })).status).toBe(200);
    const keypair = Ed25519Keypair.generate();
    const uuid = randomUUID();
    const pair = (await register({ uuid, ...(await signedNonce(keypair)) })).body;

    const res = await call(app, 'GET', `${base}/account/chainwallet/token`, { token: pair.platformToken.accessToken, query: { game_code: code } });
    expect(res.status).toBe(200);
    expect(res.body.data.game_code).toBe(code);
    expect(await deps.tokens.verify(res.body.data.accessToken, ['game'])).toMatchObject({ sub: uuid, game_code: code });

    const unknown = await call(app, 'GET', `${base}/account/chainwallet/token`, {
      token: pair.platformToken.accessToken,
      query: { game_code: 'no-such-game' },
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ statusCode: 404, message: expect.stringMatching(/^game_code/), error: 'game.not_found' });

    const withGameToken = await call(app, 'GET', `${base}/account/chainwallet/token`, { token: pair.gameToken.accessToken, query: { game_code: code } });
    expect(withGameToken.status).toBe(401);
    expect((await call(app, 'GET', `${base}/account/chainwallet/token`, { query: { game_code: code } })).status).toBe(401);
  });
});
