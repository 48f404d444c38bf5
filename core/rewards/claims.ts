import { randomBytes } from 'node:crypto';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { normalizeAddress } from '../chain/payments.js';
import { findAccount } from '../identity/accounts.js';
import type { Deps } from '../platform/deps.js';
import { AppError, conflict, forbidden, notFound } from '../platform/errors.js';
import type { TokenClaims } from '../platform/tokens.js';
import { historyEntryKey } from './keys.js';
import { HistoryStatus, type ClaimSignature } from './models.js';

/**
 * Reward claims (issue 5 item 5). sign_code signs, for the caller's history entry with a reward, the message
 *
 *   public struct RewardClaim has copy, drop { history_id: u64, recipient: address, amount: u64, nonce: u64 }
 *   message = bcs::to_bytes(&claim)   // 8 + 32 + 8 + 8 = 56 bytes: u64s little-endian, the address as 32 bytes
 *   assert!(ed25519::ed25519_verify(&signature, &CLAIM_PUBLIC_KEY, &message), EBadSignature);
 *
 * with the stage's claim key (Ed25519, core/rewards/claim-key.ts). history_id is the entry's id, recipient
 * the wallet that receives the reward (the entry's wallet_address, else the caller's account address),
 * amount the entry's reward_amount in base units of the payout coin, nonce a random u64 drawn once per entry.
 * The signature, nonce and recipient are stored on the entry with status 0 -> 1 in one conditional write, so
 * signing again (or concurrently) answers the same signature; get_sign reads it back. A contract should pay
 * each history_id once (e.g. a Table<u64, bool> of claimed ids) and emit the claim event the indexer reads.
 */

export interface RewardClaim {
  history_id: number | string;
  recipient: string;
  /** u64 as decimal text. */
  amount: string;
  /** u64 as decimal text. */
  nonce: string;
}

/** BCS of RewardClaim: field order and types are the Move struct's. */
export async function rewardClaimBytes(claim: RewardClaim): Promise<Uint8Array> {
  // Loaded on first use: only claims need the SDK's BCS.
  const { bcs } = await import('@mysten/sui/bcs');
  return rewardClaimStruct(bcs).serialize({ history_id: BigInt(claim.history_id), recipient: claim.recipient, amount: BigInt(claim.amount), nonce: BigInt(claim.nonce) }).toBytes();
}

/** The BCS layout of RewardClaim, for encoding and for decoding in tests and tools. */
export const rewardClaimStruct = (bcs: typeof import('@mysten/sui/bcs').bcs) =>
  bcs.struct('RewardClaim', { history_id: bcs.u64(), recipient: bcs.Address, amount: bcs.u64(), nonce: bcs.u64() });

interface StoredClaim {
  recipient: string;
  amount: string;
  nonce: string;
  message: string;
  signature: string;
  public_key: string;
  signed_at: string;
}

const toSignature = (id: number, claim: StoredClaim): ClaimSignature => ({
  id,
  recipient: claim.recipient,
  amount: claim.amount,
  nonce: claim.nonce,
  message: claim.message,
  signature: claim.signature,
  public_key: claim.public_key,
  scheme: 'ed25519',
});

/** The caller's entry; 404 unknown, 403 another player's. */
async function callersEntry(deps: Deps, caller: TokenClaims, id: number) {
  const out = await deps.db.send(new GetCommand({ TableName: deps.table, Key: historyEntryKey(id), ConsistentRead: true }));
  const item = out.Item;
  if (!item) throw notFound(`id: no history entry ${id}`);
  if (item.platform_player_id !== caller.sub) throw forbidden(`id: history entry ${id} is another player's`);
  return item;
}

/** sign_code: signs the claim of one of the caller's rewards (status 0 -> 1); the same signature when signed already. */
export async function signClaim(deps: Deps, caller: TokenClaims, id: number): Promise<ClaimSignature> {
  if (!deps.claims) throw new AppError(503, 'reward claims are not configured on this stage');
  const item = await callersEntry(deps, caller, id);
  if (item.claim) return toSignature(id, item.claim as StoredClaim);
  if (!(Number(item.reward_amount) > 0)) throw conflict(`id: history entry ${id} has no reward to claim`);
  if (item.status !== HistoryStatus.unclaimed) throw conflict(`id: history entry ${id} is not claimable (status ${String(item.status)})`);

  const wallet = (item.wallet_address as string) || (await findAccount(deps, caller.sub))?.wallet_address;
  if (!wallet) throw conflict(`id: no wallet address to pay history entry ${id} to; register a wallet first`);
  const recipient = normalizeAddress(wallet);
  if (!recipient) throw conflict(`id: the wallet address of history entry ${id} is not a Sui address`);
  const claim = { history_id: id, recipient, amount: String(item.reward_amount), nonce: randomBytes(8).readBigUInt64BE().toString() };
  const message = await rewardClaimBytes(claim);
  const signature = await deps.claims.sign(message);
  const stored: StoredClaim = {
    recipient,
    amount: claim.amount,
    nonce: claim.nonce,
    message: Buffer.from(message).toString('hex'),
    signature: Buffer.from(signature).toString('base64'),
    public_key: Buffer.from(deps.claims.publicKey).toString('base64'),
    signed_at: deps.now().toISOString(),
  };
  try {
    await deps.db.send(
      new UpdateCommand({
        TableName: deps.table,
        Key: historyEntryKey(id),
        UpdateExpression: 'SET #status = :signed, claim = :claim, wallet_address = :recipient',
        ConditionExpression: '#status = :unclaimed AND attribute_not_exists(claim)',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':signed': HistoryStatus.signed, ':unclaimed': HistoryStatus.unclaimed, ':claim': stored, ':recipient': recipient },
      }),
    );
  } catch (error) {
    if ((error as { name?: string }).name !== 'ConditionalCheckFailedException') throw error;
    // A concurrent sign_code stored its claim first: that one is the entry's signature.
    const theirs = (await callersEntry(deps, caller, id)).claim;
    if (theirs) return toSignature(id, theirs as StoredClaim);
    throw conflict(`id: history entry ${id} changed meanwhile; retry`);
  }
  return toSignature(id, stored);
}

/** get_sign: the stored claim signature of one of the caller's entries; 409 before sign_code. */
export async function claimSignature(deps: Deps, caller: TokenClaims, id: number): Promise<ClaimSignature> {
  const item = await callersEntry(deps, caller, id);
  if (!item.claim) throw conflict(`id: history entry ${id} has no signed claim yet; call sign_code first`);
  return toSignature(id, item.claim as StoredClaim);
}
