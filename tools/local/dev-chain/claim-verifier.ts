import { bcs } from '@mysten/sui/bcs';
import { Ed25519PublicKey } from '@mysten/sui/keypairs/ed25519';
import { fullCoinType, type ScriptEvent, type ScriptObject } from './chain-script.js';
import type { MoveCall, MoveFunction } from './transactions.js';

/**
 * The reference claim verifier of docs/claims.md (module `reward_claims::verifier`), run by the development
 * chain in TypeScript. The struct and the checks are written here from that page, not taken from the platform's
 * signing code, so the platform's claims are checked by an independent reader, as on chain.
 */

/** Where the development chain publishes the verifier package. */
export const VERIFIER_PACKAGE = `0x${'c1'.repeat(32)}`;
export const CLAIM_EVENT_TYPE = `${VERIFIER_PACKAGE}::verifier::RewardClaimed`;

/** The Move struct RewardClaim, field by field. */
export const RewardClaim = bcs.struct('RewardClaim', {
  chain: bcs.string(),
  game: bcs.Address,
  coin_type: bcs.string(),
  history_id: bcs.u64(),
  recipient: bcs.Address,
  amount: bcs.u64(),
  nonce: bcs.u64(),
  expires_at_ms: bcs.u64(),
});
export type Claim = ReturnType<typeof RewardClaim.parse>;

/** The module's abort codes, by name. */
const ABORTS = {
  EBadSignature: 0,
  EMalformedClaim: 1,
  EWrongChain: 2,
  EWrongGame: 3,
  EWrongCoin: 4,
  EClaimExpired: 5,
  ENotRecipient: 6,
  EAlreadyRedeemed: 7,
} as const;
export type Refusal = keyof typeof ABORTS;

/** A ClaimVerifier<T>: the platform key, its chain, game object and coin (`type_name` form), and the ids it paid. */
export interface Verifier {
  publicKey: Uint8Array;
  chain: string;
  game: string;
  coinType: string;
  redeemed: Set<string>;
}

/**
 * What `redeem` checks, in the module's order: the signature over the bytes, the bytes are exactly one
 * RewardClaim, chain, game, coin, expiry against the Clock, the recipient is the sender, the history id not paid
 * before. Answers the claim to pay (and records its id), or the abort.
 */
export async function redeemClaim(
  verifier: Verifier,
  message: Uint8Array,
  signature: Uint8Array,
  tx: { sender: string; clockMs: number },
): Promise<{ paid: Claim } | { refused: Refusal }> {
  if (!(await new Ed25519PublicKey(verifier.publicKey).verify(message, signature))) return { refused: 'EBadSignature' };
  let claim: Claim;
  try {
    claim = RewardClaim.parse(message);
  } catch {
    return { refused: 'EMalformedClaim' };
  }
  if (Buffer.compare(Buffer.from(RewardClaim.serialize(claim).toBytes()), Buffer.from(message)) !== 0) return { refused: 'EMalformedClaim' };
  if (claim.chain !== verifier.chain) return { refused: 'EWrongChain' };
  if (claim.game !== verifier.game) return { refused: 'EWrongGame' };
  if (claim.coin_type !== verifier.coinType) return { refused: 'EWrongCoin' };
  if (BigInt(tx.clockMs) >= BigInt(claim.expires_at_ms)) return { refused: 'EClaimExpired' };
  if (claim.recipient !== tx.sender) return { refused: 'ENotRecipient' };
  if (verifier.redeemed.has(claim.history_id)) return { refused: 'EAlreadyRedeemed' };
  verifier.redeemed.add(claim.history_id);
  return { paid: claim };
}

/** `type_name::get<T>().into_string()`: the type with every address in 64 hex digits and no 0x. */
export const typeNameString = (coinType: string) => fullCoinType(coinType).replace(/0x(?=[0-9a-f]{64}::)/g, '');

const verifierType = (coinType: string) => `${VERIFIER_PACKAGE}::verifier::ClaimVerifier<${fullCoinType(coinType)}>`;

/** A shared ClaimVerifier<T> made by `create_self_bound`: its game is its own id; `pool` in base units of T. */
export function selfBoundVerifier(
  objectId: string,
  options: { publicKey: Uint8Array; chain: string; coinType: string; pool: bigint },
): Omit<ScriptObject, 'version'> {
  const type = verifierType(options.coinType);
  return {
    objectId,
    type,
    owner: { kind: 'SHARED' },
    fields: { id: objectId, public_key: [...options.publicKey], chain: options.chain, game: objectId, pool: options.pool.toString(), redeemed: [] },
    layout: {
      struct: {
        type,
        fields: [
          { name: 'id', layout: 'address' },
          { name: 'public_key', layout: { vector: 'u8' } },
          { name: 'chain', layout: { vector: 'u8' } },
          { name: 'game', layout: 'address' },
          { name: 'pool', layout: 'u64' },
          { name: 'redeemed', layout: { vector: 'u64' } },
        ],
      },
    },
  };
}

const bytesArgument = (call: MoveCall, index: number) => {
  const value = call.args[index];
  return value?.kind === 'pure' ? Uint8Array.from(bcs.vector(bcs.u8()).parse(value.bytes)) : undefined;
};

/** `redeem<T>(verifier: &mut ClaimVerifier<T>, message: vector<u8>, signature: vector<u8>, clock: &Clock)`. */
const redeem: MoveFunction = async (call) => {
  const target = call.args[0];
  const object = target?.kind === 'object' ? call.state.objects.get(target.objectId) : undefined;
  const message = bytesArgument(call, 1);
  const signature = bytesArgument(call, 2);
  const coinType = call.typeArguments[0];
  if (!object || !message || !signature || !coinType || object.type !== verifierType(coinType)) return call.abort(ABORTS.EMalformedClaim, 'EMalformedClaim');
  const fields = object.fields as { public_key: number[]; chain: string; game: string; pool: string; redeemed: string[] };
  const verifier: Verifier = {
    publicKey: Uint8Array.from(fields.public_key),
    chain: fields.chain,
    game: fields.game,
    coinType: typeNameString(coinType),
    redeemed: new Set(fields.redeemed),
  };
  const outcome = await redeemClaim(verifier, message, signature, { sender: call.sender, clockMs: call.nowMs });
  if ('refused' in outcome) return call.abort(ABORTS[outcome.refused], outcome.refused);
  const { paid } = outcome;
  const pool = BigInt(fields.pool);
  // coin::take aborts when the pool holds less (balance::split's ENotEnough).
  if (pool < BigInt(paid.amount)) return call.abort(2, 'ENotEnough');
  call.write({ ...object, fields: { ...fields, pool: (pool - BigInt(paid.amount)).toString(), redeemed: [...verifier.redeemed] } });
  call.emit(
    rewardClaimed(CLAIM_EVENT_TYPE, { game: fields.game, history_id: paid.history_id, recipient: paid.recipient, amount: paid.amount, nonce: paid.nonce }),
  );
  call.give(paid.recipient, fullCoinType(coinType), BigInt(paid.amount));
};

/** The verifier's RewardClaimed event of type `type` (its package's): fields as JSON-RPC renders them, and its layout. */
export function rewardClaimed(
  type: string,
  fields: { game: string; history_id: string; recipient: string; amount: string; nonce: string },
): Pick<ScriptEvent, 'type' | 'parsedJson' | 'layout'> {
  return {
    type,
    parsedJson: fields,
    layout: {
      struct: {
        type,
        fields: [
          { name: 'game', layout: 'address' },
          { name: 'history_id', layout: 'u64' },
          { name: 'recipient', layout: 'address' },
          { name: 'amount', layout: 'u64' },
          { name: 'nonce', layout: 'u64' },
        ],
      },
    },
  };
}

/** The verifier's functions the development chain runs, by full name. */
export const verifierFunctions = new Map<string, MoveFunction>([[`${VERIFIER_PACKAGE}::verifier::redeem`, redeem]]);
