/**
 * The chain as the platform sees it: a source of Move events and of transactions' events, behind one
 * interface with a GraphQL implementation (Sui's live API, the default) and a JSON-RPC one (the contract's
 * `suix_queryEvents`, for a node that still serves it), chosen per stage by configuration; and reads of
 * live objects and transactions from a full node's gRPC API (ChainReads), when the stage names one.
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
  /** Which API the source speaks: `graphql` unless the setting names `jsonrpc`. */
  kind: 'jsonrpc' | 'graphql';
  /** The GraphQL service's URL, or the full node's JSON-RPC URL. */
  url: string;
  /** A full node's gRPC URL (gRPC-web over HTTP, e.g. `https://fullnode.testnet.sui.io:443`); unset: no ChainReads. */
  grpcUrl?: string;
  /**
   * The Move event type of payments by a project's own contract (bill_no, amount, from, to, and optionally
   * coin_type); unset when the stage takes only Payment Kit payments (one of the two is required).
   */
  paymentEventType?: string;
  /** Move call target clients pay with, shown by getDepositaddress, e.g. `0xabc::pay::pay`. */
  paymentFunction?: string;
  /** Payments through the Sui Payment Kit (core/payments/payment-kit.ts); unset: none taken. */
  paymentKit?: PaymentKitConfig;
  /** The Move event type of reward claims paid on chain (history_id, recipient, amount, nonce); unset: none indexed. */
  claimEventType?: string;
}

/** Where the stage's Payment Kit payments go: the standard's package and the registry the URI names. */
export interface PaymentKitConfig {
  /** The Payment Kit package (its original id: the receipt's type is named by it), 0x and 64 hex digits. */
  packageId: string;
  /** The registry payments go through: its object id, or its name (`default-payment-registry` unless told). */
  registry: string;
}

export interface Chain {
  config: ChainConfig;
  source: ChainSource;
  /** Reads from the full node at `grpcUrl`; undefined when the setting names none. */
  reads?: ChainReads;
}

/**
 * Who owns an object, as a full node reports it. A consensus-managed address-owned object counts as owned by
 * its address (what an ownership check asks); an object owned by another object (a dynamic object field,
 * e.g. an NFT placed in a kiosk) names that object.
 */
export type ObjectOwner = { kind: 'address'; address: string } | { kind: 'object'; objectId: string } | { kind: 'shared' } | { kind: 'immutable' };

/** A live object: what an NFT check reads (who owns it, what it is, its fields). */
export interface ChainObject {
  /** 0x and 64 lower-case hex digits. */
  objectId: string;
  /** The object's version (decimal text); it changes with every transaction that writes the object. */
  version: string;
  /** The Move type with every address in full (canonicalType), e.g. `0x…::hero::Hero`. */
  type: string;
  owner: ObjectOwner;
  /** The object's fields as the node renders Move values as JSON (u64 as text, `vector<u8>` as Base64). */
  fields: Record<string, unknown>;
}

/**
 * Point reads of a full node's current state, for the capabilities that check what is on chain now (the
 * hero game's NFTs). Failures are ChainNodeError, as the source's; "not there" is undefined.
 */
export interface ChainReads {
  /**
   * The live object with this id; undefined when there is none. A full node keeps only live objects by id:
   * one never created, one deleted and one wrapped inside another object (its id is not addressable until
   * unwrapped) all read as NOT_FOUND, so all three are undefined here.
   */
  object(objectId: string): Promise<ChainObject | undefined>;
  /**
   * The events a transaction emitted; undefined when the node does not know the transaction. `parsedJson`
   * is the node's JSON rendering, which differs from the sources' in one way: a `vector<u8>` field is Base64
   * text, not an array of numbers (gRPC gives no type layout to tell byte vectors apart), so these events are
   * not for storing as payment records (the source's transactionEvents is).
   */
  transactionEvents(digest: string): Promise<ChainEvent[] | undefined>;
}
