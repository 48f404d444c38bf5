/**
 * The player's wallet for docs/quickstart.md, in a few lines of @mysten/sui:
 *
 *   npx tsx docs/quickstart/wallet.ts pay       # pays $BILL_NO ($AMOUNT base units of SUI to $RECEIVE_ADDRESS)
 *                                               # through the Sui Payment Kit on testnet, prints TX_DIGEST
 *   npx tsx docs/quickstart/wallet.ts address   # the wallet's address, to fund it
 *
 * The key is kept in QUICKSTART_KEY (default `.quickstart-key`, created on first use, readable by you only), so
 * every command (and docs/quickstart/player.ts, which signs in with it) is the same wallet; the player id it
 * signed in as is kept beside it (`<QUICKSTART_KEY>.player-id`). SUI_GRAPHQL_URL
 * (default Sui testnet's GraphQL RPC) is the chain. Standard output is only `export` lines, for `eval`; what the
 * reader should see goes to standard error.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
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

async function pay() {
  const keypair = wallet();
  const client = new SuiGraphQLClient({ url: process.env.SUI_GRAPHQL_URL ?? 'https://graphql.testnet.sui.io/graphql', network: 'testnet' });
  const transaction = paymentTransaction({ billNo: need('BILL_NO'), amount: need('AMOUNT'), receiver: need('RECEIVE_ADDRESS') });
  const result = await client.signAndExecuteTransaction({ transaction, signer: keypair });
  if (result.$kind !== 'Transaction') throw new Error(`the payment failed on chain: ${JSON.stringify(result.FailedTransaction)}`);
  say(`paid ${need('AMOUNT')} MIST for ${need('BILL_NO')} from ${keypair.toSuiAddress()}`);
  exportLine('TX_DIGEST', result.Transaction.digest);
}

runCommands(import.meta.url, 'wallet.ts', { pay, address: async () => exportLine('PLAYER_ADDRESS', wallet().toSuiAddress()) });
