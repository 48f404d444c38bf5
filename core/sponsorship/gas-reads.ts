import { SuiGraphQLClient } from '@mysten/sui/graphql';
import { graphql } from '@mysten/sui/graphql/schema';
import { ChainNodeError, chainUnreadable, nodeFailure } from '../chain/errors.js';
import { networkOf } from '../chain/names.js';
import { DEFAULT_TIMEOUT_MS } from '../chain/source.js';
import type { Chain } from '../chain/types.js';
import { platformError } from '../platform/errors.js';
import { logError } from '../platform/log.js';

/**
 * What the sponsor reads of the chain before it signs, from the stage's GraphQL service (the default source; a
 * stage on a JSON-RPC node sponsors nothing): the epoch and its reference gas price, and the sponsor's SUI coins
 * with their current versions. A coin's version is what says whether a transaction it was signed into has
 * run: executing it (even a failed one, which still pays gas) writes the coin, so its version moves on.
 */

/** One of the sponsor's SUI coins, as a transaction's gas payment names it. */
export interface GasCoin {
  objectId: string;
  version: string;
  digest: string;
  balance: bigint;
}

export interface GasState {
  /** The current epoch: the sponsored transaction expires at its end. */
  epoch: string;
  /** The reference gas price, MIST per unit: what the sponsor offers. */
  price: bigint;
  /** The sponsor's coins, at most GAS_COINS of them, largest first. */
  coins: GasCoin[];
  /** Their total. */
  balance: bigint;
}

/** How many of the sponsor's coins are read: as many claims can be pending at once (one coin each). */
export const GAS_COINS = 50;

const EpochQuery = graphql(`
  query SponsorEpoch {
    epoch { epochId referenceGasPrice }
  }
`);

const clients = new Map<string, SuiGraphQLClient>();
const clientOf = (url: string) => {
  let client = clients.get(url);
  if (!client) clients.set(url, (client = new SuiGraphQLClient({ url, network: networkOf(url) })));
  return client;
};

/** The chain's epoch, gas price and the sponsor's coins; 503 chain.unreadable when the service fails. */
export async function gasState(chain: Chain | undefined, sponsor: string): Promise<GasState> {
  if (chain?.config.kind !== 'graphql')
    throw platformError('chain.unconfigured', 'id: the stage reads no gas state from the chain (a GraphQL ChainConfig is needed to sponsor claims)');
  const client = clientOf(chain.config.url);
  try {
    const signal = AbortSignal.timeout(DEFAULT_TIMEOUT_MS);
    const [epochAnswer, coinsAnswer] = await Promise.all([
      client.query({ query: EpochQuery, signal }),
      client.listCoins({ owner: sponsor, limit: GAS_COINS, signal }),
    ]);
    const epoch = epochAnswer.data?.epoch;
    if (epochAnswer.errors?.length || !epoch?.referenceGasPrice) throw new ChainNodeError('epoch: the service answered no reference gas price');
    const coins = coinsAnswer.objects
      .map((coin) => ({ objectId: coin.objectId, version: coin.version, digest: coin.digest, balance: BigInt(coin.balance) }))
      .sort((a, b) => (b.balance > a.balance ? 1 : b.balance < a.balance ? -1 : 0));
    return {
      epoch: String(epoch.epochId),
      price: BigInt(epoch.referenceGasPrice as string),
      coins,
      balance: coins.reduce((sum, coin) => sum + coin.balance, 0n),
    };
  } catch (error) {
    await logError('chain: sponsor gas read failed', { error: nodeFailure('sponsor gas', error, DEFAULT_TIMEOUT_MS).message });
    throw chainUnreadable('id');
  }
}
