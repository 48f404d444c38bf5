/**
 * The player's wallet for docs/quickstart.md, in a few lines of @mysten/sui:
 *
 *   npx tsx docs/quickstart/wallet.ts sign-in   # signs the service's nonce, prints the answer and `export` lines
 *   npx tsx docs/quickstart/wallet.ts pay       # pays $BILL_NO ($AMOUNT base units of SUI to $RECEIVE_ADDRESS)
 *                                               # through the Sui Payment Kit on testnet, prints TX_DIGEST
 *
 * The key is kept in QUICKSTART_KEY (default `.quickstart-key`, created on first use, readable by you only), so
 * both commands are the same wallet. BASE_URL (default http://localhost:3000) is the service, SUI_GRAPHQL_URL
 * (default Sui testnet's GraphQL RPC) the chain. Standard output is only `export` lines, for `eval`; what the
 * reader should see goes to standard error.
 */
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { SuiGraphQLClient } from '@mysten/sui/graphql';
import { Ed25519Keypair } from '@mysten/sui/keypairs/ed25519';
import { Transaction } from '@mysten/sui/transactions';

/** Mysten's Payment Kit package on testnet (docs/api.md "Payments through the Sui Payment Kit"). */
export const PAYMENT_KIT_TESTNET = '0x7e069abe383e80d32f2aec17b3793da82aabc8c2edf84abbf68dd7b719e71497';

const baseUrl = process.env.BASE_URL ?? 'http://localhost:3000';
const keyFile = process.env.QUICKSTART_KEY ?? '.quickstart-key';

function wallet(): Ed25519Keypair {
  if (existsSync(keyFile)) return Ed25519Keypair.fromSecretKey(readFileSync(keyFile, 'utf8').trim());
  const keypair = Ed25519Keypair.generate();
  writeFileSync(keyFile, `${keypair.getSecretKey()}\n`, { mode: 0o600 });
  return keypair;
}

/** Shown to the reader (standard error, which `eval "$(…)"` lets through); standard output is for `eval`. */
const say = (text: string) => console.error(text);
const exportLine = (name: string, value: string) => console.log(`export ${name}='${value.replace(/'/g, `'\\''`)}'`);

// The answers' shapes are the API reference's; this script reads three fields of them.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function api(method: string, path: string, body?: unknown): Promise<any> {
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const answer = await res.json();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(answer)}`);
  return answer;
}

/** Wallet sign-in (docs/api.md, "Player identity"): the nonce's message signed as a Sui personal message. */
async function signIn() {
  const keypair = wallet();
  const address = keypair.toSuiAddress();
  const nonce = await api('GET', `/v2-testing/account/nonce?address=${address}`);
  const { signature } = await keypair.signPersonalMessage(new TextEncoder().encode(nonce.data.message));
  const uuid = process.env.PLAYER_ID ?? randomUUID();
  const answer = await api('POST', '/v2-testing/account/register/chainwallet', { uuid, address, signature });
  // The answer is the player's token pair; the tokens themselves are not printed, only exported.
  const elided = (token: { expiresAt: string }) => ({ ...token, accessToken: '…' });
  say(JSON.stringify({ platformToken: elided(answer.platformToken), gameToken: elided(answer.gameToken) }, null, 2));
  exportLine('PLAYER_ID', uuid);
  exportLine('PLAYER_ADDRESS', address);
  exportLine('PLAYER', answer.platformToken.accessToken);
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
  const need = (name: string) =>
    process.env[name] ??
    (() => {
      throw new Error(`${name} is not set (see docs/quickstart.md)`);
    })();
  const keypair = wallet();
  const client = new SuiGraphQLClient({ url: process.env.SUI_GRAPHQL_URL ?? 'https://graphql.testnet.sui.io/graphql', network: 'testnet' });
  const transaction = paymentTransaction({ billNo: need('BILL_NO'), amount: need('AMOUNT'), receiver: need('RECEIVE_ADDRESS') });
  const result = await client.signAndExecuteTransaction({ transaction, signer: keypair });
  if (result.$kind !== 'Transaction') throw new Error(`the payment failed on chain: ${JSON.stringify(result.FailedTransaction)}`);
  say(`paid ${need('AMOUNT')} MIST for ${need('BILL_NO')} from ${keypair.toSuiAddress()}`);
  exportLine('TX_DIGEST', result.Transaction.digest);
}

const commands: Record<string, () => Promise<void>> = { 'sign-in': signIn, pay, address: async () => exportLine('PLAYER_ADDRESS', wallet().toSuiAddress()) };
const command = commands[process.argv[2] ?? ''];
if (import.meta.url === `file://${process.argv[1]}`) {
  if (!command) {
    console.error(`usage: npx tsx docs/quickstart/wallet.ts ${Object.keys(commands).join('|')}`);
    process.exit(2);
  }
  command().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
