import * as z from 'zod/mini';
import { EXAMPLE, example } from '../shared/examples.js';
import { answered, gameCode, intParam, paging } from '../shared/fields.js';
import { baseUnits, exactInteger } from '../shared/amounts.js';

/**
 * Rewards of finished seasons (docs/api.md, "Rankings: rewards, settlement and claims"): the reward table a game's
 * merchant sets, the history rank entries settlement writes from it, and the signed claims of those rewards.
 */

/** History rank entry `status`: 0 unclaimed, 1 claim signed, 2 claimed on chain. */
export const HistoryStatus = { unclaimed: 0, signed: 1, claimed: 2 } as const;

/** Highest rank a reward table may pay: a season settles in one transaction of at most 100 items. */
export const MAX_REWARDED_RANK = 99;

export const boardName = z.enum(['wins', 'kills']);
export const seasonType = z.union([z.literal(1), z.literal(2)]);

const rank = z.int().check(z.minimum(1), z.maximum(MAX_REWARDED_RANK));
/** A rank's reward in base units of the payout coin: up to u64's maximum, exact (core/shared/amounts.ts). */
const amount = baseUnits();

/** The reward table of a game: which board pays, and what each rewarded rank gets. */
export const RewardTableSave = z.lazy(() =>
  z.object({
    game_code: gameCode,
    board: z._default(boardName, 'wins'),
    rewards: z.array(z.object({ rank, amount })).check(
      z.minLength(1),
      z.maxLength(MAX_REWARDED_RANK),
      z.refine((rows) => new Set(rows.map((row) => row.rank)).size === rows.length, 'each rank may appear once'),
      z.describe('What each rewarded rank gets; each rank at most once.'),
    ),
  }),
);
export type RewardTableSave = z.infer<typeof RewardTableSave>;

export const RewardTable = z.lazy(() =>
  z.object({
    game_code: answered.gameCode,
    board: z.string(),
    /** `amount` is a JSON integer (written exactly, whatever its size); `amount_base` the same as decimal text. */
    rewards: z.array(z.object({ rank: z.int(), amount: exactInteger(), amount_base: answered.baseUnits })),
    /** When the merchant last set it; null while the game has none (no season of it pays anything). */
    updated_at: z.nullable(answered.time),
    /**
     * The coin the amounts are counted in: the stage's payout coin as its claim settings name it (`0x2::sui::SUI`
     * when they name none). One stage pays one coin, so every table and history entry of it shares this type.
     */
    coin_type: answered.coinType,
  }),
);
export type RewardTable = z.infer<typeof RewardTable>;

export const GameCodeQuery = z.lazy(() => z.object({ game_code: gameCode }));

/** A season as the history operations name it (season_range is checked against the type by the handler). */
const seasonRange = z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}-\d{2}-\d{2}$/, 'expected YYYY-MM-DD-MM-DD'), example(EXAMPLE.seasonRange));
/** season_type: 1 week, 2 month. */
const seasonTypeQuery = intParam({ min: 1, max: 2 });
export const SeasonQuery = z.lazy(() => z.object({ game_code: gameCode, season_type: seasonTypeQuery, season_range: seasonRange }));
export const SeasonBody = z.lazy(() => z.object({ game_code: gameCode, season_type: seasonType, season_range: seasonRange }));

/** The contract's History rank entry (docs/api.md, "The compatibility contract"). */
export const HistoryEntry = z.lazy(() =>
  z.object({
    id: z.int(),
    season_type: z.int(),
    create_time: answered.time,
    season_range: answered.seasonRange,
    game_code: answered.gameCode,
    platform_player_id: answered.userId,
    wallet_address: answered.address,
    rank: z.int(),
    achievement: z.int(),
    /** Base units of the payout coin: a JSON integer, written exactly whatever its size (core/shared/amounts.ts). */
    reward_amount: exactInteger(),
    status: z.int(),
    /** `reward_amount` as decimal text, for clients whose JSON parser rounds integers past 2^53 (ours). */
    reward_amount_base: answered.baseUnits,
  }),
);
export type HistoryEntry = z.infer<typeof HistoryEntry>;

/** history/test's answer: what the season's settlement wrote (now or earlier). */
export const SettlementResult = z.lazy(() =>
  z.object({
    game_code: answered.gameCode,
    season_type: z.int(),
    season_range: answered.seasonRange,
    /** The board that paid; null when the game had no reward table at settlement. */
    board: z.nullable(z.string()),
    /** How many history entries the settlement wrote. */
    entries: z.int(),
    settled_at: answered.time,
    /** False when the season had been settled before (this call wrote nothing). */
    settled_now: z.boolean(),
  }),
);
export type SettlementResult = z.infer<typeof SettlementResult>;

export const RewardHistoryQuery = z.lazy(() => z.object(paging));

export const historyId = z.int().check(z.positive(), z.maximum(Number.MAX_SAFE_INTEGER));
export const ClaimBody = z.lazy(() => z.object({ id: historyId }));
export const ClaimQuery = z.lazy(() => z.object({ id: intParam({ min: 1 }) }));

/** sign_code / get_sign: the signed claim of a history reward. */
export const ClaimSignature = z.lazy(() =>
  z.object({
    id: z.int(),
    recipient: answered.recipient,
    /** Base units of the payout coin, decimal text (a u64). */
    amount: z.string(),
    /** Decimal text of a u64. */
    nonce: z.string(),
    /** The signed bytes (BCS of RewardClaim, docs/claims.md), hex. */
    message: z.string(),
    /** Ed25519 signature, 64 bytes, base64. */
    signature: z.string(),
    /** The stage's claim public key, 32 bytes, base64. */
    public_key: z.string(),
    scheme: z.literal('ed25519'),
    /**
     * Where the claim may be redeemed, and until when (the RewardClaim fields chain, game, coin_type and
     * expires_at_ms). Absent only on a claim signed before claims named their game; sign_code renews such a claim.
     */
    chain: z.optional(z.string()),
    /** The game's on-chain object (its object_id), 0x + 64 hex. */
    game: z.optional(z.string()),
    /** The payout coin as `std::type_name` renders it (64 hex digits without 0x), e.g. `0000…0002::sui::SUI`. */
    coin_type: z.optional(answered.coinType),
    /** Milliseconds since the epoch; the verifier refuses the claim from then on (the chain's Clock). */
    expires_at_ms: z.optional(z.int()),
  }),
);
export type ClaimSignature = z.infer<typeof ClaimSignature>;

/** gameCode: a game's code with its on-chain ids (null when unset). */
export const GameChainIds = z.lazy(() => z.object({ code: z.string(), package_id: z.nullable(answered.objectId), object_id: z.nullable(answered.objectId) }));
