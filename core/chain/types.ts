/**
 * The chain as the platform sees it: a source of Move events and of transactions' events, behind one
 * interface with a JSON-RPC implementation (the seed's `suix_queryEvents`) and a GraphQL one (Sui's
 * successor API), chosen per stage by configuration.
 */

/** Position in an event stream: JSON-RPC's `{eventSeq, txDigest}`, or a GraphQL source's opaque cursor. */
export type EventCursor = { eventSeq: string; txDigest: string } | { graphql: string };

export interface ChainEvent {
  /** Fully qualified Move event type, e.g. `0xabc::pay::PaymentEvent`. */
  type: string;
  txDigest: string;
  eventSeq: string;
  sender: string;
  /** The event's fields as JSON (u64 as decimal text, addresses as 0x hex). */
  parsedJson: Record<string, unknown>;
  timestampMs?: string;
}

export interface EventPage {
  events: ChainEvent[];
  /** Where the next page starts; null when the stream has nothing after these events. */
  nextCursor: EventCursor | null;
  hasNextPage: boolean;
}

/**
 * One balance change of a transaction: the net amount of one coin type an owner gained (positive) or spent
 * (negative), as both node APIs report it (JSON-RPC `balanceChanges` of sui_getTransactionBlock with
 * showBalanceChanges; GraphQL `effects.balanceChanges`).
 */
export interface BalanceChange {
  /** The owning address or object id in full (0x and 64 lower-case hex digits); '' for an owner that is neither. */
  owner: string;
  /** The coin type with every address in full (canonicalType), e.g. `0x0…02::sui::SUI`. */
  coinType: string;
  /** Signed decimal text of base units. */
  amount: string;
}

export interface ChainSource {
  /** Events of one type after `cursor` (null: from the beginning), oldest first, at most `limit` (<= 50). */
  queryEvents(eventType: string, cursor: EventCursor | null, limit: number): Promise<EventPage>;
  /** The events a transaction emitted; undefined when the node does not know the transaction. */
  transactionEvents(digest: string): Promise<ChainEvent[] | undefined>;
  /** The balance changes of a transaction; undefined when the node does not know the transaction. */
  balanceChanges(digest: string): Promise<BalanceChange[] | undefined>;
}

/** A stage's chain settings (CHAIN_CONFIG locally, the ChainConfig secret deployed), as JSON. */
export interface ChainConfig {
  /** Which API the source speaks. */
  kind: 'jsonrpc' | 'graphql';
  /** The full node's JSON-RPC URL, or the GraphQL service's URL. */
  url: string;
  /** The Move event type of payments (bill_no, amount, from, to, and optionally coin_type). */
  paymentEventType: string;
  /** Move call target clients pay with, shown by getDepositaddress, e.g. `0xabc::pay::pay`. */
  paymentFunction?: string;
  /** The Move event type of reward claims paid on chain (history_id, recipient, amount, nonce); unset: none indexed. */
  claimEventType?: string;
}

export interface Chain {
  config: ChainConfig;
  source: ChainSource;
}
