import { randomBytes } from 'node:crypto';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { normalizeAddress } from '../payments/chain-payments.js';
import { gameKey } from '../games/keys.js';
import { findAccount } from '../identity/accounts.js';
import type { RewardsDeps } from './deps.js';
import { readItems } from '../platform/batch.js';
import { isConditionalFailure } from '../platform/conditional-failure.js';
import { platformError } from '../platform/errors.js';
import { rewardError } from './errors.js';
import { ownedRecord } from '../access/records.js';
import type { TokenClaims } from '../platform/tokens.js';
import { historyEntryKey } from './keys.js';
import * as z from 'zod/mini';
import { storedAmount } from '../shared/amounts.js';
import { objectOf } from '../shared/records.js';
import { ClaimSignature, HistoryEntry, HistoryStatus } from './models.js';

/**
 * Reward claims (docs/claims.md). sign_code signs, for the caller's history
 * entry with a reward, the message
 *
 *   public struct RewardClaim has copy, drop {
 *       chain: String, game: ID, coin_type: String,
 *       history_id: u64, recipient: address, amount: u64, nonce: u64, expires_at_ms: u64,
 *   }
 *   message = bcs::to_bytes(&claim)   // strings: ULEB128 length + bytes; ID and address: 32 bytes; u64s LE
 *   assert!(ed25519::ed25519_verify(&signature, &CLAIM_PUBLIC_KEY, &message), EBadSignature);
 *
 * with the stage's claim key (Ed25519, core/rewards/claim-key.ts). The claim names where it may be redeemed:
 * - `chain`: the network of the stage's claims (the claim settings' `chain`; by default `sui:mainnet` on
 *   production stages and `sui:testnet` elsewhere);
 * - `game`: the on-chain object of the entry's game (the game's `object_id`); a game without one is refused
 *   (409 naming object_id, nothing written): nothing is signed that a verifier of another game could accept;
 * - `coin_type`: the payout coin (the claim settings' `coin_type`, by default `0x2::sui::SUI`) as
 *   `std::type_name` renders it (addresses 64 hex digits without 0x), compared by the verifier with
 *   `type_name::get<T>()` of its coin type parameter;
 * and what it pays: history_id the entry's id, recipient the wallet that receives the reward (the entry's
 * wallet_address, else the caller's account address; the verifier requires it to be the transaction's
 * sender), amount the entry's reward_amount in base units of that coin, nonce a random u64 of this signing,
 * expires_at_ms the end of its validity (CLAIM_TTL_MS on), compared with the chain's Clock.
 *
 * The claim is stored on the entry with status 0 -> 1 in one conditional write, so signing again (or
 * concurrently) answers the same claim while it is valid; get_sign reads it back. Once it has expired and the
 * entry is still at status 1 (no claim event seen), sign_code signs a fresh claim: the same chain, game, coin,
 * recipient and amount (the terms are fixed at the first signing), a new nonce and expiry, on condition that the
 * stored claim is still the expired one. Both claims name the same verifier object, which pays a history_id
 * once, so an old claim redeemed just before it expired and the new one can never both pay. A claim stored
 * before claims named their game (no expires_at_ms) is re-signed the same way, with the game's current terms.
 * Every nonce signed for an entry is kept (claim_nonces) so the claim event of any of them marks the entry paid;
 * an entry is signed at most MAX_CLAIM_SIGNINGS times (then 409), which bounds that set.
 */

/** How long a signed claim may be redeemed: an hour, then sign_code signs a fresh one. */
export const CLAIM_TTL_MS = 60 * 60_000;
/** How many claims one entry may be signed (the first and its renewals): bounds the item's claim_nonces. */
export const MAX_CLAIM_SIGNINGS = 1000;
/** The payout coin when the claim settings name none. */
export const DEFAULT_COIN_TYPE = '0x2::sui::SUI';

export interface RewardClaim {
  /** The network, e.g. `sui:mainnet`. */
  chain: string;
  /** The game's object id, 0x + 64 hex. */
  game: string;
  /** The payout coin as `std::type_name` renders it, e.g. `0000…0002::sui::SUI`. */
  coin_type: string;
  history_id: number | string;
  recipient: string;
  /** u64 as decimal text. */
  amount: string;
  /** u64 as decimal text. */
  nonce: string;
  /** u64: milliseconds since the epoch. */
  expires_at_ms: number | string;
}

/** BCS of RewardClaim: field order and types are the Move struct's. */
export async function rewardClaimBytes(claim: RewardClaim): Promise<Uint8Array> {
  // Loaded on first use: only claims need the SDK's BCS.
  const { bcs } = await import('@mysten/sui/bcs');
  return rewardClaimStruct(bcs)
    .serialize({
      chain: claim.chain,
      game: claim.game,
      coin_type: claim.coin_type,
      history_id: BigInt(claim.history_id),
      recipient: claim.recipient,
      amount: BigInt(claim.amount),
      nonce: BigInt(claim.nonce),
      expires_at_ms: BigInt(claim.expires_at_ms),
    })
    .toBytes();
}

/** The BCS layout of RewardClaim, for encoding and for decoding in tests and tools. */
export const rewardClaimStruct = (bcs: typeof import('@mysten/sui/bcs').bcs) =>
  bcs.struct('RewardClaim', {
    chain: bcs.string(),
    game: bcs.Address,
    coin_type: bcs.string(),
    history_id: bcs.u64(),
    recipient: bcs.Address,
    amount: bcs.u64(),
    nonce: bcs.u64(),
    expires_at_ms: bcs.u64(),
  });

/** `0x2::sui::SUI` -> `0000…0002::sui::SUI`: what `type_name::get<T>().into_string()` answers on chain. */
export function typeNameOf(coinType: string): string {
  return coinType.replace(/0x([0-9a-fA-F]{1,64})(?=::)/g, (_, hex: string) => hex.toLowerCase().padStart(64, '0'));
}

/** The chain and coin the stage's claims bind (docs/claims.md "Settings"). */
export function claimTerms(deps: Pick<RewardsDeps, 'claims' | 'production'>): { chain: string; coin_type: string } {
  return {
    chain: deps.claims?.chain ?? (deps.production ? 'sui:mainnet' : 'sui:testnet'),
    coin_type: typeNameOf(deps.claims?.coinType ?? DEFAULT_COIN_TYPE),
  };
}

/**
 * The claim as stored on the entry (attribute `claim`), in one of two layouts: ClaimSignature's fields (not its
 * id and scheme) and when it was signed; a claim stored before claims named their game lacks chain, game,
 * coin_type and expires_at_ms (sign_code re-signs it).
 */
const LegacyClaim = z.lazy(() =>
  z.extend(z.omit(objectOf(ClaimSignature), { id: true, scheme: true, chain: true, game: true, coin_type: true, expires_at_ms: true }), {
    signed_at: z.string(),
  }),
);
const CurrentClaim = z.lazy(() => z.extend(objectOf(LegacyClaim), { chain: z.string(), game: z.string(), coin_type: z.string(), expires_at_ms: z.int() }));
type CurrentClaim = z.infer<typeof CurrentClaim>;
const StoredClaim = z.union([CurrentClaim, LegacyClaim]);
type StoredClaim = z.infer<typeof StoredClaim>;

/**
 * "a history entry" (historyEntryKey) as claims read it: whose it is, what it pays, its claim and every nonce
 * signed for it (claim_nonces, a string set).
 */
const ClaimEntry = z.lazy(() =>
  z.extend(z.pick(objectOf(HistoryEntry), { platform_player_id: true, game_code: true, wallet_address: true, status: true }), {
    reward_amount: storedAmount,
    claim: z.optional(StoredClaim),
    claim_nonces: z.optional(z.set(z.string())),
  }),
);
type ClaimEntry = z.infer<typeof ClaimEntry>;

const isCurrent = (claim: StoredClaim): claim is CurrentClaim => 'expires_at_ms' in claim;

function toSignature(id: number, claim: StoredClaim): ClaimSignature {
  return {
    id,
    recipient: claim.recipient,
    amount: claim.amount,
    nonce: claim.nonce,
    message: claim.message,
    signature: claim.signature,
    public_key: claim.public_key,
    scheme: 'ed25519',
    // A claim stored before claims named their game has none of these (sign_code re-signs it).
    ...(isCurrent(claim) ? { chain: claim.chain, game: claim.game, coin_type: claim.coin_type, expires_at_ms: claim.expires_at_ms } : {}),
  };
}

/** The caller's entry (the route's `record` rule): another player's is as unknown as a missing one (404). */
async function callersEntry(deps: RewardsDeps, caller: TokenClaims, id: number) {
  const [item] = await readItems(deps, claimReads.sign_code({ id }));
  return ClaimEntry.parse(ownedRecord(item, (entry) => entry.platform_player_id === caller.sub, `id: no history entry ${id}`));
}

/**
 * What sign_code reads first: the history entry, strongly consistent. The authorization layer reads it in the
 * batch of its fresh gone-mark read (core/platform/read-ahead.ts), so the entry costs no request of its own.
 */
export const claimReads = {
  sign_code: (body: { id: number }) => [historyEntryKey(body.id)],
};

/** The on-chain object of the entry's game; 409 naming object_id when the game has none. */
async function gameObject(deps: RewardsDeps, id: number, code: string): Promise<string> {
  const out = await deps.db.send(
    // Strongly consistent: the entry's claims name this object for good, so a change just made must be seen.
    new GetCommand({
      TableName: deps.table,
      Key: gameKey(code),
      ProjectionExpression: '#object',
      ExpressionAttributeNames: { '#object': 'object_id' },
      ConsistentRead: true,
    }),
  );
  if (!out.Item) throw rewardError('claim.game_gone', `id: the game ${code} of history entry ${id} no longer exists`);
  const object = normalizeAddress(out.Item.object_id);
  if (!object) {
    throw rewardError(
      'claim.game_without_object',
      `id: the game ${code} of history entry ${id} has no object_id (its on-chain object, set by its merchant with update_single_game); a claim names the object that may pay it, so none is signed until the game has one`,
    );
  }
  return object;
}

/** A fresh claim of the terms: a new nonce, valid CLAIM_TTL_MS from now, signed with the stage's claim key. */
async function signTerms(
  deps: RewardsDeps,
  id: number,
  terms: Pick<RewardClaim, 'chain' | 'game' | 'coin_type' | 'recipient' | 'amount'>,
): Promise<CurrentClaim> {
  const claim: RewardClaim = {
    ...terms,
    history_id: id,
    nonce: randomBytes(8).readBigUInt64BE().toString(),
    expires_at_ms: deps.now().getTime() + CLAIM_TTL_MS,
  };
  const message = await rewardClaimBytes(claim);
  const signature = await deps.claims!.sign(message);
  return {
    chain: claim.chain,
    game: claim.game,
    coin_type: claim.coin_type,
    expires_at_ms: claim.expires_at_ms as number,
    recipient: claim.recipient,
    amount: claim.amount,
    nonce: claim.nonce,
    message: Buffer.from(message).toString('hex'),
    signature: Buffer.from(signature).toString('base64'),
    public_key: Buffer.from(deps.claims!.publicKey).toString('base64'),
    signed_at: deps.now().toISOString(),
  };
}

/**
 * sign_code: signs the claim of one of the caller's rewards (status 0 -> 1); the same claim while it is valid
 * or once it is paid; a fresh one (same terms, new nonce and expiry) after it expired unpaid.
 */
export async function signClaim(deps: RewardsDeps, caller: TokenClaims, id: number): Promise<ClaimSignature> {
  if (!deps.claims) throw rewardError('claim.unconfigured', 'reward claims are not configured on this stage');
  const item = await callersEntry(deps, caller, id);
  const stored = item.claim;
  if (stored) {
    const valid = isCurrent(stored) && deps.now().getTime() < stored.expires_at_ms;
    if (valid || item.status !== HistoryStatus.signed) return toSignature(id, stored);
    return resign(deps, caller, id, item, stored);
  }
  if (!(Number(item.reward_amount) > 0)) throw rewardError('claim.no_reward', `id: history entry ${id} has no reward to claim`);
  if (item.status !== HistoryStatus.unclaimed)
    throw rewardError('claim.not_claimable', `id: history entry ${id} is not claimable (status ${String(item.status)})`);

  const wallet = item.wallet_address || (await findAccount(deps, caller.sub))?.wallet_address;
  if (!wallet) throw rewardError('claim.no_wallet', `id: no wallet address to pay history entry ${id} to; register a wallet first`);
  const recipient = normalizeAddress(wallet);
  if (!recipient) throw rewardError('claim.wallet_not_sui', `id: the wallet address of history entry ${id} is not a Sui address`);
  const game = await gameObject(deps, id, item.game_code);
  const claim = await signTerms(deps, id, { ...claimTerms(deps), game, recipient, amount: String(item.reward_amount) });
  try {
    await deps.db.send(
      new UpdateCommand({
        TableName: deps.table,
        Key: historyEntryKey(id),
        UpdateExpression: 'SET #status = :signed, claim = :claim, wallet_address = :recipient ADD claim_nonces :nonces',
        ConditionExpression: '#status = :unclaimed AND attribute_not_exists(claim)',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: {
          ':signed': HistoryStatus.signed,
          ':unclaimed': HistoryStatus.unclaimed,
          ':claim': claim,
          ':recipient': recipient,
          ':nonces': new Set([claim.nonce]),
        },
      }),
    );
  } catch (error) {
    if (!isConditionalFailure(error)) throw error;
    // A concurrent sign_code stored its claim first: that one is the entry's claim.
    const theirs = (await callersEntry(deps, caller, id)).claim;
    if (theirs) return toSignature(id, theirs);
    throw platformError('data.changed_concurrently', `id: history entry ${id} changed meanwhile; retry`);
  }
  return toSignature(id, claim);
}

const signings = (item: ClaimEntry) => item.claim_nonces?.size ?? 0;
const tooManySignings = (id: number) =>
  rewardError(
    'claim.signings_exhausted',
    `id: the claim of history entry ${id} has been signed ${MAX_CLAIM_SIGNINGS} times without being redeemed; it is not renewed again`,
  );

/**
 * A fresh claim for an entry at status 1 whose claim expired (or predates expiry): the stored terms (a claim of
 * the old layout takes the game's and stage's current ones), a new nonce and expiry, written on condition the
 * entry still holds the expired claim at status 1. A concurrent re-signing that won is answered instead.
 */
async function resign(deps: RewardsDeps, caller: TokenClaims, id: number, item: ClaimEntry, stored: StoredClaim): Promise<ClaimSignature> {
  if (signings(item) >= MAX_CLAIM_SIGNINGS) throw tooManySignings(id);
  const terms = isCurrent(stored)
    ? { chain: stored.chain, game: stored.game, coin_type: stored.coin_type }
    : { ...claimTerms(deps), game: await gameObject(deps, id, item.game_code) };
  const claim = await signTerms(deps, id, { ...terms, recipient: stored.recipient, amount: stored.amount });
  try {
    await deps.db.send(
      new UpdateCommand({
        TableName: deps.table,
        Key: historyEntryKey(id),
        UpdateExpression: 'SET claim = :claim ADD claim_nonces :nonces',
        ConditionExpression: '#status = :signed AND claim.nonce = :previous AND (attribute_not_exists(claim_nonces) OR size(claim_nonces) < :max)',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: {
          ':signed': HistoryStatus.signed,
          ':claim': claim,
          ':previous': stored.nonce,
          ':max': MAX_CLAIM_SIGNINGS,
          ':nonces': new Set([claim.nonce]),
        },
      }),
    );
  } catch (error) {
    if (!isConditionalFailure(error)) throw error;
    // Another sign_code re-signed first, or the claim event moved the entry to 2: answer what is stored now.
    const now = await callersEntry(deps, caller, id);
    const theirs = now.claim;
    if (theirs && theirs.nonce !== stored.nonce) return toSignature(id, theirs);
    if (theirs && now.status === HistoryStatus.claimed) return toSignature(id, theirs);
    if (signings(now) >= MAX_CLAIM_SIGNINGS) throw tooManySignings(id);
    throw platformError('data.changed_concurrently', `id: history entry ${id} changed meanwhile; retry`);
  }
  return toSignature(id, claim);
}

/** get_sign: the stored claim of one of the caller's entries (expired or not: sign_code renews it); 409 before sign_code. */
export async function claimSignature(deps: RewardsDeps, caller: TokenClaims, id: number): Promise<ClaimSignature> {
  const item = await callersEntry(deps, caller, id);
  if (!item.claim) throw rewardError('claim.not_signed', `id: history entry ${id} has no signed claim yet; call sign_code first`);
  return toSignature(id, item.claim);
}

/** An entry's claim as a sponsored redemption sees it (core/sponsorship): redeemable now, or why not. */
export type RedeemableClaim =
  | { state: 'ready'; game_code: string; claim: Required<ClaimSignature> }
  | { state: 'paid' }
  | { state: 'unsigned' }
  | { state: 'expired' };

/** The caller's entry's claim, when it can be redeemed now: signed, unexpired and not paid (404 as sign_code). */
export async function redeemableClaim(deps: RewardsDeps, caller: TokenClaims, id: number): Promise<RedeemableClaim> {
  const item = await callersEntry(deps, caller, id);
  if (item.status === HistoryStatus.claimed) return { state: 'paid' };
  if (!item.claim || item.status !== HistoryStatus.signed) return { state: 'unsigned' };
  if (!isCurrent(item.claim) || deps.now().getTime() >= item.claim.expires_at_ms) return { state: 'expired' };
  return { state: 'ready', game_code: item.game_code, claim: toSignature(id, item.claim) as Required<ClaimSignature> };
}
