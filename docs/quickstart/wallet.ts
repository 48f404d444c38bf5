/**
 * The player's wallet for docs/quickstart.md, in a few lines of @mysten/sui:
 *
 *   npx tsx docs/quickstart/wallet.ts faucet    # asks the chain's faucet for SUI for the wallet
 *   npx tsx docs/quickstart/wallet.ts pay       # pays $BILL_NO ($AMOUNT base units of SUI to $RECEIVE_ADDRESS)
 *                                               # through the Sui Payment Kit, prints TX_DIGEST
 *   npx tsx docs/quickstart/wallet.ts redeem    # redeems the signed claim $CLAIM_MESSAGE at the game's verifier
 *   npx tsx docs/quickstart/wallet.ts address   # the wallet's address
 *
 * The key is kept in QUICKSTART_KEY (default `.quickstart-key`, created on first use, readable by you only), so
 * every command (and docs/quickstart/player.ts, which signs in with it) is the same wallet; the player id it
 * signed in as is kept beside it (`<QUICKSTART_KEY>.player-id`). The chain is the development chain of the
 * local server running on DATA_DIR (`npm start` without CHAIN_CONFIG names it in DATA_DIR/server.json), else
 * SUI_GRAPHQL_URL and SUI_FAUCET_URL, else Sui testnet. Standard output is only `export` lines, for `eval`; what
 * the reader should see goes to standard error.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { requestSuiFromFaucetV2 } from '@mysten/sui/faucet';
import { SuiGraphQLClient } from '@mysten/sui/graphql';
import { Ed25519Keypair } from '@mysten/sui/keypairs/ed25519';
import { Transaction } from '@mysten/sui/transactions';
import { exportLine, need, runCommands, say } from './commands.js';

/** Mysten's Payment Kit package on testnet (docs/api.md "Payments through the Sui Payment Kit"). */
export const PAYMENT_KIT_TESTNET = '0x7e069abe383e80d32f2aec17b3793da82aabc8c2edf84abbf68dd7b719e71497';

const keyFile = process.env.QUICKSTART_KEY ?? '.quickstart-key';

/** The player id the game signed in with this wallet, kept beside its key, so a new shell signs in as the same player. */
const playerIdFile = `${keyFile}.player-id`;
export const keptPlayerId = (): string | undefined => (existsSync(playerIdFile) ? readFileSync(playerIdFile, 'utf8').trim() || undefined : undefined);
export const keepPlayerId = (id: string) => writeFileSync(playerIdFile, `${id}\n`, { mode: 0o600 });

export function wallet(): Ed25519Keypair {
  if (existsSync(keyFile)) return Ed25519Keypair.fromSecretKey(readFileSync(keyFile, 'utf8').trim());
  const keypair = Ed25519Keypair.generate();
  writeFileSync(keyFile, `${keypair.getSecretKey()}\n`, { mode: 0o600 });
  return keypair;
}

/**
 * The payment a wallet makes for an order: `process_ephemeral_payment<SUI>(nonce = the bill number, amount,
 * coin, receiver, clock)` of the Payment Kit, which moves exactly `amount` to the receiver and emits the
 * PaymentReceipt the service indexes. (A wallet that opens the order's `payment_uri` pays the same way through
 * a registry, which also refuses a second payment of the same bill.)
 */
export function paymentTransaction(order: { billNo: string; amount: string; receiver: string }, packageId = PAYMENT_KIT_TESTNET): Transaction {
  const tx = new Transaction();
  const [coin] = tx.splitCoins(tx.gas, [BigInt(order.amount)]);
  tx.moveCall({
    target: `${packageId}::payment_kit::process_ephemeral_payment`,
    typeArguments: ['0x2::sui::SUI'],
    arguments: [tx.pure.string(order.billNo), tx.pure.u64(BigInt(order.amount)), coin!, tx.pure.address(order.receiver), tx.object.clock()],
  });
  return tx;
}

/**
 * A claim's redemption (docs/claims.md): the game's verifier pays `redeem<SUI>(verifier, message, signature,
 * clock)` to its recipient, who sends it. The verifier is a shared object; on the development chain every shared
 * object starts at version 1 (on a network, `tx.object(id)` lets the SDK look its version up).
 */
export function redeemTransaction(claim: { packageId: string; verifier: string; message: string; signature: string }): Transaction {
  const tx = new Transaction();
  tx.moveCall({
    target: `${claim.packageId}::verifier::redeem`,
    typeArguments: ['0x2::sui::SUI'],
    arguments: [
      tx.sharedObjectRef({ objectId: claim.verifier, initialSharedVersion: 1, mutable: true }),
      tx.pure.vector('u8', Buffer.from(claim.message, 'hex')),
      tx.pure.vector('u8', Buffer.from(claim.signature, 'base64')),
      tx.object.clock(),
    ],
  });
  return tx;
}

/** The chain's GraphQL service and faucet: the local server's development chain, else the settings, else testnet. */
function chain(): { graphql: string; faucet: string } {
  const serverFile = join(process.env.DATA_DIR ?? '.data', 'server.json');
  const local = existsSync(serverFile)
    ? (JSON.parse(readFileSync(serverFile, 'utf8')) as { devChain?: { graphql: string; faucet: string } }).devChain
    : undefined;
  return (
    local ?? {
      graphql: process.env.SUI_GRAPHQL_URL ?? 'https://graphql.testnet.sui.io/graphql',
      faucet: process.env.SUI_FAUCET_URL ?? 'https://faucet.testnet.sui.io',
    }
  );
}

const client = () => new SuiGraphQLClient({ url: chain().graphql, network: 'testnet' });

/**
 * Signs and executes `transaction` from the wallet, paying gas with its largest SUI coin at the reference gas
 * price (set here rather than left to the SDK, which would ask the service to simulate the transaction first).
 */
async function execute(transaction: Transaction) {
  const keypair = wallet();
  const sui = client();
  const owner = keypair.toSuiAddress();
  const { objects } = await sui.listCoins({ owner });
  const coin = objects.sort((a, b) => Number(BigInt(b.balance) - BigInt(a.balance)))[0];
  if (!coin) throw new Error(`the wallet ${owner} holds no SUI: run \`npx tsx docs/quickstart/wallet.ts faucet\` first`);
  transaction.setSender(owner);
  transaction.setGasPrice(BigInt((await sui.getReferenceGasPrice()).referenceGasPrice));
  transaction.setGasBudget(10_000_000);
  transaction.setGasPayment([{ objectId: coin.objectId, version: coin.version, digest: coin.digest }]);
  const result = await sui.signAndExecuteTransaction({ transaction, signer: keypair });
  if (result.$kind !== 'Transaction') throw new Error(`the transaction failed on chain: ${result.FailedTransaction.status.error?.message}`);
  return result.Transaction;
}

async function faucet() {
  const address = wallet().toSuiAddress();
  const { coins_sent } = await requestSuiFromFaucetV2({ host: chain().faucet, recipient: address });
  say(JSON.stringify({ address, received_mist: String(coins_sent?.reduce((sum, coin) => sum + coin.amount, 0) ?? 0) }));
}

async function pay() {
  const paid = await execute(paymentTransaction({ billNo: need('BILL_NO'), amount: need('AMOUNT'), receiver: need('RECEIVE_ADDRESS') }));
  say(`paid ${need('AMOUNT')} MIST for ${need('BILL_NO')} from ${wallet().toSuiAddress()}`);
  exportLine('TX_DIGEST', paid.digest);
}

async function redeem() {
  const claim = { packageId: need('CLAIM_PACKAGE'), verifier: need('CLAIM_VERIFIER'), message: need('CLAIM_MESSAGE'), signature: need('CLAIM_SIGNATURE') };
  const redeemed = await execute(redeemTransaction(claim));
  say(JSON.stringify({ digest: redeemed.digest, status: redeemed.status.success ? 'success' : 'failure' }));
}

runCommands(import.meta.url, 'wallet.ts', { faucet, pay, redeem, address: async () => exportLine('PLAYER_ADDRESS', wallet().toSuiAddress()) });
