import * as z from 'zod/mini';
import { historyId } from '../rewards/models.js';
import { baseUnits } from '../shared/amounts.js';
import { example } from '../shared/examples.js';
import { answered, gameCode } from '../shared/fields.js';

/** Sponsored claims (docs/claims.md "Sponsored claims"): the request a player's client sends, and what it gets. */

/** A transaction kind's BCS is small: one call of four inputs, a claim's bytes and signature, well under 2 KB. */
const MAX_KIND_BASE64 = 8_192;

export const SponsorBody = z.lazy(() =>
  z.object({
    id: historyId,
    /** The claim call as the Sui SDK builds it with `onlyTransactionKind: true`, Base64. */
    transaction_kind: z
      .string()
      .check(
        z.minLength(4),
        z.maxLength(MAX_KIND_BASE64),
        z.regex(/^[A-Za-z0-9+/]+={0,2}$/, 'expected Base64 (the BCS of a transaction kind)'),
        example('AAQBAQ=='),
      ),
  }),
);

export const SponsoredClaim = z.lazy(() =>
  z.object({
    id: z.int(),
    /** The whole transaction (BCS of TransactionData, Base64): the player as sender, the sponsor as gas owner. */
    transaction: z.string(),
    /** The transaction's digest: what the chain knows it by once executed. */
    digest: answered.txDigest,
    /** The sponsor's signature of it (Sui's serialized signature, Base64); the player adds their own and executes. */
    sponsor_signature: z.string(),
    /** The gas owner. */
    sponsor: answered.address,
    /** The most the transaction may cost the sponsor, and the price per unit, MIST as decimal text. */
    gas_budget: answered.baseUnits,
    gas_price: answered.baseUnits,
    /** The transaction expires at the end of this epoch: its gas coin is reserved until then, or until it runs. */
    epoch: z.string(),
  }),
);
export type SponsoredClaim = z.infer<typeof SponsoredClaim>;

/** A Move function: its package, module and name. */
export const moveFunction = z
  .string()
  .check(
    z.regex(/^0x[0-9a-fA-F]{1,64}::[A-Za-z_]\w{0,127}::[A-Za-z_]\w{0,127}$/, 'expected a Move function such as 0xabc::verifier::redeem'),
    example(`0x${'c1'.repeat(32)}::verifier::redeem`),
  );

export const SponsorshipSave = z.lazy(() =>
  z.object({
    game_code: gameCode,
    /** The game's claim function, which its verifier object is of: only a call of it is sponsored. */
    target: moveFunction,
    /** The game's own daily limits, at most the stage's (unset: the stage's). */
    daily_count: z.optional(z.int().check(z.positive(), z.maximum(1_000_000))),
    daily_gas: z.optional(baseUnits()),
  }),
);

export const SponsorshipQuery = z.lazy(() => z.object({ game_code: gameCode }));

/** Claims signed, their gas budgets (the most they can cost), and what those paid on chain so far cost. */
const Day = z.object({ count: z.int(), gas: answered.baseUnits, gas_spent: answered.baseUnits });

export const Sponsorship = z.lazy(() =>
  z.object({
    game_code: answered.gameCode,
    /** The claim function sponsored; null while the game has none (nothing of it is sponsored). */
    target: z.nullable(z.string()),
    /** The game's daily limits in force: its own where it set them, else the stage's. */
    daily_count: z.int(),
    daily_gas: answered.baseUnits,
    /** The stage's limits, which a game's own may only lower. */
    stage: z.object({ daily_count: z.int(), daily_gas: answered.baseUnits, gas_cap: answered.baseUnits }),
    /** The game's sponsored claims and the gas budgets signed today (UTC): the most its claims can cost the sponsor. */
    today: Day,
  }),
);
export type Sponsorship = z.infer<typeof Sponsorship>;
