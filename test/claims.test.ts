import { createPublicKey, randomUUID, verify } from 'node:crypto';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { Ed25519Keypair, Ed25519PublicKey } from '@mysten/sui/keypairs/ed25519';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAllApps } from '../functions/apps.js';
import { indexEvents } from '../core/chain/indexer.js';
import { paymentHandlers } from '../core/payments/indexer-handlers.js';
import { createChain, parseChainConfig } from '../core/chain/source.js';
import type { ChainEvent } from '../core/chain/types.js';
import { claimHandlers, recordClaimEvent } from '../core/rewards/claim-events.js';
import { createClaimSigner, generateClaimKey } from '../core/rewards/claim-key.js';
import { CLAIM_TTL_MS, MAX_CLAIM_SIGNINGS, claimTerms } from '../core/rewards/claims.js';
import { historyEntryKey } from '../core/rewards/keys.js';
import { settleSeason } from '../core/rewards/settlement.js';
import { call } from './support/http.js';
import { createTestDeps, itemCount, type TestDeps } from './support/deps.js';
import { playerWithTokens } from './support/payments.js';
import { commandCounter } from './support/rankings.js';
import { claimableGame, pastWeek, scoresInPastWeek, setGameObject } from './support/rewards.js';
import { RewardClaim, redeemClaim as redeem, rewardClaimed, type Verifier } from '../tools/local/dev-chain/claim-verifier.js';
import { ChainScript, PACKAGE, PAYMENT_TYPE, randomAddress, randomDigest, startSuiNode, type ScriptEvent } from './support/sui-node.js';

/**
 * Reward claims (docs/claims.md): sign_code and get_sign, the Ed25519 signature over the BCS of
 * RewardClaim checked independently (node:crypto, Sui's Ed25519PublicKey and the development chain's verifier,
 * whose BCS layout and checks are written from docs/claims.md, not taken from the platform's signing code): a
 * claim of game A is refused by game B's verifier, expiry and re-signing, and the claim event through the indexer.
 */

let deps: TestDeps;
let app: ReturnType<typeof createAllApps>;
const base = '/v2-testing';
const signPath = `${base}/merchant/sign/code`;
const getPath = `${base}/merchant/sign`;
const stops: (() => Promise<void>)[] = [];

beforeAll(async () => {
  deps = await createTestDeps();
  app = createAllApps(deps);
});
afterAll(async () => {
  for (const stop of stops) await stop();
});

/** `type_name::get<0x2::sui::SUI>().into_string()`. */
const SUI = `${'0'.repeat(63)}2::sui::SUI`;

const verifierOf = (game: string, overrides: Partial<Verifier> = {}): Verifier => ({
  publicKey: deps.claims!.publicKey,
  chain: 'sui:testnet',
  game,
  coinType: SUI,
  redeemed: new Set(),
  ...overrides,
});

const bytesOf = (signed: { message: string; signature: string }) => ({
  message: Buffer.from(signed.message, 'hex'),
  signature: Buffer.from(signed.signature, 'base64'),
});

/** Ed25519 verification with node:crypto from the raw 32-byte public key (SPKI = fixed prefix + key). */
function ed25519Verify(publicKey: Buffer, message: Buffer, signature: Buffer): boolean {
  const key = createPublicKey({ key: Buffer.concat([Buffer.from('302a300506032b6570032100', 'hex'), publicKey]), format: 'der', type: 'spki' });
  return verify(null, message, key, signature);
}

interface Entry {
  id: number;
  platform_player_id: string;
  wallet_address: string;
  reward_amount: number;
  status: number;
  rank: number;
}

/**
 * A settled past week of a fresh game (its object_id `objectId`, random by default, null for none) where
 * `players` (ids, wins, wallets) placed in that order, with rewards 500, 200 for ranks 1 and 2 and nothing for
 * rank 3; answers the game and the season's entries by rank.
 */
async function settled(on: TestDeps, players: { id: string; wallet?: string }[], objectId?: string | null) {
  const game = await claimableGame(
    on,
    [
      { rank: 1, amount: 500 },
      { rank: 2, amount: 200 },
      { rank: 4, amount: 1 },
    ],
    objectId,
  );
  await scoresInPastWeek(
    on,
    game,
    players.map((p, i) => ({ ...p, wins: 10 - i })),
  );
  await settleSeason(on, game.code, pastWeek());
  const res = await call(createAllApps(on), 'GET', `${base}/merchant/games/history/rank`, {
    query: { game_code: game.code, season_type: 1, season_range: pastWeek().range },
  });
  return { game, entries: res.body.data as Entry[] };
}

const settledEntries = async (on: TestDeps, players: { id: string; wallet?: string }[]) => (await settled(on, players)).entries;

/** The apps on `on` with its clock at `at` (tokens keep the real clock: only the claims see the time). */
const appAt = (on: TestDeps, at: number) => createAllApps({ ...on, now: () => new Date(at) });

async function entryItem(on: TestDeps, id: number) {
  return (await on.db.send(new GetCommand({ TableName: on.table, Key: historyEntryKey(id), ConsistentRead: true }))).Item!;
}

describe('sign_code (POST /merchant/sign/code) and get_sign (GET /merchant/sign)', () => {
  it('signs the BCS of RewardClaim (chain, game object, coin, expiry) with Ed25519, verifiable on its own; status 0 -> 1; the same signature again', async () => {
    const player = await playerWithTokens(deps);
    const {
      game,
      entries: [entry],
    } = await settled(deps, [{ id: player.uid }, { id: 'other' }]);
    expect(entry).toMatchObject({ platform_player_id: player.uid, wallet_address: player.address, reward_amount: 500, status: 0 });

    const before = await call(app, 'GET', getPath, { token: player.platform, query: { id: entry!.id } });
    expect(before.status).toBe(409);
    expect(before.body).toEqual({
      code: 409,
      message: expect.stringMatching(/^id: .*not signed|^id: .*no signed claim/),
      data: null,
      error: 'claim.not_signed',
    });

    const counter = commandCounter(deps);
    const at = Date.now();
    counter.start();
    const signed = await call(appAt(deps, at), 'POST', signPath, { token: player.platform, body: { id: entry!.id } });
    // Whether the player deleted their account (the authorization layer, fresh on a write) with the entry in one
    // batch, the game's object_id, the conditional write.
    expect(counter.stop()).toEqual({ BatchGetItem: 1, GetItem: 1, UpdateItem: 1 });
    expect(signed.status, JSON.stringify(signed.body)).toBe(200);
    const claim = signed.body.data;
    expect(signed.body).toEqual({
      code: 200,
      message: 'success',
      data: {
        id: entry!.id,
        recipient: player.address,
        amount: '500',
        nonce: expect.stringMatching(/^\d{1,20}$/),
        message: expect.stringMatching(/^[0-9a-f]+$/),
        signature: expect.any(String),
        public_key: Buffer.from(deps.claims!.publicKey).toString('base64'),
        scheme: 'ed25519',
        // The test stage's claim key names no chain or coin: a non-production stage's defaults.
        chain: 'sui:testnet',
        game: game.objectId,
        coin_type: SUI,
        expires_at_ms: at + CLAIM_TTL_MS,
      },
    });
    expect(CLAIM_TTL_MS).toBe(3_600_000);

    // The message is exactly the BCS of the struct: the strings ULEB128-length-prefixed, the object id and the
    // address 32 bytes, the u64s little-endian; nothing before or after.
    const message = Buffer.from(claim.message, 'hex');
    expect(RewardClaim.parse(message)).toEqual({
      chain: 'sui:testnet',
      game: game.objectId,
      coin_type: SUI,
      history_id: String(entry!.id),
      recipient: player.address,
      amount: '500',
      nonce: claim.nonce,
      expires_at_ms: String(at + CLAIM_TTL_MS),
    });
    const chainEnd = 1 + 'sui:testnet'.length;
    const coinEnd = chainEnd + 32 + 1 + SUI.length;
    expect(message.length).toBe(coinEnd + 8 + 32 + 8 + 8 + 8);
    expect([message[0], message.subarray(1, chainEnd).toString()]).toEqual(['sui:testnet'.length, 'sui:testnet']);
    expect(`0x${message.subarray(chainEnd, chainEnd + 32).toString('hex')}`).toBe(game.objectId);
    expect([message[chainEnd + 32], message.subarray(chainEnd + 33, coinEnd).toString()]).toEqual([SUI.length, SUI]);
    expect(message.readBigUInt64LE(coinEnd)).toBe(BigInt(entry!.id));
    expect(`0x${message.subarray(coinEnd + 8, coinEnd + 40).toString('hex')}`).toBe(player.address);
    expect(message.readBigUInt64LE(coinEnd + 40)).toBe(500n);
    expect(message.readBigUInt64LE(coinEnd + 48)).toBe(BigInt(claim.nonce));
    expect(message.readBigUInt64LE(coinEnd + 56)).toBe(BigInt(at + CLAIM_TTL_MS));
    const signature = Buffer.from(claim.signature, 'base64');
    const publicKey = Buffer.from(claim.public_key, 'base64');
    expect([signature.length, publicKey.length]).toEqual([64, 32]);
    expect(ed25519Verify(publicKey, message, signature)).toBe(true);
    expect(await new Ed25519PublicKey(publicKey).verify(message, signature)).toBe(true);
    const otherAmount = Buffer.from(message);
    otherAmount.writeBigUInt64LE(2n ** 64n - 1n, coinEnd + 40);
    expect(ed25519Verify(publicKey, otherAmount, signature)).toBe(false);

    // Signing again (within the hour), reading it back, and concurrent signing all answer the same signature and nonce.
    counter.start();
    const again = await call(appAt(deps, at + CLAIM_TTL_MS - 1), 'POST', signPath, { token: player.platform, body: { id: entry!.id } });
    // Whether the player deleted their account (fresh on a write) with the entry, in one batch: one request.
    expect(counter.stop()).toEqual({ BatchGetItem: 1 });
    expect(again.body.data).toEqual(claim);
    counter.start();
    const read = await call(app, 'GET', getPath, { token: player.platform, query: { id: entry!.id } });
    // The entry: a read uses what the layer read of the player's deletion a moment ago.
    expect(counter.stop()).toEqual({ BatchGetItem: 1 });
    expect(read.body).toEqual(signed.body);
    expect((await entryItem(deps, entry!.id)).status).toBe(1);

    const history = await call(app, 'GET', `${base}/chain/reward/history`, { token: player.platform });
    expect(history.body.data).toEqual([expect.objectContaining({ id: entry!.id, status: 1 })]);
  });

  it('concurrent first signings store one signature that every caller gets', async () => {
    const player = await playerWithTokens(deps);
    const [entry] = await settledEntries(deps, [{ id: player.uid }]);
    const answers = await Promise.all(Array.from({ length: 6 }, () => call(app, 'POST', signPath, { token: player.platform, body: { id: entry!.id } })));
    expect(answers.map((a) => a.status)).toEqual(Array(6).fill(200));
    expect(new Set(answers.map((a) => JSON.stringify(a.body.data))).size).toBe(1);
    const stored = await entryItem(deps, entry!.id);
    expect(stored.claim.signature).toBe(answers[0]!.body.data.signature);
  });

  it("another player's entry is 404 as an unknown id is, for both operations; nothing written", async () => {
    const owner = await playerWithTokens(deps);
    const thief = await playerWithTokens(deps);
    const [entry] = await settledEntries(deps, [{ id: owner.uid }]);
    const before = await itemCount(deps);
    for (const [method, path, input] of [
      ['POST', signPath, { body: { id: entry!.id } }],
      ['GET', getPath, { query: { id: entry!.id } }],
    ] as const) {
      const res = await call(app, method, path, { token: thief.platform, ...input });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ code: 404, message: `id: no history entry ${entry!.id}`, data: null, error: 'access.not_found' });
    }
    expect((await call(app, 'POST', signPath, { token: thief.platform, body: { id: 987_654_321 } })).status).toBe(404);
    expect((await call(app, 'GET', getPath, { token: thief.platform, query: { id: 987_654_321 } })).status).toBe(404);
    expect(await itemCount(deps)).toBe(before);
    expect((await entryItem(deps, entry!.id)).status).toBe(0);
  });

  it('refuses (409) an entry without a reward and a player without any wallet; pays the account wallet when the score had none', async () => {
    const noReward = await playerWithTokens(deps);
    const uidNoWallet = randomUUID();
    const entries = await settledEntries(deps, [{ id: 'p1' }, { id: uidNoWallet }, { id: noReward.uid }]);
    expect(entries.map((e) => [e.rank, e.reward_amount, e.wallet_address])).toEqual([
      [1, 500, ''],
      [2, 200, ''],
      [3, 0, noReward.address],
    ]);
    const before = await itemCount(deps);
    const zero = await call(app, 'POST', signPath, { token: noReward.platform, body: { id: entries[2]!.id } });
    expect(zero.status).toBe(409);
    expect(zero.body.message).toMatch(/^id: .*no reward/);

    const noWalletToken = (await deps.tokens.issue('platform', uidNoWallet)).token;
    const noWallet = await call(app, 'POST', signPath, { token: noWalletToken, body: { id: entries[1]!.id } });
    expect(noWallet.status).toBe(409);
    expect(noWallet.body.message).toMatch(/^id: no wallet address/);
    expect(await itemCount(deps)).toBe(before);
    for (const entry of [entries[1]!, entries[2]!]) expect(await entryItem(deps, entry.id)).toMatchObject({ status: 0, wallet_address: entry.wallet_address });
    expect((await entryItem(deps, entries[1]!.id)).claim).toBeUndefined();

    // The player registers a wallet after the season closed: the claim pays that address.
    const keypair = Ed25519Keypair.generate();
    const { bindWallet } = await import('../core/identity/accounts.js');
    await bindWallet(deps, { uid: uidNoWallet, address: keypair.toSuiAddress(), walletType: 1 });
    const paid = await call(app, 'POST', signPath, { token: noWalletToken, body: { id: entries[1]!.id } });
    expect(paid.status).toBe(200);
    expect(paid.body.data).toMatchObject({ recipient: keypair.toSuiAddress(), amount: '200' });
    expect(await entryItem(deps, entries[1]!.id)).toMatchObject({ status: 1, wallet_address: keypair.toSuiAddress() });
  });

  it('is 503 on a stage without a claim key', async () => {
    const player = await playerWithTokens(deps);
    const [entry] = await settledEntries(deps, [{ id: player.uid }]);
    const noKey = createAllApps({ ...deps, claims: undefined });
    const before = await itemCount(deps);
    const res = await call(noKey, 'POST', signPath, { token: player.platform, body: { id: entry!.id } });
    expect(res.status).toBe(503);
    expect(res.body).toEqual({ code: 503, message: expect.any(String), data: null, error: 'claim.unconfigured' });
    expect(await itemCount(deps)).toBe(before);
    expect(await entryItem(deps, entry!.id)).toMatchObject({ status: 0 });
    expect((await entryItem(deps, entry!.id)).claim).toBeUndefined();
  });

  it('refuses (409, naming object_id) a game without an on-chain object, writing nothing; signs once its merchant sets one', async () => {
    const player = await playerWithTokens(deps);
    const {
      game,
      entries: [entry],
    } = await settled(deps, [{ id: player.uid }], null);
    const before = await itemCount(deps);
    const refused = await call(app, 'POST', signPath, { token: player.platform, body: { id: entry!.id } });
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({
      code: 409,
      message: expect.stringMatching(new RegExp(`^id: the game ${game.code} .* has no object_id`)),
      data: null,
      error: 'claim.game_without_object',
    });
    expect(await itemCount(deps)).toBe(before);
    const item = await entryItem(deps, entry!.id);
    expect([item.status, item.claim, item.claim_nonces]).toEqual([0, undefined, undefined]);
    expect((await call(app, 'GET', getPath, { token: player.platform, query: { id: entry!.id } })).status).toBe(409);

    const objectId = randomAddress();
    await setGameObject(deps, game, objectId);
    const signed = await call(app, 'POST', signPath, { token: player.platform, body: { id: entry!.id } });
    expect(signed.status).toBe(200);
    expect(signed.body.data.game).toBe(objectId);
    expect(RewardClaim.parse(Buffer.from(signed.body.data.message, 'hex')).game).toBe(objectId);
  });
});

describe("a claim is redeemable only at its own game's verifier, on its chain, in its coin, before it expires, once", () => {
  it("game A's claim is refused by game B's verifier (and by a wrong chain, coin, clock or sender); A's pays once", async () => {
    const player = await playerWithTokens(deps);
    // Two merchants' games; the player won a reward in A. B trusts the same stage claim key.
    const a = await settled(deps, [{ id: player.uid }]);
    const b = await settled(deps, [{ id: 'someone-at-b' }]);
    expect(a.game.owner.accountId).not.toBe(b.game.owner.accountId);
    const entry = a.entries[0]!;
    const at = Date.now();
    const signed = (await call(appAt(deps, at), 'POST', signPath, { token: player.platform, body: { id: entry.id } })).body.data;
    const { message, signature } = bytesOf(signed);
    const tx = { sender: player.address, clockMs: at + 1000 };

    // B's verifier: same key, chain and coin, another game object.
    const atB = verifierOf(b.game.objectId!);
    expect(await redeem(atB, message, signature, tx)).toEqual({ refused: 'EWrongGame' });
    // Rewriting the game in the bytes to B's breaks the signature.
    const forged = RewardClaim.serialize({ ...RewardClaim.parse(message), game: b.game.objectId! }).toBytes();
    expect(await redeem(atB, forged, signature, tx)).toEqual({ refused: 'EBadSignature' });
    expect(atB.redeemed.size).toBe(0);

    // A's object on another chain, or paying another coin; A's verifier at or after the expiry, or called by another sender.
    expect(await redeem(verifierOf(a.game.objectId!, { chain: 'sui:mainnet' }), message, signature, tx)).toEqual({ refused: 'EWrongChain' });
    const usdc = `${'0'.repeat(61)}abc::usdc::USDC`;
    expect(await redeem(verifierOf(a.game.objectId!, { coinType: usdc }), message, signature, tx)).toEqual({ refused: 'EWrongCoin' });
    const atA = verifierOf(a.game.objectId!);
    expect(await redeem(atA, message, signature, { ...tx, clockMs: signed.expires_at_ms })).toEqual({ refused: 'EClaimExpired' });
    expect(await redeem(atA, message, signature, { ...tx, sender: randomAddress() })).toEqual({ refused: 'ENotRecipient' });
    // Another stage's key (or a rotated-away one) does not verify.
    const otherKey = await createClaimSigner(generateClaimKey());
    expect(await redeem(verifierOf(a.game.objectId!, { publicKey: otherKey.publicKey }), message, signature, tx)).toEqual({ refused: 'EBadSignature' });

    // A's own verifier pays it, once.
    expect(await redeem(atA, message, signature, tx)).toEqual({
      paid: expect.objectContaining({ history_id: String(entry.id), amount: '500', recipient: player.address }),
    });
    expect(await redeem(atA, message, signature, tx)).toEqual({ refused: 'EAlreadyRedeemed' });
  });

  it('an expired unpaid claim is signed afresh (same terms, new nonce and expiry); old and new together pay once; get_sign never writes', async () => {
    const player = await playerWithTokens(deps);
    const {
      game,
      entries: [entry],
    } = await settled(deps, [{ id: player.uid }]);
    const t0 = Date.now();
    const first = (await call(appAt(deps, t0), 'POST', signPath, { token: player.platform, body: { id: entry!.id } })).body.data;
    const expired = first.expires_at_ms as number;

    // The merchant registers another object meanwhile: the entry's claims keep naming the first one.
    await setGameObject(deps, game, randomAddress());

    // At the expiry: get_sign answers the stored claim as it is and writes nothing.
    const before = await entryItem(deps, entry!.id);
    const read = await call(appAt(deps, expired), 'GET', getPath, { token: player.platform, query: { id: entry!.id } });
    expect(read.body.data).toEqual(first);
    expect(await entryItem(deps, entry!.id)).toEqual(before);

    // sign_code signs a fresh claim, concurrently too: one is stored and every caller gets it.
    const answers = await Promise.all(
      Array.from({ length: 4 }, () => call(appAt(deps, expired), 'POST', signPath, { token: player.platform, body: { id: entry!.id } })),
    );
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    expect(new Set(answers.map((r) => JSON.stringify(r.body.data))).size).toBe(1);
    const fresh = answers[0]!.body.data;
    expect(fresh).toMatchObject({
      chain: first.chain,
      game: first.game,
      coin_type: first.coin_type,
      recipient: first.recipient,
      amount: first.amount,
      expires_at_ms: expired + CLAIM_TTL_MS,
    });
    expect(fresh.nonce).not.toBe(first.nonce);
    expect(fresh.game).toBe(game.objectId);
    const item = await entryItem(deps, entry!.id);
    expect(item).toMatchObject({ status: 1, claim: { nonce: fresh.nonce, signature: fresh.signature } });
    expect([...item.claim_nonces].sort()).toEqual([first.nonce, fresh.nonce].sort());
    // It is the stored one from now on.
    expect((await call(appAt(deps, expired + 1), 'POST', signPath, { token: player.platform, body: { id: entry!.id } })).body.data).toEqual(fresh);
    expect((await call(app, 'GET', getPath, { token: player.platform, query: { id: entry!.id } })).body.data).toEqual(fresh);

    // The old claim redeemed just before it expired, then the new one: the verifier pays the history id once.
    const atGame = verifierOf(game.objectId!);
    const old = bytesOf(first);
    const renewed = bytesOf(fresh);
    expect(await redeem(atGame, old.message, old.signature, { sender: player.address, clockMs: expired - 1 })).toMatchObject({ paid: { nonce: first.nonce } });
    expect(await redeem(atGame, renewed.message, renewed.signature, { sender: player.address, clockMs: expired + 1 })).toEqual({ refused: 'EAlreadyRedeemed' });
  });

  it('an entry is renewed at most MAX_CLAIM_SIGNINGS times: then 409 and nothing written', async () => {
    const player = await playerWithTokens(deps);
    const {
      entries: [entry],
    } = await settled(deps, [{ id: player.uid }]);
    const first = (await call(app, 'POST', signPath, { token: player.platform, body: { id: entry!.id } })).body.data;
    // As if it had been renewed until the bound: MAX_CLAIM_SIGNINGS nonces on the entry.
    const nonces = new Set(Array.from({ length: MAX_CLAIM_SIGNINGS }, (_, i) => String(i === 0 ? first.nonce : i)));
    await deps.db.send(
      new UpdateCommand({
        TableName: deps.table,
        Key: historyEntryKey(entry!.id),
        UpdateExpression: 'SET claim_nonces = :n',
        ExpressionAttributeValues: { ':n': nonces },
      }),
    );
    const before = await entryItem(deps, entry!.id);
    const refused = await call(appAt(deps, first.expires_at_ms), 'POST', signPath, { token: player.platform, body: { id: entry!.id } });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toMatch(/^id: .*signed 1000 times/);
    expect(await entryItem(deps, entry!.id)).toEqual(before);
  });

  it('a claim stored before claims named their game (no expiry) is re-signed with the game and the stage terms', async () => {
    const player = await playerWithTokens(deps);
    const {
      game,
      entries: [entry],
    } = await settled(deps, [{ id: player.uid }]);
    // The 56-byte layout's stored claim, as sign_code wrote it before.
    const legacy = {
      recipient: player.address,
      amount: '500',
      nonce: '7',
      message: '00',
      signature: 'AA==',
      public_key: 'AA==',
      signed_at: new Date().toISOString(),
    };
    await deps.db.send(
      new UpdateCommand({
        TableName: deps.table,
        Key: historyEntryKey(entry!.id),
        UpdateExpression: 'SET #s = :one, claim = :claim',
        ExpressionAttributeNames: { '#s': 'status' },
        ExpressionAttributeValues: { ':one': 1, ':claim': legacy },
      }),
    );
    const signed = (await call(app, 'POST', signPath, { token: player.platform, body: { id: entry!.id } })).body.data;
    expect(signed).toMatchObject({
      chain: 'sui:testnet',
      game: game.objectId,
      coin_type: SUI,
      recipient: player.address,
      amount: '500',
      expires_at_ms: expect.any(Number),
    });
    expect(signed.nonce).not.toBe('7');
    const { message, signature } = bytesOf(signed);
    expect(await redeem(verifierOf(game.objectId!), message, signature, { sender: player.address, clockMs: Date.now() })).toMatchObject({
      paid: { history_id: String(entry!.id) },
    });
  });
});

describe('the claim key', () => {
  it("accepts Sui's suiprivkey form: the same key as the keypair's, signatures Sui's verifier accepts", async () => {
    const keypair = Ed25519Keypair.generate();
    const signer = await createClaimSigner(keypair.getSecretKey());
    expect(Buffer.from(signer.publicKey)).toEqual(Buffer.from(keypair.getPublicKey().toRawBytes()));
    const message = new Uint8Array([1, 2, 3, 4]);
    const signature = await signer.sign(message);
    expect(await keypair.getPublicKey().verify(message, signature)).toBe(true);
  });

  it('takes the chain and coin of the claim settings form; claims bind them (defaults: the stage decides the chain, SUI)', async () => {
    const keypair = Ed25519Keypair.generate();
    const jwk = JSON.parse(generateClaimKey()) as Record<string, unknown>;
    const settings = await createClaimSigner(JSON.stringify({ key: jwk, chain: 'sui:devnet', coin_type: '0xABC::usdc::USDC' }));
    expect([settings.chain, settings.coinType]).toEqual(['sui:devnet', '0xABC::usdc::USDC']);
    expect(settings.publicKey).toEqual((await createClaimSigner(JSON.stringify(jwk))).publicKey);
    const fromSui = await createClaimSigner(JSON.stringify({ key: keypair.getSecretKey(), chain: 'sui:mainnet' }));
    expect(Buffer.from(fromSui.publicKey)).toEqual(Buffer.from(keypair.getPublicKey().toRawBytes()));
    expect(fromSui.coinType).toBeUndefined();
    for (const bad of [{ key: jwk, chain: 'mainnet' }, { key: jwk, coin_type: 'USDC' }, { key: jwk, chains: 'sui:mainnet' }, { key: 5 }]) {
      await expect(createClaimSigner(JSON.stringify(bad))).rejects.toThrow(/^claim (settings|key): /);
    }

    expect(claimTerms({ claims: settings, production: false })).toEqual({ chain: 'sui:devnet', coin_type: `${'0'.repeat(61)}abc::usdc::USDC` });
    expect(claimTerms({ claims: deps.claims, production: true })).toEqual({ chain: 'sui:mainnet', coin_type: SUI });
    expect(claimTerms({ claims: deps.claims, production: false })).toEqual({ chain: 'sui:testnet', coin_type: SUI });

    // A stage with those settings signs them into its claims.
    const own = await createTestDeps();
    own.claims = settings;
    const player = await playerWithTokens(own);
    const {
      game,
      entries: [entry],
    } = await settled(own, [{ id: player.uid }]);
    const signed = (await call(createAllApps(own), 'POST', signPath, { token: player.platform, body: { id: entry!.id } })).body.data;
    expect(RewardClaim.parse(Buffer.from(signed.message, 'hex'))).toMatchObject({
      chain: 'sui:devnet',
      game: game.objectId,
      coin_type: `${'0'.repeat(61)}abc::usdc::USDC`,
    });
    expect(signed).toMatchObject({
      chain: 'sui:devnet',
      coin_type: `${'0'.repeat(61)}abc::usdc::USDC`,
      public_key: Buffer.from(settings.publicKey).toString('base64'),
    });
    // The studio's reward table names that coin, so its amounts are read in it (the console's units follow it).
    const table = await call(createAllApps(own), 'GET', `${base}/merchant/games/rewards`, { token: game.owner.token, query: { game_code: game.code } });
    expect(table.body.data).toMatchObject({ coin_type: '0xABC::usdc::USDC', rewards: [{ rank: 1, amount: 500, amount_base: '500' }, {}, {}] });
  });

  it('accepts the generated JWK form and refuses anything else', async () => {
    const signer = await createClaimSigner(generateClaimKey());
    expect(signer.publicKey).toHaveLength(32);
    await expect(createClaimSigner('not a key')).rejects.toThrow(/^claim key: /);
    await expect(createClaimSigner(JSON.stringify({ kty: 'EC', crv: 'P-256', d: 'x' }))).rejects.toThrow(/^claim key: /);
    await expect(createClaimSigner('suiprivkey1notvalid')).rejects.toThrow(/^claim key: /);
  });
});

const CLAIM_TYPE = `${PACKAGE}::rewards::RewardClaimed`;

/** The reference verifier's RewardClaimed event (docs/claims.md). */
function claimEvent(fields: { game: string; history_id: number | string; recipient: string; amount: string; nonce: string }): ScriptEvent {
  return {
    txDigest: randomDigest(),
    eventSeq: 0,
    sender: fields.recipient,
    timestampMs: String(Date.now()),
    ...rewardClaimed(CLAIM_TYPE, { ...fields, history_id: String(fields.history_id) }),
  };
}

const asChainEvent = (event: ScriptEvent): ChainEvent => ({ ...event, eventSeq: String(event.eventSeq) });

describe('claim events through the chain indexer', () => {
  it('parses claimEventType in the chain settings (optional, canonical form)', () => {
    const base = { kind: 'jsonrpc', url: 'http://127.0.0.1:9000', paymentEventType: '0x2::pay::PaymentEvent' };
    expect(parseChainConfig(JSON.stringify(base))!.claimEventType).toBeUndefined();
    expect(parseChainConfig(JSON.stringify({ ...base, claimEventType: '0xAB::rewards::RewardClaimed' }))!.claimEventType).toBe(
      `0x${'0'.repeat(62)}ab::rewards::RewardClaimed`,
    );
    expect(() => parseChainConfig(JSON.stringify({ ...base, claimEventType: 'RewardClaimed' }))).toThrow(/claimEventType/);
  });

  it('moves a signed claim to status 2 when its event is indexed, once; other events change nothing', async () => {
    const own = await createTestDeps();
    const ownApp = createAllApps(own);
    const player = await playerWithTokens(own);
    const {
      game,
      entries: [first, second],
    } = await settled(own, [{ id: player.uid }, { id: 'second-player' }]);
    const signed = (await call(ownApp, 'POST', signPath, { token: player.platform, body: { id: first!.id } })).body.data;
    const object = game.objectId!;

    const script = new ChainScript();
    const paid = claimEvent({ game: object, history_id: first!.id, recipient: player.address, amount: '500', nonce: signed.nonce });
    const { game: _game, ...withoutGame } = paid.parsedJson;
    script.add(
      // Not matching the signed claim: another game's object, no game, another nonce, another amount, an
      // unsigned entry, an unknown id, a malformed event.
      claimEvent({ game: randomAddress(), history_id: first!.id, recipient: player.address, amount: '500', nonce: signed.nonce }),
      { ...claimEvent({ game: object, history_id: first!.id, recipient: player.address, amount: '500', nonce: signed.nonce }), parsedJson: withoutGame },
      claimEvent({ game: object, history_id: first!.id, recipient: player.address, amount: '500', nonce: '1' }),
      claimEvent({ game: object, history_id: first!.id, recipient: player.address, amount: '501', nonce: signed.nonce }),
      claimEvent({ game: object, history_id: second!.id, recipient: randomAddress(), amount: '200', nonce: '5' }),
      claimEvent({ game: object, history_id: 99_999_999, recipient: randomAddress(), amount: '1', nonce: '1' }),
      {
        ...claimEvent({ game: object, history_id: first!.id, recipient: player.address, amount: '500', nonce: signed.nonce }),
        parsedJson: { history_id: 'abc' },
      },
      paid,
    );
    const node = await startSuiNode(script);
    stops.push(node.stop);
    own.chain = createChain({ kind: 'jsonrpc', url: node.url, paymentEventType: PAYMENT_TYPE, claimEventType: CLAIM_TYPE });

    const handlers = { ...paymentHandlers(own), ...claimHandlers(own) };
    expect(Object.keys(handlers)).toEqual([PAYMENT_TYPE, CLAIM_TYPE]);
    const summary = await indexEvents(own, { handlers, sleep: async () => {} });
    expect(summary[CLAIM_TYPE]).toMatchObject({ events: 8, errors: 0, stopped: 'caught-up' });

    expect(await entryItem(own, first!.id)).toMatchObject({ status: 2, claimed_tx: paid.txDigest, claimed_event_seq: '0' });
    expect((await entryItem(own, second!.id)).status).toBe(0);
    const history = await call(ownApp, 'GET', `${base}/chain/reward/history`, { token: player.platform });
    expect(history.body.data.find((e: Entry) => e.id === first!.id).status).toBe(2);
    // get_sign still answers the signature of a claimed entry; sign_code answers the same one.
    expect((await call(ownApp, 'GET', getPath, { token: player.platform, query: { id: first!.id } })).body.data).toEqual(signed);
    expect((await call(ownApp, 'POST', signPath, { token: player.platform, body: { id: first!.id } })).body.data).toEqual(signed);

    // Idempotent: the same event handled again (a page re-read after a crash) changes nothing.
    const item = await entryItem(own, first!.id);
    expect(await recordClaimEvent(own, asChainEvent(paid))).toBe('already-claimed');
    expect(await entryItem(own, first!.id)).toEqual(item);
    // A second pass reads nothing new.
    expect((await indexEvents(own, { handlers, sleep: async () => {} }))[CLAIM_TYPE]).toMatchObject({ events: 0 });
  });

  it('the event of a claim replaced after expiry (redeemed just before it expired) still marks the entry paid; sign_code then answers it', async () => {
    const own = await createTestDeps();
    const player = await playerWithTokens(own);
    const {
      game,
      entries: [entry],
    } = await settled(own, [{ id: player.uid }]);
    const t0 = Date.now();
    const first = (await call(appAt(own, t0), 'POST', signPath, { token: player.platform, body: { id: entry!.id } })).body.data;
    const fresh = (await call(appAt(own, first.expires_at_ms), 'POST', signPath, { token: player.platform, body: { id: entry!.id } })).body.data;
    expect(fresh.nonce).not.toBe(first.nonce);

    const event = asChainEvent(claimEvent({ game: game.objectId!, history_id: entry!.id, recipient: player.address, amount: '500', nonce: first.nonce }));
    expect(await recordClaimEvent(own, event)).toBe('claimed');
    expect(await entryItem(own, entry!.id)).toMatchObject({ status: 2, claimed_tx: event.txDigest });
    // Paid: no fresh claim any more, even long after the stored one expired.
    const later = appAt(own, fresh.expires_at_ms + CLAIM_TTL_MS);
    expect((await call(later, 'POST', signPath, { token: player.platform, body: { id: entry!.id } })).body.data).toEqual(fresh);
    expect((await entryItem(own, entry!.id)).claim.nonce).toBe(fresh.nonce);
  });

  it('has no claim handler when the stage names no claim event type', async () => {
    const own = await createTestDeps();
    own.chain = createChain({ kind: 'jsonrpc', url: 'http://127.0.0.1:9', paymentEventType: PAYMENT_TYPE });
    expect(claimHandlers(own)).toEqual({});
    expect(claimHandlers({ chain: undefined })).toEqual({});
  });
});
