import { createPublicKey, randomUUID, verify } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { bcs } from '@mysten/sui/bcs';
import { Ed25519Keypair } from '@mysten/sui/keypairs/ed25519';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAllApps } from '../functions/apps.js';
import { indexEvents, paymentHandlers } from '../core/chain/indexer.js';
import { createChain, parseChainConfig } from '../core/chain/source.js';
import type { ChainEvent } from '../core/chain/types.js';
import { claimHandlers, recordClaimEvent } from '../core/rewards/claim-events.js';
import { createClaimSigner, generateClaimKey } from '../core/rewards/claim-key.js';
import { historyEntryKey } from '../core/rewards/keys.js';
import { settleSeason } from '../core/rewards/settlement.js';
import { call } from './support/http.js';
import { createTestDeps, itemCount, type TestDeps } from './support/deps.js';
import { playerWithTokens } from './support/payments.js';
import { commandCounter } from './support/rankings.js';
import { pastWeek, rewardGame, scoresInPastWeek } from './support/rewards.js';
import { ChainScript, PACKAGE, PAYMENT_TYPE, randomAddress, randomDigest, startSuiNode, type ScriptEvent } from './support/sui-node.js';

/**
 * Reward claims (issue 5 item 5): sign_code and get_sign, the Ed25519 signature over the BCS of RewardClaim
 * checked independently (node:crypto and a BCS layout written here), and the claim event through the indexer.
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

/** The Move struct, written here from the docs rather than imported. */
const RewardClaim = bcs.struct('RewardClaim', { history_id: bcs.u64(), recipient: bcs.Address, amount: bcs.u64(), nonce: bcs.u64() });

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
 * A settled past week of a fresh game where `players` (ids, wins, wallets) placed in that order, with rewards
 * 500, 200 for ranks 1 and 2 and nothing for rank 3; answers the season's entries by rank.
 */
async function settledEntries(on: TestDeps, players: { id: string; wallet?: string }[]): Promise<Entry[]> {
  const game = await rewardGame(on, [{ rank: 1, amount: 500 }, { rank: 2, amount: 200 }, { rank: 4, amount: 1 }]);
  await scoresInPastWeek(on, game, players.map((p, i) => ({ ...p, wins: 10 - i })));
  await settleSeason(on, game.code, pastWeek());
  const res = await call(createAllApps(on), 'GET', `${base}/merchant/games/history/rank`, { query: { game_code: game.code, season_type: 1, season_range: pastWeek().range } });
  return res.body.data as Entry[];
}

async function entryItem(on: TestDeps, id: number) {
  return (await on.db.send(new GetCommand({ TableName: on.table, Key: historyEntryKey(id), ConsistentRead: true }))).Item!;
}

describe('sign_code (POST /merchant/sign/code) and get_sign (GET /merchant/sign)', () => {
  it('signs the BCS of RewardClaim with Ed25519, verifiable on its own; status 0 -> 1; the same signature again', async () => {
    const player = await playerWithTokens(deps);
    const [entry] = await settledEntries(deps, [{ id: player.uid }, { id: 'other' }]);
    expect(entry).toMatchObject({ platform_player_id: player.uid, wallet_address: player.address, reward_amount: 500, status: 0 });

    const before = await call(app, 'GET', getPath, { token: player.platform, query: { id: entry!.id } });
    expect(before.status).toBe(409);
    expect(before.body).toEqual({ code: 409, message: expect.stringMatching(/^id: .*not signed|^id: .*no signed claim/), data: null });

    const counter = commandCounter(deps);
    counter.start();
    const signed = await call(app, 'POST', signPath, { token: player.platform, body: { id: entry!.id } });
    expect(counter.stop()).toEqual({ GetItem: 1, UpdateItem: 1 });
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
        message: expect.stringMatching(/^[0-9a-f]{112}$/),
        signature: expect.any(String),
        public_key: Buffer.from(deps.claims!.publicKey).toString('base64'),
        scheme: 'ed25519',
      },
    });

    // The message is 56 bytes: history_id, recipient (32 bytes), amount, nonce; u64s little-endian.
    const message = Buffer.from(claim.message, 'hex');
    expect(message.readBigUInt64LE(0)).toBe(BigInt(entry!.id));
    expect(`0x${message.subarray(8, 40).toString('hex')}`).toBe(player.address);
    expect(message.readBigUInt64LE(40)).toBe(500n);
    expect(message.readBigUInt64LE(48)).toBe(BigInt(claim.nonce));
    expect(RewardClaim.parse(message)).toEqual({ history_id: String(entry!.id), recipient: player.address, amount: '500', nonce: claim.nonce });
    const signature = Buffer.from(claim.signature, 'base64');
    const publicKey = Buffer.from(claim.public_key, 'base64');
    expect([signature.length, publicKey.length]).toEqual([64, 32]);
    expect(ed25519Verify(publicKey, message, signature)).toBe(true);
    expect(ed25519Verify(publicKey, Buffer.concat([message.subarray(0, 40), Buffer.alloc(8, 0xff), message.subarray(48)]), signature)).toBe(false);

    // Signing again, reading it back, and concurrent signing all answer the same signature and nonce.
    counter.start();
    const again = await call(app, 'POST', signPath, { token: player.platform, body: { id: entry!.id } });
    expect(counter.stop()).toEqual({ GetItem: 1 });
    expect(again.body.data).toEqual(claim);
    counter.start();
    const read = await call(app, 'GET', getPath, { token: player.platform, query: { id: entry!.id } });
    expect(counter.stop()).toEqual({ GetItem: 1 });
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

  it("another player's entry is 403, an unknown id 404, for both operations; nothing written", async () => {
    const owner = await playerWithTokens(deps);
    const thief = await playerWithTokens(deps);
    const [entry] = await settledEntries(deps, [{ id: owner.uid }]);
    const before = await itemCount(deps);
    for (const [method, path, input] of [
      ['POST', signPath, { body: { id: entry!.id } }],
      ['GET', getPath, { query: { id: entry!.id } }],
    ] as const) {
      const res = await call(app, method, path, { token: thief.platform, ...input });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ code: 403, message: expect.stringMatching(/^id: .*another player's/), data: null });
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
    const zero = await call(app, 'POST', signPath, { token: noReward.platform, body: { id: entries[2]!.id } });
    expect(zero.status).toBe(409);
    expect(zero.body.message).toMatch(/^id: .*no reward/);

    const noWalletToken = (await deps.tokens.issue('platform', uidNoWallet)).token;
    const noWallet = await call(app, 'POST', signPath, { token: noWalletToken, body: { id: entries[1]!.id } });
    expect(noWallet.status).toBe(409);
    expect(noWallet.body.message).toMatch(/^id: no wallet address/);
    expect((await entryItem(deps, entries[1]!.id)).status).toBe(0);

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
    const res = await call(noKey, 'POST', signPath, { token: player.platform, body: { id: entry!.id } });
    expect(res.status).toBe(503);
    expect(res.body).toEqual({ code: 503, message: expect.any(String), data: null });
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

  it('accepts the generated JWK form and refuses anything else', async () => {
    const signer = await createClaimSigner(generateClaimKey());
    expect(signer.publicKey).toHaveLength(32);
    await expect(createClaimSigner('not a key')).rejects.toThrow(/^claim key: /);
    await expect(createClaimSigner(JSON.stringify({ kty: 'EC', crv: 'P-256', d: 'x' }))).rejects.toThrow(/^claim key: /);
    await expect(createClaimSigner('suiprivkey1notvalid')).rejects.toThrow(/^claim key: /);
  });
});

const CLAIM_TYPE = `${PACKAGE}::rewards::RewardClaimed`;

function claimEvent(fields: { history_id: number | string; recipient: string; amount: string; nonce: string }): ScriptEvent {
  return {
    txDigest: randomDigest(),
    eventSeq: 0,
    type: CLAIM_TYPE,
    sender: fields.recipient,
    parsedJson: { history_id: String(fields.history_id), recipient: fields.recipient, amount: fields.amount, nonce: fields.nonce },
    timestampMs: String(Date.now()),
    layout: {
      struct: {
        type: CLAIM_TYPE,
        fields: [
          { name: 'history_id', layout: 'u64' },
          { name: 'recipient', layout: 'address' },
          { name: 'amount', layout: 'u64' },
          { name: 'nonce', layout: 'u64' },
        ],
      },
    },
  };
}

const asChainEvent = (event: ScriptEvent): ChainEvent => ({ ...event, eventSeq: String(event.eventSeq) });

describe('claim events through the chain indexer', () => {
  it('parses claimEventType in the chain settings (optional, canonical form)', () => {
    const base = { kind: 'jsonrpc', url: 'http://127.0.0.1:9000', paymentEventType: '0x2::pay::PaymentEvent' };
    expect(parseChainConfig(JSON.stringify(base))!.claimEventType).toBeUndefined();
    expect(parseChainConfig(JSON.stringify({ ...base, claimEventType: '0xAB::rewards::RewardClaimed' }))!.claimEventType).toBe(`0x${'0'.repeat(62)}ab::rewards::RewardClaimed`);
    expect(() => parseChainConfig(JSON.stringify({ ...base, claimEventType: 'RewardClaimed' }))).toThrow(/claimEventType/);
  });

  it('moves a signed claim to status 2 when its event is indexed, once; other events change nothing', async () => {
    const own = await createTestDeps();
    const ownApp = createAllApps(own);
    const player = await playerWithTokens(own);
    const [first, second] = await settledEntries(own, [{ id: player.uid }, { id: 'second-player' }]);
    const signed = (await call(ownApp, 'POST', signPath, { token: player.platform, body: { id: first!.id } })).body.data;

    const script = new ChainScript();
    const paid = claimEvent({ history_id: first!.id, recipient: player.address, amount: '500', nonce: signed.nonce });
    script.add(
      // Not matching the signed claim: another nonce, another amount, an unsigned entry, an unknown id, a malformed event.
      claimEvent({ history_id: first!.id, recipient: player.address, amount: '500', nonce: '1' }),
      claimEvent({ history_id: first!.id, recipient: player.address, amount: '501', nonce: signed.nonce }),
      claimEvent({ history_id: second!.id, recipient: randomAddress(), amount: '200', nonce: '5' }),
      claimEvent({ history_id: 99_999_999, recipient: randomAddress(), amount: '1', nonce: '1' }),
      { ...claimEvent({ history_id: first!.id, recipient: player.address, amount: '500', nonce: signed.nonce }), parsedJson: { history_id: 'abc' } },
      paid,
    );
    const node = await startSuiNode(script);
    stops.push(node.stop);
    own.chain = createChain({ kind: 'jsonrpc', url: node.url, paymentEventType: PAYMENT_TYPE, claimEventType: CLAIM_TYPE });

    const handlers = { ...paymentHandlers(own), ...claimHandlers(own) };
    expect(Object.keys(handlers)).toEqual([PAYMENT_TYPE, CLAIM_TYPE]);
    const summary = await indexEvents(own, { handlers, sleep: async () => {} });
    expect(summary[CLAIM_TYPE]).toMatchObject({ events: 6, errors: 0, stopped: 'caught-up' });

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

  it('has no claim handler when the stage names no claim event type', async () => {
    const own = await createTestDeps();
    own.chain = createChain({ kind: 'jsonrpc', url: 'http://127.0.0.1:9', paymentEventType: PAYMENT_TYPE });
    expect(claimHandlers(own)).toEqual({});
    expect(claimHandlers({ chain: undefined })).toEqual({});
  });
});
