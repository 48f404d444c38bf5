import * as z from 'zod/mini';
import { EXAMPLE, example } from '../shared/examples.js';
import { answered, intParam, oneOfTheChanges, pageCursor, paging, text } from '../shared/fields.js';
import { suiAddress } from '../shared/sui-address.js';
import { userId } from '../identity/models.js';
import { baseUnits } from '../shared/amounts.js';

/** Pay order `status`: 0 pending, 1 paid, 2 cancelled (replaced or expired), 3 refunded. */
export const OrderStatus = { pending: 0, paid: 1, cancelled: 2, refunded: 3 } as const;
/** Pay order `tx_type`: 1 chain payment, 2 App Store, 3 Google Play, 4 vendor payment. */
export const TxType = { chain: 1, appStore: 2, googlePlay: 3, vendor: 4 } as const;

/** A project's name: what players buy tickets of, and the `projectName` of ticket operations. */
export const projectName = z.string().check(z.regex(/^[A-Za-z0-9_-]{1,64}$/, 'expected 1-64 letters, digits, _ or -'), example(EXAMPLE.projectName));
/** A Move coin type such as `0x2::sui::SUI`. */
export const coinType = z
  .string()
  .check(z.regex(/^0x[0-9a-fA-F]{1,64}::\w+::\w+(<.+>)?$/, 'expected a coin type such as 0x2::sui::SUI'), z.maxLength(300), example(EXAMPLE.coinType));
const positiveInt = z.int().check(z.positive(), z.maximum(Number.MAX_SAFE_INTEGER));
const level = z.int().check(z.minimum(0), z.maximum(1_000_000));

export const Project = z.lazy(() =>
  z.object({
    project_id: z.int(),
    project_name: answered.projectName,
    description: z.string(),
    receive_address: answered.address,
    coin_type: answered.coinType,
    precison: z.int(),
    /** 1 on sale, 0 withdrawn. */
    status: z.int(),
    merchant_id: z.int(),
    create_time: answered.time,
    update_time: answered.time,
  }),
);
export type Project = z.infer<typeof Project>;

export const ProjectCreate = z.lazy(() =>
  z.object({
    project_name: projectName,
    description: z._default(text(2000), ''),
    receive_address: suiAddress,
    coin_type: coinType,
    precison: z.int().check(z.minimum(0), z.maximum(18)),
  }),
);
/** What may change on a project: not its coin or precision, which its prices and paid orders are in. */
export const PROJECT_CHANGES = ['description', 'receive_address', 'status'] as const;
export const ProjectUpdate = z.lazy(() =>
  z.object({
    project_name: projectName,
    description: z.optional(text(2000).check(oneOfTheChanges(PROJECT_CHANGES))),
    receive_address: z.optional(suiAddress.check(oneOfTheChanges(PROJECT_CHANGES))),
    status: z.optional(z.int().check(z.minimum(0), z.maximum(1), oneOfTheChanges(PROJECT_CHANGES))),
  }),
);

/**
 * A price level of a project: pay `amount` and get `tickets`. `amount` is the price in coins, as decimal text
 * with `precison` decimals (`0.5`); `amount_base` the same price in base units (`500000000`), what rechargeOrder's
 * `amount` must be.
 */
export const PriceLevel = z.lazy(() =>
  z.object({
    priceId: z.int(),
    project_id: z.int(),
    project_name: answered.projectName,
    level: z.int(),
    amount: answered.coins,
    amount_base: answered.baseUnits,
    coin_type: answered.coinType,
    precison: z.int(),
    tickets: z.int(),
    status: z.int(),
    /** Added: the App Store product a player buys this level with in the iOS app; null when none. */
    apple_product_id: z.nullable(z.string()),
    /** Added: the Google Play product a player buys this level with in the Android app; null when none. */
    google_product_id: z.nullable(z.string()),
  }),
);
export type PriceLevel = z.infer<typeof PriceLevel>;

/**
 * A store's product id: App Store Connect allows letters, digits, `.` and `_`; Google Play lower-case letters,
 * digits, `.` and `_`, starting with a letter or digit. One rule for both, bounded.
 */
const storeProductId = z
  .string()
  .check(
    z.regex(/^[A-Za-z0-9][A-Za-z0-9._]{0,99}$/, 'expected a store product id: letters, digits, "." and "_", at most 100, starting with a letter or digit'),
    example('arena.tickets.100'),
  );

export const LevelSave = z.lazy(() =>
  z.object({
    project_name: projectName,
    level,
    /** The price in the coin's base units (1 SUI = 10^9), up to u64's maximum, exact (core/shared/amounts.ts). */
    amount: baseUnits(),
    tickets: positiveInt,
    status: z._default(z.int().check(z.minimum(0), z.maximum(1)), 1),
    /** The level's App Store / Google Play product: absent keeps the saved one, null unlinks it. */
    apple_product_id: z.optional(z.nullable(storeProductId)),
    google_product_id: z.optional(z.nullable(storeProductId)),
  }),
);

export const ProjectQuery = z.lazy(() => z.object({ project: projectName }));

/**
 * The contract's Pay order record (plus bill_no, the reference the payment must carry, tickets, and amount_base: the
 * amount in base units as decimal text, where the contract's `amount` is in coins with `precison` decimals).
 */
export const PayOrder = z.object({
  id: z.int(),
  project_id: z.int(),
  deposit_id: z.nullable(z.int()),
  amount: answered.coins,
  amount_base: answered.baseUnits,
  wallet_address: answered.address,
  coin_type: answered.coinType,
  tx_type: z.int(),
  status: z.int(),
  created_at: answered.time,
  updated_at: answered.time,
  user_id: answered.userId,
  level: z.int(),
  precison: z.int(),
  bill_no: answered.billNo,
  tickets: z.int(),
  /**
   * Added: the order's link for an app store purchase, a UUID: the iOS app passes it as the purchase's
   * `appAccountToken`, the Android app as `obfuscatedExternalAccountId`; null for orders made before links.
   */
  app_account_token: z.nullable(answered.uuid),
});
export type PayOrder = z.infer<typeof PayOrder>;
export const PaidOrder = z.lazy(() => z.extend(PayOrder, { project_name: answered.projectName }));

/** A studio's orders list: which orders (`status`), of which of its projects, and where a page starts. */
export const StudioOrdersQuery = z.lazy(() =>
  z.object({
    /** `paid` (status 1), `pending` (status 0), or `all` (every status: cancelled 2 and refunded 3 too). */
    status: z._default(z.enum(['paid', 'pending', 'all']), 'all'),
    /** One of the caller's projects; absent: all of them. */
    project: z.optional(projectName),
    limit: z._default(intParam({ min: 1, max: 100 }), 20),
    cursor: z.optional(pageCursor),
  }),
);
export type StudioOrdersQuery = z.infer<typeof StudioOrdersQuery>;

/** One recharge order as a studio's console lists it. */
export const StudioOrder = z.object({
  id: z.int(),
  bill_no: answered.billNo,
  project_name: answered.projectName,
  /** The price level bought. */
  level: z.int(),
  /** The price paid or to pay, in the coin's base units: an integer as decimal text, exact to u64. */
  amount_base: answered.baseUnits,
  coin_type: answered.coinType,
  /** The coin's decimals: `amount_base` / 10^precison coins. */
  precison: z.int(),
  /** Tickets the order credits (credited once it is paid). */
  tickets: z.int(),
  /** 0 pending, 1 paid, 2 cancelled, 3 refunded. */
  status: z.int(),
  /** 1 chain payment, 2 App Store, 3 Google Play. */
  tx_type: z.int(),
  created_at: answered.time,
  /** When it was paid; null while it never was. */
  paid_at: z.nullable(answered.time),
  /** The chain transaction that paid it (an App Store or Google Play purchase: the store's transaction reference); null while unpaid. */
  tx_digest: z.nullable(answered.txDigest),
  /** The player's user id (a deleted player's orders: the deletion's pseudonym, `former:<uuid>`). */
  user_id: answered.userId,
});
export type StudioOrder = z.infer<typeof StudioOrder>;

/** A page of a studio's orders, newest first: `next` the cursor of the page after it, null on the last. */
export const StudioOrdersPage = z.lazy(() => z.object({ items: z.array(StudioOrder), next: z.nullable(answered.cursor) }));
export type StudioOrdersPage = z.infer<typeof StudioOrdersPage>;

export const RechargeOrderBody = z.lazy(() =>
  z.object({
    userId,
    project: projectName,
    priceId: positiveInt,
    /** An earlier pending order of the caller to cancel in the same transaction; negative for none. */
    prevId: z.int().check(example(-1)),
    level,
    /**
     * The level's price in base units, as the client showed it: a changed price is refused, never charged. Exact up
     * to u64's maximum: a JSON integer of any size, or decimal text (core/shared/amounts.ts).
     */
    amount: baseUnits(),
  }),
);

export const OrderCompleteBody = z.lazy(() =>
  z.object({
    orderId: positiveInt,
    transactionId: z.string().check(z.regex(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/, 'expected a transaction digest (base58)'), example(EXAMPLE.txDigest)),
  }),
);

export const DepositQuery = z.lazy(() => z.object({ project: projectName, orderId: z.optional(intParam({ min: 1 })) }));
export const DepositAddress = z.lazy(() =>
  z.object({
    project_name: answered.projectName,
    receive_address: answered.address,
    coin_type: answered.coinType,
    precison: z.int(),
    payment_function: z.nullable(z.string()),
    order: z.nullable(
      z.object({
        id: z.int(),
        bill_no: answered.billNo,
        amount: answered.coins,
        amount_base: answered.baseUnits,
        status: z.int(),
        /** Added: the Sui Payment Kit URI that pays this order; null when the stage takes none or it is not pending. */
        payment_uri: z.nullable(z.string()),
      }),
    ),
  }),
);

export const PageQuery = z.lazy(() => z.object(paging));

/** Ticket operations: the contract's minus_tickets body, and the reads. */
export const MinusTicketsBody = z.lazy(() => z.object({ userId, projectName, level, amount: positiveInt }));
export const TicketsQuery = z.lazy(() => z.object({ projectName, level: intParam({ min: 0 }), userId: z.optional(userId) }));
export const TicketBalance = z.lazy(() => z.object({ userId: answered.userId, projectName: answered.projectName, level: z.int(), balance: z.int() }));
export const RemainQuery = z.lazy(() => z.object({ projectName: z.optional(projectName), userId: z.optional(userId) }));
export const RemainBalance = z.lazy(() =>
  z.object({
    userId: answered.userId,
    total: z.int(),
    balances: z.array(z.object({ projectName: answered.projectName, level: z.int(), balance: z.int() })),
  }),
);

/** Stranded payment `status`: 0 stranded (awaiting the merchant), 1 credited, 2 refunded. */
export const StrandedStatus = { stranded: 0, credited: 1, refunded: 2 } as const;

const txDigest = z.string().check(z.regex(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/, 'expected a transaction digest (base58)'), example(EXAMPLE.txDigest));
const eventSeq = z.string().check(z.regex(/^\d{1,6}$/, "expected the payment's eventSeq (its cursor.eventSeq)"), example('0'));

/**
 * A payment on chain that matched no open order (late, for a cancelled or paid order, in another coin, of
 * another amount, to another address, a second payment of an order, or naming no order), kept for the
 * merchant. `id`, `bill_no`, `amount` (base units), `fromer`, `toer` and `cursor` are those of its vendor
 * payment event record.
 */
export const StrandedPayment = z.lazy(() =>
  z.object({
    id: z.int(),
    bill_no: answered.billNo,
    amount: answered.baseUnits,
    /** The coin it was paid in (every address in full), or null when it could not be verified. */
    coin_type: z.nullable(answered.coinType),
    fromer: answered.address,
    toer: answered.recipient,
    cursor: z.object({ eventSeq: z.string().check(example('0')), txDigest: answered.txDigest }),
    /** Time on chain (else when it was indexed). */
    paid_at: answered.time,
    order_id: z.nullable(z.int()),
    project_name: z.nullable(answered.projectName),
    user_id: z.nullable(answered.userId),
    /** no_order, order_cancelled, order_paid, order_refunded, coin_unknown, coin, amount, address, duplicate. */
    reason: z.string(),
    detail: z.string(),
    status: z.int(),
    refund_digest: z.nullable(answered.txDigest),
    created_at: answered.time,
    updated_at: answered.time,
  }),
);
export type StrandedPayment = z.infer<typeof StrandedPayment>;
export const StrandedPage = z.lazy(() => z.object({ total: z.string(), payments: z.array(StrandedPayment) }));

export const StrandedQuery = z.lazy(() =>
  z.object({
    project: projectName,
    status: z.optional(intParam({ min: 0, max: 2 })),
    ...paging,
  }),
);
export const StrandedCreditBody = z.lazy(() => z.object({ project_name: projectName, tx_digest: txDigest, event_seq: eventSeq }));
export const StrandedRefundBody = z.lazy(() => z.object({ project_name: projectName, tx_digest: txDigest, event_seq: eventSeq, refund_digest: txDigest }));

/**
 * player_view (a studio looks a player up): by the platform user id or by the Sui address of the player's wallet,
 * exactly one. The ledger and the orders are a page each (`limit`, at most 50); their cursors are the `next` of the
 * section's previous page.
 */
/** PlayerViewQuery's rule, stated on each of its two fields (a generated client keeps a field's description). */
const idOrAddress = z.describe('give exactly one of user_id, address');

export const PlayerViewQuery = z.lazy(() =>
  z
    .object({
      user_id: z.optional(userId.check(idOrAddress)),
      address: z.optional(suiAddress.check(idOrAddress)),
      limit: z._default(intParam({ min: 1, max: 50 }), 20),
      ledger_cursor: z.optional(pageCursor),
      orders_cursor: z.optional(pageCursor),
    })
    .check(z.refine((query) => (query.user_id === undefined) !== (query.address === undefined), 'give exactly one of user_id, address')),
);
export type PlayerViewQuery = z.infer<typeof PlayerViewQuery>;

/** One change of a player's ticket balance as a studio sees it. */
export const PlayerLedgerLine = z.object({
  /** The change's reference (`order#…`, `minus#…`, `grant#…`, …): unique per player. */
  ref: z.string(),
  project_name: answered.projectName,
  level: z.int(),
  /** Positive for credits, negative for debits. */
  change: z.int(),
  created_at: answered.time,
  /** What made it: the reference's first part (`order`, `stranded`, `minus`, `goods`, `reward`, `hero-upgrade`, `grant`). */
  operation: z.string(),
  /** A studio's grant or take-back: the reason it gave; null for other changes. */
  reason: z.nullable(z.string()),
  /** A studio's grant or take-back: the console account that made it; null for other changes. */
  granted_by: z.nullable(answered.accountId),
  /** The balance after the change, where the change stored it; null where it did not (no change stores it yet). */
  balance_after: z.nullable(z.int()),
});
export type PlayerLedgerLine = z.infer<typeof PlayerLedgerLine>;

/** What a studio sees of a player: only what concerns its own projects and games. */
export const PlayerView = z.lazy(() =>
  z.object({
    user_id: answered.userId,
    /** The player's wallet address; null when the account has none. */
    address: z.nullable(answered.address),
    /** The player's balances in the studio's projects. */
    balances: z.array(z.object({ project_name: answered.projectName, level: z.int(), balance: z.int() })),
    /** A page of the player's recharge orders of the studio's projects, newest first. */
    orders: z.object({ items: z.array(StudioOrder), next: z.nullable(pageCursor) }),
    /** A page of the changes of the player's balances in the studio's projects: first the newest deductions their balances hold, then the ledger's references (by operation); each page newest first. */
    ledger: z.object({ items: z.array(PlayerLedgerLine), next: z.nullable(pageCursor) }),
    /** The player's scores on the current week's and month's boards of the studio's games. */
    scores: z.array(
      z.object({
        game_code: answered.gameCode,
        /** 1 week, 2 month. */
        season_type: z.int(),
        season_range: z.string(),
        kills: z.int(),
        wins: z.int(),
      }),
    ),
  }),
);
export type PlayerView = z.infer<typeof PlayerView>;

/** The most tickets one grant or take-back moves. */
export const MAX_GRANT = 1_000_000;

/** player_tickets_grant: tickets a studio grants (amount > 0) or takes back (amount < 0), with its reason. */
export const PlayerTicketsGrant = z.lazy(() =>
  z.object({
    userId,
    projectName,
    level,
    /** Positive grants, negative takes back; never 0; at most 1,000,000 either way. */
    amount: z.int().check(
      z.minimum(-MAX_GRANT),
      z.maximum(MAX_GRANT),
      z.refine((n) => n !== 0, 'expected a non-zero integer: positive grants, negative takes back'),
      z.describe('a non-zero integer: positive grants, negative takes back'),
    ),
    /** Why: kept on the ledger entry (1-200 characters). */
    reason: z.string().check(z.trim(), z.minLength(1), z.maxLength(200)),
  }),
);
export type PlayerTicketsGrant = z.infer<typeof PlayerTicketsGrant>;

/** What a grant or take-back answers (and a retry with its Idempotency-Key answers again). */
export const TicketGrant = z.object({
  /** The ledger entry's reference, `grant#<Idempotency-Key>`. */
  ref: z.string(),
  userId: answered.userId,
  projectName: answered.projectName,
  level: z.int(),
  amount: z.int(),
  reason: z.string(),
  granted_by: answered.accountId,
  created_at: answered.time,
});
export type TicketGrant = z.infer<typeof TicketGrant>;
