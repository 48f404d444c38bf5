import { createMainClient, redeemSponsored } from '@game-platform/client';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bcs } from '@mysten/sui/bcs';
import { requestSuiFromFaucetV2 } from '@mysten/sui/faucet';
import { SuiGraphQLClient } from '@mysten/sui/graphql';
import { Ed25519Keypair } from '@mysten/sui/keypairs/ed25519';
import { Transaction } from '@mysten/sui/transactions';
import { normalizeSuiAddress } from '@mysten/sui/utils';
import { verifyTransactionSignature } from '@mysten/sui/verify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { indexEvents } from '../core/chain/indexer.js';
import { createChain, parseChainConfig } from '../core/chain/source.js';
import { settleSeason } from '../core/rewards/settlement.js';
import { sponsoredKey } from '../core/sponsorship/keys.js';
import { sponsorFromSetting } from '../core/sponsorship/sponsor-key.js';
import { claimAndGasHandlers, recordGasSpent } from '../core/sponsorship/spent.js';
import { redeemTransaction } from '../docs/quickstart/wallet.js';
import { createAllApps } from '../functions/apps.js';
import { VERIFIER_PACKAGE } from '../tools/local/dev-chain/claim-verifier.js';
import { startDevChain, type DevChain } from '../tools/local/dev-chain/dev-chain.js';
import { deleteAccountThroughApi } from './support/deleted-players.js';
import { createTestDeps, itemsOfType, type TestDeps } from './support/deps.js';
import { call } from './support/http.js';
import { playerWithTokens } from './support/payments.js';
import { claimableGame, pastWeek, scoresInPastWeek } from './support/rewards.js';

/**
 * Sponsored claims (docs/claims.md "Sponsored claims") against the development chain, driven through the Sui
 * SDK as a player's client and a wallet drive them: the player holds no SUI, builds the claim call as a
 * transaction kind, the platform answers the whole transaction signed by the stage's sponsor as gas owner, the
 * player signs the same bytes and executes them. Signatures are checked with the SDK's verifier; the chain checks
 * both signers and the sponsor's coin as it would on a network.
 */

const base = '/v2-testing';
const TARGET = `${VERIFIER_PACKAGE}::verifier::redeem`;
let deps: TestDeps;
let app: ReturnType<typeof createAllApps>;
let chain: DevChain;
const sponsorKey = Ed25519Keypair.generate();
const sponsorSetting = (limits: Record<string, unknown> = {}) => JSON.stringify({ key: sponsorKey.getSecretKey(), ...limits });
const sui = () => new SuiGraphQLClient({ url: chain.graphqlUrl, network: 'testnet' });

beforeAll(async () => {
  chain = await startDevChain({ dataDir: mkdtempSync(join(tmpdir(), 'sponsor-chain-')), now: () => new Date() });
  deps = await createTestDeps();
  deps.chain = createChain(parseChainConfig(chain.chainSetting)!);
  deps.sponsor = await sponsorFromSetting(sponsorSetting());
  // Three coins: three transactions may be pending at once.
  for (let i = 0; i < 3; i++) await requestSuiFromFaucetV2({ host: chain.faucetUrl, recipient: sponsorKey.toSuiAddress() });
  app = createAllApps(deps);
});
afterAll(() => chain?.stop());

/**
 * A game whose verifier is on the chain with a funded pool, sponsored with its claim function, and a settled past
 * week where `players` placed in that order (rewards 500 and 200); answers the game and the players' signed claims.
 */
async function sponsoredGame(players: Awaited<ReturnType<typeof playerWithTokens>>[]) {
  const verifier = chain.createVerifier({ publicKey: deps.claims!.publicKey, chain: 'sui:testnet', pool: 1_000_000n });
  const game = await claimableGame(
    deps,
    [
      { rank: 1, amount: 500 },
      { rank: 2, amount: 200 },
    ],
    verifier,
  );
  await scoresInPastWeek(
    deps,
    game,
    players.map((p, i) => ({ id: p.uid, wins: 10 - i })),
  );
  await settleSeason(deps, game.code, pastWeek());
  const set = await call(app, 'POST', `${base}/merchant/games/sponsorship`, { token: game.owner.token, body: { game_code: game.code, target: TARGET } });
  expect(set.status, JSON.stringify(set.body)).toBe(200);
  const history = await call(app, 'GET', `${base}/merchant/games/history/rank`, {
    query: { game_code: game.code, season_type: 1, season_range: pastWeek().range },
  });
  const claims = [];
  for (const [i, player] of players.entries()) {
    const entry = (history.body.data as { id: number; platform_player_id: string }[]).find((e) => e.platform_player_id === player.uid)!;
    const signed = await call(app, 'POST', `${base}/merchant/sign/code`, { token: player.platform, body: { id: entry.id } });
    expect(signed.status, JSON.stringify(signed.body)).toBe(200);
    claims[i] = signed.body.data as { id: number; message: string; signature: string };
  }
  return { game, verifier, claims };
}

/** The claim call as a player's client builds it: a transaction kind, Base64. */
async function kindOf(claim: { message: string; signature: string }, verifier: string, extend?: (tx: Transaction) => void) {
  const tx = redeemTransaction({ packageId: VERIFIER_PACKAGE, verifier, message: claim.message, signature: claim.signature });
  extend?.(tx);
  return Buffer.from(await tx.build({ onlyTransactionKind: true })).toString('base64');
}

const sponsor = (token: string, id: number, transaction_kind: string) =>
  call(app, 'POST', `${base}/merchant/sign/sponsor`, { token, body: { id, transaction_kind } });

const suiBalance = async (owner: string) => (await sui().listCoins({ owner })).objects.reduce((sum, coin) => sum + BigInt(coin.balance), 0n);

describe('a sponsored claim (POST /merchant/sign/sponsor)', () => {
  it('answers the transaction with the player as sender and the sponsor as gas owner, signed by the sponsor; the player signs and executes it once, holding no SUI', async () => {
    const player = await playerWithTokens(deps);
    const {
      game,
      verifier,
      claims: [claim],
    } = await sponsoredGame([player]);
    const kind = await kindOf(claim!, verifier);
    const answer = await sponsor(player.platform, claim!.id, kind);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const sponsored = answer.body.data;
    expect(sponsored).toMatchObject({ id: claim!.id, sponsor: sponsorKey.toSuiAddress(), gas_budget: '10000000', gas_price: '1000', epoch: '1' });
    const bytes = Buffer.from(sponsored.transaction, 'base64');
    const data = bcs.TransactionData.parse(bytes).V1;
    expect(normalizeSuiAddress(data.sender)).toBe(player.address);
    expect(normalizeSuiAddress(data.gasData.owner)).toBe(sponsorKey.toSuiAddress());
    expect(data.expiration).toEqual({ $kind: 'Epoch', Epoch: 1 });
    expect((await verifyTransactionSignature(bytes, sponsored.sponsor_signature)).toSuiAddress()).toBe(sponsorKey.toSuiAddress());

    // Asked again while it is pending: the same transaction, no second coin.
    const again = await sponsor(player.platform, claim!.id, kind);
    expect(again.body.data).toEqual(sponsored);
    expect(await itemsOfType(deps, 'gas_coin_reservation')).toHaveLength(1);

    const sponsorBefore = await suiBalance(sponsorKey.toSuiAddress());
    const { signature } = await player.keypair.signTransaction(bytes);
    expect((await verifyTransactionSignature(bytes, signature)).toSuiAddress()).toBe(player.address);
    const result = await sui().executeTransaction({ transaction: bytes, signatures: [signature, sponsored.sponsor_signature], include: { events: true } });
    expect(result.$kind, JSON.stringify(result)).toBe('Transaction');
    expect(result.Transaction!.digest).toBe(sponsored.digest);
    expect(result.Transaction!.events).toEqual([expect.objectContaining({ json: expect.objectContaining({ history_id: String(claim!.id), amount: '500' }) })]);
    expect(await suiBalance(player.address)).toBe(500n);
    expect(sponsorBefore - (await suiBalance(sponsorKey.toSuiAddress()))).toBe(2_000_000n);

    // Paid: refused before the chain would (EAlreadyRedeemed), with the claim event not yet indexed and after.
    const paid = await sponsor(player.platform, claim!.id, kind);
    expect(paid.status).toBe(409);
    expect(paid.body.error).toBe('sponsor.already_paid');
    // The indexer, as the deployed one runs it: the claim event marks the entry paid and records what the gas cost.
    await indexEvents(deps, { handlers: claimAndGasHandlers(deps), sleep: async () => {} });
    const indexed = await sponsor(player.platform, claim!.id, kind);
    expect(indexed.body.error).toBe('sponsor.already_paid');
    const today = await call(app, 'GET', `${base}/merchant/games/sponsorship`, { token: game.owner.token, query: { game_code: game.code } });
    expect(today.body.data.today).toEqual({ count: 1, gas: '10000000', gas_spent: '2000000' });
    // Seen again (the indexer's pass repeated): counted once.
    await recordGasSpent(deps, { ...chain.state.events.find((e) => e.txDigest === sponsored.digest)!, parsedJson: { history_id: String(claim!.id) } } as never);
    expect(
      (await call(app, 'GET', `${base}/merchant/games/sponsorship`, { token: game.owner.token, query: { game_code: game.code } })).body.data.today.gas_spent,
    ).toBe('2000000');
  });

  it('signs nothing but the claim call of the entry: a transfer beside it, another verifier, another entry’s claim or function, and bytes that are no kind are 400 naming it', async () => {
    const [first, second] = [await playerWithTokens(deps), await playerWithTokens(deps)];
    const { verifier, claims } = await sponsoredGame([first, second]);
    const other = await sponsoredGame([first]);
    const [mine, theirs] = claims as { id: number; message: string; signature: string }[];
    const refused: [string, RegExp][] = [
      [
        await kindOf(mine!, verifier, (tx) => {
          const [coin] = tx.splitCoins(tx.gas, [1000]);
          tx.transferObjects([coin!], first.address);
        }),
        /3 commands/,
      ],
      [await kindOf(mine!, other.verifier), /the game's verifier/],
      [await kindOf(theirs!, verifier), /current claim message/],
      [await kindOf({ ...mine!, signature: other.claims[0]!.signature }, verifier), /signature of the entry/],
      [
        Buffer.from(
          await (() => {
            const tx = new Transaction();
            tx.moveCall({ target: `0x${'d'.repeat(64)}::verifier::redeem`, typeArguments: ['0x2::sui::SUI'], arguments: [] });
            return tx.build({ onlyTransactionKind: true });
          })(),
        ).toString('base64'),
        /not the game's claim function/,
      ],
      ['AAAA', /not the BCS of a Sui transaction kind|commands/],
    ];
    for (const [kind, message] of refused) {
      const answer = await sponsor(first.platform, mine!.id, kind);
      expect(answer.status, JSON.stringify(answer.body)).toBe(400);
      expect(answer.body.error).toBe('sponsor.transaction_refused');
      expect(answer.body.message).toMatch(message);
    }
    // Another player's entry is as unknown as a missing one; nothing was signed, reserved or counted.
    expect((await sponsor(second.platform, mine!.id, await kindOf(mine!, verifier))).status).toBe(404);
    expect((await itemsOfType(deps, 'sponsored_claim')).filter((item) => item.pk === sponsoredKey(mine!.id).pk)).toEqual([]);
    expect((await itemsOfType(deps, 'sponsor_player_day')).filter((day) => String(day.pk).endsWith(first.uid))).toEqual([]);
  });

  it('keeps the day’s limits: a game lowered to one claim a day answers 429 with Retry-After to its second player', async () => {
    const [first, second] = [await playerWithTokens(deps), await playerWithTokens(deps)];
    const { game, verifier, claims } = await sponsoredGame([first, second]);
    const lowered = await call(app, 'POST', `${base}/merchant/games/sponsorship`, {
      token: game.owner.token,
      body: { game_code: game.code, target: TARGET, daily_count: 1 },
    });
    expect(lowered.body.data).toMatchObject({ daily_count: 1, today: { count: 0, gas: '0', gas_spent: '0' } });
    expect((await sponsor(first.platform, claims[0]!.id, await kindOf(claims[0]!, verifier))).status).toBe(200);
    const over = await sponsor(second.platform, claims[1]!.id, await kindOf(claims[1]!, verifier));
    expect(over.status).toBe(429);
    expect(over.body.error).toBe('sponsor.over_limit');
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    const today = await call(app, 'GET', `${base}/merchant/games/sponsorship`, { token: game.owner.token, query: { game_code: game.code } });
    expect(today.body.data).toMatchObject({ target: TARGET, daily_count: 1, today: { count: 1, gas: '10000000', gas_spent: '0' } });
    const tooHigh = await call(app, 'POST', `${base}/merchant/games/sponsorship`, {
      token: game.owner.token,
      body: { game_code: game.code, target: TARGET, daily_count: 1_000_000 },
    });
    expect(tooHigh.status).toBe(400);
    expect(tooHigh.body.error).toBe('sponsor.limit_above_stage');
  });

  it('answers concurrent requests for one entry with one transaction on one coin, charged once', async () => {
    const player = await playerWithTokens(deps);
    const { game, verifier, claims } = await sponsoredGame([player]);
    const kind = await kindOf(claims[0]!, verifier);
    const answers = await Promise.all(Array.from({ length: 5 }, () => sponsor(player.platform, claims[0]!.id, kind)));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
    expect(new Set(answers.map((a) => a.body.data.digest)).size).toBe(1);
    const today = await call(app, 'GET', `${base}/merchant/games/sponsorship`, { token: game.owner.token, query: { game_code: game.code } });
    expect(today.body.data.today).toEqual({ count: 1, gas: '10000000', gas_spent: '0' });
  });

  it('signs nothing while the sponsor is under its balance threshold: 503 with Retry-After', async () => {
    const player = await playerWithTokens(deps);
    const { verifier, claims } = await sponsoredGame([player]);
    const kept = deps.sponsor;
    deps.sponsor = await sponsorFromSetting(sponsorSetting({ low_balance: '1000000000000' }));
    try {
      const answer = await sponsor(player.platform, claims[0]!.id, await kindOf(claims[0]!, verifier));
      expect(answer.status).toBe(503);
      expect(answer.body.error).toBe('sponsor.unavailable');
      expect(answer.headers.get('retry-after')).toBeTruthy();
    } finally {
      deps.sponsor = kept;
    }
  });

  it('is one call of the TypeScript client: redeemSponsored signs, builds, has it sponsored, signs and executes', async () => {
    const player = await playerWithTokens(deps);
    const { claims } = await sponsoredGame([player]);
    const api = createMainClient({ baseUrl: `http://localhost${base}`, token: player.platform, fetch: async (request) => app.request(request) });
    const { digest } = await redeemSponsored({ api, id: claims[0]!.id, target: TARGET, signer: player.keypair, chain: sui(), verifierVersion: 1 });
    expect(digest).toMatch(/^[1-9A-HJ-NP-Za-km-z]{43,44}$/);
    expect(await suiBalance(player.address)).toBe(500n);
    expect(chain.state.events.some((event) => event.type.endsWith('::RewardClaimed') && event.parsedJson.history_id === String(claims[0]!.id))).toBe(true);
  });

  it("goes with the player's account: the transaction signed for their reward and their sponsored day are deleted, the game's day kept", async () => {
    const player = await playerWithTokens(deps);
    const { game, verifier, claims } = await sponsoredGame([player]);
    expect((await sponsor(player.platform, claims[0]!.id, await kindOf(claims[0]!, verifier))).status).toBe(200);
    const held = async () => ({
      sponsored: (await itemsOfType(deps, 'sponsored_claim')).filter((item) => item.pk === sponsoredKey(claims[0]!.id).pk).length,
      playerDays: (await itemsOfType(deps, 'sponsor_player_day')).filter((item) => item.pk === `USER#${player.uid}`).length,
      gameDays: (await itemsOfType(deps, 'sponsor_game_day')).filter((item) => item.sk === game.code).length,
    });
    expect(await held()).toEqual({ sponsored: 1, playerDays: 1, gameDays: 1 });
    await deleteAccountThroughApi(app, player);
    expect(await held()).toEqual({ sponsored: 0, playerDays: 0, gameDays: 1 });
  });
});
