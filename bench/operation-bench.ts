import type { Base, GroupName } from '../core/http/operation.js';
import type { CallOptions } from '../test/support/http.js';
import type { BenchDeps } from './fixtures.js';

/**
 * The operations measured by the DynamoDB request count (bench/requests.ts), one entry each: which route
 * table operation, how to put it in its steady state, the request, and the fewest DynamoDB requests its
 * access pattern needs (with why). Method and path come from the route table. An operation of the route
 * table with no entry here is listed as unbenched.
 */
export interface OperationBench {
  group: GroupName;
  /** The operation's key in its group's route table. */
  op: string;
  base?: Base;
  /** Shown instead of the operation's name when one operation has several entries. */
  label?: string;
  minimum: number;
  reason: string;
  /** The fewest capacity units the operation's guarantees need, with why (see `Units`). */
  units: Units;
  /** For an operation that moves value: the fewest round trips and write units its guarantees need (the budget). */
  floor?: Floor;
  /** Makes the fixtures and returns the request (token, query, body, path params); run before counting starts. */
  prepare: (deps: BenchDeps) => Promise<BenchRequest>;
}

/**
 * The floor of an operation that moves value (docs/performance.md "Money at the write floor"): the fewest
 * sequential round trips to DynamoDB (requests made one after another; requests in parallel count once) and the
 * fewest write units its guarantees need, with why. bench/requests.ts fails the budget when the call makes more
 * sequential round trips than `roundTrips`, or spends more than FLOOR_WRITE_RATIO times `write`.
 */
export interface Floor {
  roundTrips: number;
  write: number;
  why: string;
}

/** How far above its floor's write units an operation may be and stay within its budget. */
export const FLOOR_WRITE_RATIO = 1.25;

/**
 * The fewest write and read units an operation's guarantees need on DynamoDB's on-demand billing
 * (bench/capacity.ts), beside which bench/requests.ts prints what the call cost. Counted from the requests of its
 * `minimum`, each item at the size it has to have: a read strongly consistent (1 unit per 4 KB) only where a write
 * or a value-moving answer depends on the latest value (the account state and gone marks the policy reads fresh,
 * a balance, a login's throttle, a client's or session's revocation), eventually consistent (0.5) where the answer
 * is only shown or a transaction's condition decides anyway (one BatchGetItem reads a table at one consistency);
 * a missing item still costs the minimum read. A write is 1 unit per KB, 2 when it has to be atomic with another
 * (a transaction, a ConditionCheck included), plus one write per entry of each index whose reads need the item
 * (the indexes project every attribute: an update rewrites the entry, a changed index key moves it, 2 writes).
 * An operation above its minimum spends units no guarantee of its needs: the findings of docs/performance.md
 * "What each operation costs".
 */
export interface Units {
  write: number;
  read: number;
  why: string;
}

export interface BenchRequest extends CallOptions {
  /** Values of the path's `:name` segments. */
  params?: Record<string, string | number>;
}
