import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { requestSuiFromFaucetV2 } from '@mysten/sui/faucet';
import { SuiGraphQLClient } from '@mysten/sui/graphql';
import { Ed25519Keypair } from '@mysten/sui/keypairs/ed25519';
import { Transaction } from '@mysten/sui/transactions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChain, parseChainConfig } from '../core/chain/source.js';
import { RewardClaim } from '../tools/local/dev-chain/claim-verifier.js';
import { FAUCET_AMOUNT, startDevChain, type DevChain } from '../tools/local/dev-chain/dev-chain.js';
import { RECEIPT_TYPE } from '../tools/local/dev-chain/payment-kit.js';
import { GAS_UNITS } from '../tools/local/dev-chain/transactions.js';
import { paymentTransaction, redeemTransaction } from '../docs/quickstart/wallet.js';

/**
 * The development chain `npm start` runs without CHAIN_CONFIG (tools/local/dev-chain): driven only through
 * `@mysten/sui` (its faucet call, GraphQL client, transactions and signatures) and read back through the
 * platform's own chain source, as a wallet and the service use it. A transaction is executed only when it is
 * signed by its sender and gas owner and pays with their live coins; a Move abort charges gas and writes nothing
 * else; the state survives a restart.
 */

const GAS_USED = 1000n * GAS_UNITS;
let dataDir: string;
let chain: DevChain;
let now = Date.UTC(2026, 10, 29, 12);
const sui = () => new SuiGraphQLClient({ url: chain.graphqlUrl, network: 'testnet' });

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'dev-chain-'));
  chain = await startDevChain({ dataDir, now: () => new Date(now) });
});
afterAll(() => chain?.stop());

async function fundedWallet() {
  const keypair = Ed25519Keypair.generate();
  const answer = await requestSuiFromFaucetV2({ host: chain.faucetUrl, recipient: keypair.toSuiAddress() });
  expect(answer.coins_sent).toEqual([{ amount: Number(FAUCET_AMOUNT), id: expect.stringMatching(/^0x[0-9a-f]{64}$/), transferTxDigest: expect.any(String) }]);
  return keypair;
}

/** The wallet's coins, largest first. */
async function coins(owner: string) {
  const { objects } = await sui().listCoins({ owner });
  return objects.sort((a, b) => Number(BigInt(b.balance) - BigInt(a.balance)));
}

/** `tx` built with explicit gas (the sender's largest coin, or `gasCoin`), signed by `signer` (default the sender). */
async function signed(
  tx: Transaction,
  sender: Ed25519Keypair,
  options: { signer?: Ed25519Keypair; gasCoin?: { objectId: string; version: string; digest: string } } = {},
) {
  const coin = options.gasCoin ?? (await coins(sender.toSuiAddress()))[0]!;
  tx.setSender(sender.toSuiAddress());
  tx.setGasPrice(1000);
  tx.setGasBudget(10_000_000);
  tx.setGasPayment([{ objectId: coin.objectId, version: coin.version, digest: coin.digest }]);
  const bytes = await tx.build();
  return { bytes, signature: (await (options.signer ?? sender).signTransaction(bytes)).signature };
}

const execute = ({ bytes, signature }: { bytes: Uint8Array; signature: string }) =>
  sui().executeTransaction({ transaction: bytes, signatures: [signature], include: { events: true, balanceChanges: true } });

const receiver = () => Ed25519Keypair.generate().toSuiAddress();

describe('the development chain', () => {
  it("gives SUI from a faucet in the Sui faucet's v2 format; a bad recipient is refused", async () => {
    const wallet = await fundedWallet();
    expect((await coins(wallet.toSuiAddress())).map((c) => c.balance)).toEqual([FAUCET_AMOUNT.toString()]);
    const refused = await fetch(`${chain.faucetUrl}/v2/gas`, { method: 'POST', body: JSON.stringify({ FixedAmountRequest: { recipient: 'nobody' } }) });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ status: { Failure: { internal: expect.stringContaining('recipient') } }, coins_sent: null });
  });

  it("executes a wallet's Payment Kit payment and the platform's chain source reads its receipt and balance changes", async () => {
    const wallet = await fundedWallet();
    const to = receiver();
    const tx = paymentTransaction({ billNo: 'PO000000001', amount: '100000000', receiver: to });
    const result = await execute(await signed(tx, wallet));
    expect(result.$kind).toBe('Transaction');
    const payer = wallet.toSuiAddress();
    expect(result.Transaction!.balanceChanges).toEqual(
      expect.arrayContaining([
        { address: payer, coinType: expect.stringMatching(/::sui::SUI$/), amount: String(-100_000_000n - GAS_USED) },
        { address: to, coinType: expect.stringMatching(/::sui::SUI$/), amount: '100000000' },
      ]),
    );
    expect((await coins(to)).map((c) => c.balance)).toEqual(['100000000']);

    const platform = createChain(parseChainConfig(chain.chainSetting)!);
    const digest = result.Transaction!.digest;
    const events = await platform.source.transactionEvents(digest);
    expect(events).toEqual([
      expect.objectContaining({
        type: RECEIPT_TYPE,
        sender: payer,
        parsedJson: expect.objectContaining({ nonce: 'PO000000001', payment_amount: '100000000', receiver: to }),
      }),
    ]);
    expect(await platform.source.balanceChanges(digest)).toEqual(expect.arrayContaining([expect.objectContaining({ owner: to, amount: '100000000' })]));
    const page = await platform.source.queryEvents(RECEIPT_TYPE, null, 50);
    expect(page.events.map((e) => e.txDigest)).toContain(digest);
  });

  it('answers the same signed transaction again with its first execution, spending nothing more', async () => {
    const wallet = await fundedWallet();
    const payment = await signed(paymentTransaction({ billNo: 'PO000000002', amount: '5000', receiver: receiver() }), wallet);
    const first = await execute(payment);
    const balance = (await coins(wallet.toSuiAddress()))[0]!.balance;
    const again = await execute(payment);
    expect(again.Transaction!.digest).toBe(first.Transaction!.digest);
    expect((await coins(wallet.toSuiAddress()))[0]!.balance).toBe(balance);
  });

  it('refuses, writing nothing, a transaction signed by another key, paying with a stale or foreign coin, or calling an unknown function', async () => {
    const wallet = await fundedWallet();
    const other = await fundedWallet();
    const [coin] = await coins(wallet.toSuiAddress());
    const events = chain.state.events.length;
    const pay = () => paymentTransaction({ billNo: 'PO000000003', amount: '5000', receiver: receiver() });

    await expect(execute(await signed(pay(), wallet, { signer: other }))).rejects.toThrow(/Required Signature from/);
    await expect(execute(await signed(pay(), wallet, { gasCoin: (await coins(other.toSuiAddress()))[0]! }))).rejects.toThrow(/is not owned by/);
    await expect(execute(await signed(pay(), wallet, { gasCoin: { ...coin!, version: '99' } }))).rejects.toThrow(/not available for consumption/);
    const unknown = new Transaction();
    unknown.moveCall({ target: `0x${'d'.repeat(64)}::market::buy`, arguments: [] });
    await expect(execute(await signed(unknown, wallet))).rejects.toThrow(/not on the development chain/);

    expect(chain.state.events.length).toBe(events);
    expect((await coins(wallet.toSuiAddress()))[0]).toEqual(coin);
  });

  it("fails a transaction whose Move call aborts: gas is charged, nothing else moves (a payment of another amount than the kit's)", async () => {
    const wallet = await fundedWallet();
    const to = receiver();
    const tx = new Transaction();
    const [coin] = tx.splitCoins(tx.gas, [5000]);
    tx.moveCall({
      target: '0x7e069abe383e80d32f2aec17b3793da82aabc8c2edf84abbf68dd7b719e71497::payment_kit::process_ephemeral_payment',
      typeArguments: ['0x2::sui::SUI'],
      arguments: [tx.pure.string('PO000000004'), tx.pure.u64(6000), coin!, tx.pure.address(to), tx.object.clock()],
    });
    const result = await execute(await signed(tx, wallet));
    expect(result.$kind).toBe('FailedTransaction');
    expect(result.FailedTransaction!.status.error).toMatchObject({ $kind: 'MoveAbort', MoveAbort: { abortCode: '0' } });
    expect((await coins(wallet.toSuiAddress()))[0]!.balance).toBe(String(FAUCET_AMOUNT - GAS_USED));
    expect(await coins(to)).toEqual([]);
  });

  it("redeems a signed claim at the game's verifier once, to its recipient only; the state survives a restart", async () => {
    const claimKey = Ed25519Keypair.generate();
    const verifier = chain.createVerifier({ publicKey: claimKey.getPublicKey().toRawBytes(), chain: 'sui:testnet', pool: 10_000n });
    const winner = await fundedWallet();
    const claim = RewardClaim.serialize({
      chain: 'sui:testnet',
      game: verifier,
      coin_type: `${'0'.repeat(63)}2::sui::SUI`,
      history_id: '41',
      recipient: winner.toSuiAddress(),
      amount: '2500',
      nonce: '7',
      expires_at_ms: String(now + 3_600_000),
    }).toBytes();
    const { signature } = await claimKey.sign(claim).then((bytes) => ({ signature: Buffer.from(bytes).toString('base64') }));
    const redeem = () => redeemTransaction({ packageId: `0x${'c1'.repeat(32)}`, verifier, message: Buffer.from(claim).toString('hex'), signature });

    const thief = await fundedWallet();
    const stolen = await execute(await signed(redeem(), thief));
    expect(stolen.FailedTransaction?.status.error).toMatchObject({ MoveAbort: { abortCode: '6' } });

    const paid = await execute(await signed(redeem(), winner));
    expect(paid.$kind).toBe('Transaction');
    expect(paid.Transaction!.events).toEqual([
      expect.objectContaining({
        eventType: `0x${'c1'.repeat(32)}::verifier::RewardClaimed`,
        json: expect.objectContaining({ history_id: '41', amount: '2500', nonce: '7' }),
      }),
    ]);
    expect((await coins(winner.toSuiAddress())).map((c) => c.balance)).toContain('2500');

    const twice = await execute(await signed(redeem(), winner));
    expect(twice.FailedTransaction?.status.error).toMatchObject({ MoveAbort: { abortCode: '7' } });
    now += 2 * 3_600_000;

    // A restart on the same DATA_DIR keeps coins, events and what the verifier paid.
    await chain.stop();
    chain = await startDevChain({ dataDir, now: () => new Date(now) });
    expect((await coins(winner.toSuiAddress())).map((c) => c.balance)).toContain('2500');
    expect(chain.state.events.some((e) => e.type.endsWith('::verifier::RewardClaimed'))).toBe(true);
    const late = await execute(await signed(redeem(), winner));
    expect(late.FailedTransaction?.status.error).toMatchObject({ MoveAbort: { abortCode: '5' } });
  });
});
