import * as z from 'zod/mini';
import { adminOnly, allow, consoleAuth, open, owns } from '../../core/http/auth.js';
import type { OperationSpec } from '../../core/http/operation.js';
import {
  ClaimBody,
  ClaimQuery,
  ClaimSignature,
  GameChainIds,
  GameCodeQuery,
  HistoryEntry,
  RewardHistoryQuery,
  RewardTable,
  RewardTableSave,
  SeasonBody,
  SeasonQuery,
  SettlementResult,
} from '../../core/rewards/models.js';
import { merchantToken, platformToken } from './errors.js';

const claimDescription =
  "The message is the BCS of the Move struct `RewardClaim {chain: String, game: ID, coin_type: String, history_id: u64, recipient: address, amount: u64, nonce: u64, expires_at_ms: u64}` (docs/claims.md): `chain` the network the stage pays on (e.g. `sui:mainnet`), `game` the on-chain object of the entry's game (its `object_id`), `coin_type` the payout coin as `std::type_name` renders it, `amount` the entry's reward_amount in base units of that coin, `recipient` the entry's wallet_address, else the caller's account address (the verifier pays only that sender), `nonce` a random u64 of this signing, `expires_at_ms` one hour after signing; the answer repeats these fields. `signature` is Ed25519 (64 bytes) of the message itself with the stage's claim key, `public_key` that key (32 bytes): the game's verifier checks it with `sui::ed25519::ed25519_verify(&signature, &public_key, &message)`, then the chain, its own game object, its coin type, the expiry against the Clock, and pays each history_id once.";

/**
 * Rewards of finished seasons in the boards group (docs/api.md, "Rankings: rewards, settlement and claims"): the
 * reward table (console operations of ours), settlement on demand, the history rank (the compatibility
 * contract's) and the claim signatures.
 */
export const boardRewardOps = {
  reward_table_set: {
    name: 'reward table set',
    method: 'POST',
    path: '/merchant/games/rewards',
    tag: 'boards and rewards',
    auth: consoleAuth([owns.game('body.game_code')]),
    summary: "Set the reward table of one of the caller's games (extra operation)",
    description:
      "`board` names the board whose ranking pays (`wins`, the default, or `kills`); `rewards` the amount of each rewarded rank (ranks 1-99, each once, contiguous or not; amounts positive integers up to 10^12 in base units of the coin the game's reward contract pays). A season settles with the table as it is when the season closes: entries for ranks 1 to the highest rank of the table, reward_amount 0 for a rank the table skips. Replaces the previous table.",
    body: RewardTableSave,
    status: 200,
    envelope: 'merchant',
    response: RewardTable,
    errors: {
      400: 'a field is missing or invalid, or a rank appears twice',
      ...merchantToken,
      403: "the game is another merchant's",
      404: 'no game with that code',
    },
  },
  reward_table_get: {
    name: 'reward table get',
    method: 'GET',
    path: '/merchant/games/rewards',
    tag: 'boards and rewards',
    auth: consoleAuth([owns.game('query.game_code')], { whileSuspended: true }),
    summary: "The reward table of one of the caller's games (extra operation)",
    description: "An empty table (`rewards: []`, `updated_at: null`) while none is set: the game's seasons then close without entries.",
    query: GameCodeQuery,
    status: 200,
    envelope: 'merchant',
    response: RewardTable,
    errors: { 400: 'game_code missing or malformed', ...merchantToken, 403: "the game is another merchant's", 404: 'no game with that code' },
  },
  history_rank: {
    name: 'history rank',
    method: 'GET',
    path: '/merchant/games/history/rank',
    tag: 'boards and rewards',
    auth: open,
    summary: 'History rank entries of one settled season of a game, by rank',
    description:
      "`season_type` 1 is a week (Monday 00:00 to Sunday 23:59:59.999 UTC), 2 a calendar month (UTC); `season_range` is `YYYY-MM-DD-MM-DD`: the first day's year, month and day, then the last day's month and day (a week across New Year keeps the first day's year). A season that is not settled yet, or a game without entries, answers an empty list. `status`: 0 unclaimed, 1 claim signed, 2 claimed on chain.",
    query: SeasonQuery,
    status: 200,
    envelope: 'merchant',
    response: z.array(HistoryEntry),
    errors: { 400: 'game_code, season_type or season_range missing or malformed, or season_range is not a season of that type' },
    codes: ['season.range_invalid'],
  },
  history_test: {
    name: 'history test',
    method: 'POST',
    path: '/merchant/games/history/test',
    tag: 'boards and rewards',
    auth: adminOnly("admins settle any game's past season on test stages"),
    summary: 'Settle one finished season of a game now (admins, non-production stages)',
    description:
      "What the scheduled settlement does for one season: history entries of the paying board's top players from the game's reward table, written once. Calling it again (or after the schedule settled the season) writes nothing and answers the first settlement with `settled_now: false`. Refused (403) on production stages.",
    body: SeasonBody,
    status: 200,
    envelope: 'merchant',
    response: SettlementResult,
    errors: {
      400: 'game_code, season_type or season_range missing or malformed, or season_range is not a season of that type',
      ...merchantToken,
      403: 'not an admin account, or a production stage',
      404: 'no game with that code (nothing is written)',
      409: 'the season has not ended yet',
    },
    codes: ['game.not_found', 'season.not_ended', 'season.range_invalid', 'season.test_on_production'],
  },
  sign_code: {
    name: 'sign_code',
    method: 'POST',
    path: '/merchant/sign/code',
    tag: 'boards and rewards',
    auth: allow(['platform'], [owns.record('body.id', 'history entry', 'platform_player_id')], { movesValue: true }),
    summary: "Sign the claim of one of the caller's history rewards",
    description: `${claimDescription} The entry moves from status 0 to 1; signing again answers the same signature (same nonce) while it is valid, and after it is paid (status 2). Once it has expired unpaid (status 1), signing again signs a fresh claim of the same terms (chain, game, coin, recipient, amount) with a new nonce and expiry: both name the same verifier, which pays the history_id once.`,
    body: ClaimBody,
    status: 200,
    envelope: 'merchant',
    response: ClaimSignature,
    errors: {
      400: 'id missing or not a positive integer',
      ...platformToken,
      404: "no history entry with that id (another player's is as unknown)",
      409: 'the entry has no reward (reward_amount 0), no wallet address is known to pay it to, or its game has no object_id (the on-chain object a claim names)',
      503: 'the stage has no claim key configured',
    },
    codes: [
      'claim.game_gone',
      'claim.game_without_object',
      'claim.no_reward',
      'claim.no_wallet',
      'claim.not_claimable',
      'claim.signings_exhausted',
      'claim.unconfigured',
      'claim.wallet_not_sui',
    ],
  },
  get_sign: {
    name: 'get_sign',
    method: 'GET',
    path: '/merchant/sign',
    tag: 'boards and rewards',
    auth: allow(['platform'], [owns.record('query.id', 'history entry', 'platform_player_id')]),
    summary: "The signed claim of one of the caller's history rewards, again",
    description: `What sign_code stored for the entry, expired or not (compare \`expires_at_ms\`; sign_code renews an expired unpaid claim). ${claimDescription}`,
    query: ClaimQuery,
    status: 200,
    envelope: 'merchant',
    response: ClaimSignature,
    errors: {
      400: 'id missing or not a positive integer',
      ...platformToken,
      404: "no history entry with that id (another player's is as unknown)",
      409: 'the claim is not signed yet (call sign_code)',
    },
    codes: ['claim.not_signed'],
  },
} as const satisfies Record<string, OperationSpec>;

/** Chain group operations of rewards: gameCode and rewrad_history. */
export const chainRewardOps = {
  gameCode: {
    name: 'gameCode',
    method: 'GET',
    path: '/chain/game/code',
    tag: 'games',
    auth: open,
    summary: 'Game codes with their on-chain ids',
    description:
      'Every game, newest first: its code, Move package id and shared object id (0x and 64 hex digits; null when its merchant has not set them with savemerchantgame or update_single_game). The list may be up to a minute old: a game created or given ids shows within a minute.',
    status: 200,
    envelope: 'data',
    response: z.array(GameChainIds),
    errors: {},
  },
  rewrad_history: {
    name: 'rewrad_history',
    method: 'GET',
    path: '/chain/reward/history',
    tag: 'boards and rewards',
    auth: allow(['platform'], [owns.own]),
    summary: "The caller's history rewards with their claim status, newest first",
    description:
      'History rank entries whose platform_player_id is the caller (the platform user id games report as game_player_id). `status`: 0 unclaimed, 1 claim signed (sign_code), 2 claimed on chain. Zero-based pages.',
    query: RewardHistoryQuery,
    status: 200,
    envelope: 'paged',
    response: z.array(HistoryEntry),
    errors: { 400: 'page or pageSize out of range', ...platformToken },
  },
} as const satisfies Record<string, OperationSpec>;
