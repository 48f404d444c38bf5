import { randomBytes } from 'node:crypto';
import { toBase58 } from '@mysten/sui/utils';

/**
 * A Sui chain's state as the development chain and the tests' loopback nodes serve it: events in chain order,
 * the transactions that emitted them, their balance changes and the live objects, each in the terms every one of
 * Sui's read APIs (JSON-RPC, GraphQL, gRPC) renders. Scripted directly by the tests; written by executed
 * transactions on the development chain (dev-chain.ts).
 */

/** One event on the scripted chain, as the JSON-RPC node renders it, plus its type's layout for GraphQL. */
export interface ScriptEvent {
  txDigest: string;
  eventSeq: number;
  /** Fully qualified Move type, addresses in full. */
  type: string;
  sender: string;
  /** JSON-RPC's parsedJson: u64 as text, `vector<u8>` as an array of numbers. */
  parsedJson: Record<string, unknown>;
  timestampMs: string;
  /** The Move type layout (GraphQL's MoveTypeLayout), which says how GraphQL renders each field. */
  layout: unknown;
}

/** One balance change of a scripted transaction: an address gained (positive) or spent (negative) a coin. */
export interface ScriptBalanceChange {
  /** An address in full (0x and 64 hex digits). */
  owner: string;
  /** The coin type, addresses in full or short (`0x2::sui::SUI`); each server renders it as its API does. */
  coinType: string;
  /** Signed decimal text of base units. */
  amount: string;
}

/** Who owns a scripted object, in the gRPC Owner's terms (kind, and the owning address or object id). */
export type ScriptOwner = { kind: 'ADDRESS' | 'CONSENSUS_ADDRESS' | 'OBJECT'; address: string } | { kind: 'SHARED' } | { kind: 'IMMUTABLE' };

/** A live object on the scripted chain. */
export interface ScriptObject {
  /** 0x and 64 hex digits. */
  objectId: string;
  version: number;
  /** Fully qualified Move type, addresses in full. */
  type: string;
  owner: ScriptOwner;
  /** The object's fields as JSON-RPC's parsedJson renders them (u64 as text, `vector<u8>` as numbers). */
  fields: Record<string, unknown>;
  /** The type's layout, which says how the gRPC and GraphQL renderings differ (byte vectors). */
  layout: unknown;
  /** The digest of this version (base58), new at every write. */
  digest?: string;
}

/** A chain state as JSON, to keep it between runs (the development chain's file in DATA_DIR). */
export interface ChainStateJson {
  events: ScriptEvent[];
  quietTransactions: string[];
  balanceChanges: [string, ScriptBalanceChange[]][];
  objects: ScriptObject[];
  goneObjects: [string, 'deleted' | 'wrapped'][];
}

/**
 * The chain: events in chain order (oldest first), transactions known to the node without events, the
 * balance changes of transactions (a transaction without scripted changes has none), and live objects by id
 * (deleting or wrapping one takes it out: a node keeps only live objects by id).
 */
export class ChainState {
  readonly events: ScriptEvent[] = [];
  readonly quietTransactions = new Set<string>();
  readonly balanceChanges = new Map<string, ScriptBalanceChange[]>();
  readonly objects = new Map<string, ScriptObject>();
  /** Ids of objects that were live and no longer are, and why. */
  readonly goneObjects = new Map<string, 'deleted' | 'wrapped'>();

  /** Creates or writes an object (a new version when it exists). */
  putObject(object: Omit<ScriptObject, 'version'> & { version?: number }) {
    const version = object.version ?? (this.objects.get(object.objectId)?.version ?? 0) + 1;
    this.objects.set(object.objectId, { ...object, version, digest: randomDigest() });
    this.goneObjects.delete(object.objectId);
    return this;
  }

  /** Deletes an object, or wraps it in another (its id then names nothing live until it is unwrapped). */
  removeObject(objectId: string, how: 'deleted' | 'wrapped') {
    this.objects.delete(objectId);
    this.goneObjects.set(objectId, how);
    return this;
  }

  toJSON(): ChainStateJson {
    return {
      events: this.events,
      quietTransactions: [...this.quietTransactions],
      balanceChanges: [...this.balanceChanges],
      objects: [...this.objects.values()],
      goneObjects: [...this.goneObjects],
    };
  }

  /** Takes over a state kept as JSON (toJSON's). */
  restore(json: ChainStateJson) {
    this.events.push(...json.events);
    for (const digest of json.quietTransactions) this.quietTransactions.add(digest);
    for (const [digest, changes] of json.balanceChanges) this.balanceChanges.set(digest, changes);
    for (const object of json.objects) this.objects.set(object.objectId, object);
    for (const [id, how] of json.goneObjects) this.goneObjects.set(id, how);
    return this;
  }

  add(...events: ScriptEvent[]) {
    this.events.push(...events);
    return this;
  }

  /** Gives a transaction balance changes (the node then knows it, events or not). */
  changes(digest: string, ...changes: ScriptBalanceChange[]) {
    this.balanceChanges.set(digest, [...(this.balanceChanges.get(digest) ?? []), ...changes]);
    return this;
  }

  /** The events of a transaction, or undefined when the node does not know it. */
  transaction(digest: string): ScriptEvent[] | undefined {
    const events = this.events.filter((e) => e.txDigest === digest);
    return events.length > 0 || this.quietTransactions.has(digest) || this.balanceChanges.has(digest) ? events : undefined;
  }
}

export const SUI = '0x2::sui::SUI';

/** A coin type in full form (64 hex digits), as GraphQL and type_name render it. */
export const fullCoinType = (type: string) => type.replace(/0x([0-9a-fA-F]{1,64})(?=::)/g, (_, hex: string) => `0x${hex.toLowerCase().padStart(64, '0')}`);

/** A fresh transaction (or object) digest: 32 random bytes in base58, as Sui's are. */
export const randomDigest = () => toBase58(randomBytes(32));
export const randomAddress = () => `0x${randomBytes(32).toString('hex')}`;

/**
 * Move values as Sui's GraphQL and gRPC APIs render them as JSON (both through sui_types' proto_value
 * visitor): as JSON-RPC's parsedJson, but byte vectors as Base64 text. The layout says which fields are bytes.
 */
export function renderMoveJson(value: unknown, layout: unknown): unknown {
  if (typeof layout !== 'object' || layout === null) return value;
  const shape = layout as { vector?: unknown; struct?: { fields: { name: string; layout: unknown }[] }; enum?: unknown };
  if (shape.enum !== undefined && typeof value === 'object' && value !== null) {
    // JSON-RPC's `{variant, fields}` is `{"@variant", ...fields}` in the proto_value rendering.
    const { variant, fields } = value as { variant: string; fields?: Record<string, unknown> };
    return { '@variant': variant, ...fields };
  }
  if (shape.vector === 'u8' && Array.isArray(value)) return Buffer.from(value as number[]).toString('base64');
  if (shape.vector !== undefined && Array.isArray(value)) return value.map((item) => renderMoveJson(item, shape.vector));
  if (shape.struct && typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const fields = new Map(shape.struct.fields.map((f) => [f.name, f.layout]));
    return Object.fromEntries(Object.entries(value).map(([name, field]) => [name, renderMoveJson(field, fields.get(name))]));
  }
  return value;
}
