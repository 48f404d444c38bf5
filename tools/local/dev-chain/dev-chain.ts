import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TransactionDataBuilder } from '@mysten/sui/transactions';
import { fromBase64, isValidSuiAddress, normalizeSuiAddress } from '@mysten/sui/utils';
import { ChainState, randomAddress, randomDigest, SUI, type ChainStateJson } from './chain-script.js';
import { CLAIM_EVENT_TYPE, selfBoundVerifier, verifierFunctions } from './claim-verifier.js';
import { answerGraphQL, graphQLStoreFailure } from './graphql.js';
import { startRawLoopback, type RawAnswer } from './loopback.js';
import { KIT_PACKAGE, paymentKitFunctions } from './payment-kit.js';
import { coinObject, executeTransaction, type ExecutedTransaction } from './transactions.js';

/**
 * The development chain `npm start` runs when no CHAIN_CONFIG is set: a loopback stand-in for a Sui network,
 * on 127.0.0.1 only, answering the platform's and the wallets' reads in Sui GraphQL's real format (graphql.ts),
 * executing signed transactions of the Move functions it knows (the Payment Kit's ephemeral payment and the
 * reward claim verifier's redeem; transactions.ts), and giving SUI from a faucet that speaks the Sui faucet's
 * v2 protocol (`POST /v2/gas`, as `requestSuiFromFaucetV2` of `@mysten/sui/faucet` calls it). Its state is
 * kept in DATA_DIR, so a restart keeps coins, payments and redeemed claims, and the indexer's cursor stays good.
 *
 * It exists only on the local stage: nothing deployed imports it, and a deployed stage refuses a chain
 * setting that names a loopback host (core/platform/stand-ins.ts).
 */

/** What one faucet request gives: 10 SUI in MIST. */
export const FAUCET_AMOUNT = 10_000_000_000n;

export interface DevChain {
  /** The GraphQL endpoint (`<url>/graphql`). */
  graphqlUrl: string;
  /** The faucet's host (`POST <url>/v2/gas`). */
  faucetUrl: string;
  /** The stage's chain setting for this chain (the CHAIN_CONFIG it stands in for). */
  chainSetting: string;
  state: ChainState;
  /** A shared claim verifier made by `create_self_bound<SUI>` and funded with `pool`: its object id. */
  createVerifier(options: { publicKey: Uint8Array; chain: string; pool: bigint }): string;
  stop(): Promise<void>;
}

interface Saved {
  state: ChainStateJson;
  transactions: ExecutedTransaction[];
}

export async function startDevChain(options: { dataDir: string; now: () => Date }): Promise<DevChain> {
  const file = join(options.dataDir, 'dev-chain.json');
  const state = new ChainState();
  const transactions = new Map<string, ExecutedTransaction>();
  if (existsSync(file)) {
    const saved = JSON.parse(readFileSync(file, 'utf8')) as Saved;
    state.restore(saved.state);
    for (const transaction of saved.transactions) transactions.set(transaction.digest, transaction);
  }
  const save = () => {
    writeFileSync(`${file}.tmp`, JSON.stringify({ state: state.toJSON(), transactions: [...transactions.values()] } satisfies Saved));
    renameSync(`${file}.tmp`, file);
  };
  // Genesis: the Clock, the shared object every time-reading call takes (its time is the chain's now).
  if (!state.objects.has(CLOCK_ID)) state.putObject(clockObject());
  const functions = new Map([...paymentKitFunctions, ...verifierFunctions]);

  // One transaction at a time: two spending the same coin version must not both pass the version check.
  let queue: Promise<unknown> = Promise.resolve();
  const serially = <T>(work: () => Promise<T>): Promise<T> => {
    const run = queue.then(work, work);
    queue = run.catch(() => undefined);
    return run;
  };
  const execute = (transactionDataBcs: string, signatures: string[]) =>
    serially(async () => {
      // The same transaction again answers its first execution, as a validator does (its coins have moved on).
      const done = transactions.get(TransactionDataBuilder.getDigestFromBytes(fromBase64(transactionDataBcs)));
      if (done) return done;
      const executed = await executeTransaction(state, functions, transactionDataBcs, signatures, options.now().getTime());
      transactions.set(executed.digest, executed);
      save();
      return executed;
    });

  const faucet = (body: unknown): RawAnswer => {
    const recipient = (body as { FixedAmountRequest?: { recipient?: unknown } } | undefined)?.FixedAmountRequest?.recipient;
    if (typeof recipient !== 'string' || !isValidSuiAddress(recipient)) {
      return json(400, { status: { Failure: { internal: 'expected {"FixedAmountRequest": {"recipient": "0x…"}}' } }, coins_sent: null });
    }
    const owner = normalizeSuiAddress(recipient);
    const id = randomAddress();
    const digest = randomDigest();
    state.putObject(coinObject(id, owner, SUI, FAUCET_AMOUNT)).changes(digest, { owner, coinType: SUI, amount: FAUCET_AMOUNT.toString() });
    transactions.set(digest, { digest, sender: owner, signatures: [], timestampMs: options.now().getTime() });
    save();
    return json(200, { status: 'Success', coins_sent: [{ amount: Number(FAUCET_AMOUNT), id, transferTxDigest: digest }] });
  };

  const loopback = await startRawLoopback({
    decode: (request) => JSON.parse(request.body.toString('utf8')),
    answer: async (request, body) => {
      if (request.path === '/graphql') {
        return json(200, await answerGraphQL({ state, executed: (digest) => transactions.get(digest), execute }, body));
      }
      if (request.path === '/v2/gas') return serially(async () => faucet(body));
      return json(404, { message: `nothing at ${request.path}: the GraphQL service is at /graphql, the faucet at /v2/gas` });
    },
    error: () => json(200, graphQLStoreFailure()),
  });

  return {
    graphqlUrl: `${loopback.url}/graphql`,
    faucetUrl: loopback.url,
    chainSetting: JSON.stringify({ url: `${loopback.url}/graphql`, paymentKit: { packageId: KIT_PACKAGE }, claimEventType: CLAIM_EVENT_TYPE }),
    state,
    createVerifier({ publicKey, chain, pool }) {
      const id = randomAddress();
      state.putObject(selfBoundVerifier(id, { publicKey, chain, coinType: SUI, pool }));
      save();
      return id;
    },
    stop: () => loopback.stop(),
  };
}

const CLOCK_ID = `0x${'0'.repeat(63)}6`;
const CLOCK_TYPE = `0x${'0'.repeat(63)}2::clock::Clock`;
const clockObject = () => ({
  objectId: CLOCK_ID,
  type: CLOCK_TYPE,
  owner: { kind: 'SHARED' as const },
  fields: { id: CLOCK_ID, timestamp_ms: '0' },
  layout: {
    struct: {
      type: CLOCK_TYPE,
      fields: [
        { name: 'id', layout: 'address' },
        { name: 'timestamp_ms', layout: 'u64' },
      ],
    },
  },
});

const json = (status: number, body: unknown): RawAnswer => ({ status, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
