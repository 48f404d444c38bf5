import { JsonRpcError, SuiJsonRpcClient, type BalanceChange as RpcBalanceChange, type SuiEvent } from '@mysten/sui/jsonRpc';
import { isValidTransactionDigest } from '@mysten/sui/utils';
import { ChainNodeError, nodeFailure } from './errors.js';
import { canonicalType, networkOf } from './names.js';
import type { BalanceChange, ChainEvent, ChainSource, EventCursor } from './types.js';

/**
 * The contract's chain source: a Sui full node's JSON-RPC (`suix_queryEvents`, `sui_getTransactionBlock`) through
 * `@mysten/sui`'s legacy SuiJsonRpcClient. Sui's public JSON-RPC was switched off in July 2026; this stays for
 * an operator whose own node still serves it. graphql.ts is the default.
 */

/** A node serves at most this many events per page (QUERY_MAX_RESULT_LIMIT); it caps larger limits. */
export const MAX_PAGE = 50;

/**
 * The node's answer for a digest it does not hold: "Could not find the referenced transaction
 * [TransactionDigest(…)]." from full nodes, "Transaction … not found" from newer RPC services, both -32602
 * (invalid params). "Could not find the referenced transaction events" means the node has the transaction but
 * not its events (a history gap), which is a node failure, not an unknown transaction.
 */
const NOT_FOUND = /could not find the referenced transaction(?! events)|transaction \S+ not found/i;

export function jsonRpcSource(url: string, { timeoutMs }: { timeoutMs: number }): ChainSource {
  const client = new SuiJsonRpcClient({ url, network: networkOf(url) });

  return {
    async queryEvents(eventType, cursor, limit) {
      if (cursor && !('txDigest' in cursor)) throw new ChainNodeError('a JSON-RPC node cannot resume from a GraphQL cursor');
      try {
        const page = await client.queryEvents({
          query: { MoveEventType: eventType },
          cursor,
          limit: Math.min(Math.max(1, Math.floor(limit)), MAX_PAGE),
          // The SDK sends descending unless told otherwise (the node's own default is ascending): the indexer
          // needs oldest first, so that a cursor means "everything up to here is done".
          order: 'ascending',
          signal: AbortSignal.timeout(timeoutMs),
        });
        const events = page.data.map(toChainEvent);
        // A node answers an empty page with the cursor it was given; keep it so the caller never goes back.
        const next: EventCursor | null = page.nextCursor ? { eventSeq: page.nextCursor.eventSeq, txDigest: page.nextCursor.txDigest } : cursor;
        return { events, nextCursor: next, hasNextPage: page.hasNextPage };
      } catch (error) {
        throw nodeFailure('suix_queryEvents', error, timeoutMs);
      }
    },

    async transactionEvents(digest) {
      // The SDK refuses a digest that is not 32 bytes of base58 before asking; no node can know one.
      if (!isValidTransactionDigest(digest)) return undefined;
      try {
        const tx = await client.getTransactionBlock({ digest, options: { showEvents: true }, signal: AbortSignal.timeout(timeoutMs) });
        return (tx.events ?? []).map(toChainEvent);
      } catch (error) {
        if (error instanceof JsonRpcError && NOT_FOUND.test(error.message)) return undefined;
        throw nodeFailure('sui_getTransactionBlock', error, timeoutMs);
      }
    },

    async balanceChanges(digest) {
      if (!isValidTransactionDigest(digest)) return undefined;
      try {
        const tx = await client.getTransactionBlock({ digest, options: { showBalanceChanges: true }, signal: AbortSignal.timeout(timeoutMs) });
        return (tx.balanceChanges ?? []).map(toBalanceChange);
      } catch (error) {
        if (error instanceof JsonRpcError && NOT_FOUND.test(error.message)) return undefined;
        throw nodeFailure('sui_getTransactionBlock', error, timeoutMs);
      }
    },
  };
}

/**
 * The node's balance change (`{owner: ObjectOwner, coinType, amount}`) with the owner as a plain address: an
 * address owner (`AddressOwner`, or `ConsensusAddressOwner.owner`) or an owning object (`ObjectOwner`); shared
 * and immutable owners hold no balance of anyone's and read as ''.
 */
function toBalanceChange(change: RpcBalanceChange): BalanceChange {
  const { owner, coinType, amount } = change as { owner: unknown; coinType: unknown; amount: unknown };
  if (typeof coinType !== 'string' || typeof amount !== 'string' || !/^-?\d+$/.test(amount)) {
    throw new ChainNodeError('the node answered a balance change without coinType or an integer amount');
  }
  let address: unknown;
  if (isObject(owner)) {
    address = owner.AddressOwner ?? owner.ObjectOwner ?? (isObject(owner.ConsensusAddressOwner) ? owner.ConsensusAddressOwner.owner : undefined);
  }
  return { owner: fullAddress(address), coinType: canonicalType(coinType), amount };
}

const fullAddress = (value: unknown) =>
  typeof value === 'string' && /^0x[0-9a-fA-F]{1,64}$/.test(value) ? `0x${value.slice(2).toLowerCase().padStart(64, '0')}` : '';

/** The node's event JSON as a ChainEvent; an event without its id or type is not in the API's format. */
function toChainEvent(event: SuiEvent): ChainEvent {
  const { id, type, sender, parsedJson, timestampMs } = event;
  if (typeof id?.txDigest !== 'string' || typeof id.eventSeq !== 'string' || typeof type !== 'string') {
    throw new ChainNodeError('the node answered an event without id.txDigest, id.eventSeq or type');
  }
  return {
    type: canonicalType(type),
    txDigest: id.txDigest,
    eventSeq: id.eventSeq,
    sender: typeof sender === 'string' ? sender : '',
    parsedJson: isObject(parsedJson) ? parsedJson : {},
    ...(typeof timestampMs === 'string' ? { timestampMs } : {}),
  };
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
