import type { ClientWithCoreApi } from '@mysten/sui/client';
import type { Signer } from '@mysten/sui/cryptography';
import { Transaction } from '@mysten/sui/transactions';
import { fromBase64, fromHex, toBase64 } from '@mysten/sui/utils';
import type { MainClient } from './client.js';
import { unwrap } from './errors.js';

export interface SponsoredRedemption {
  /** The player's main client (a PlayerSession's `api`): sign_code and the sponsor take the platform token. */
  api: MainClient;
  /** The history entry whose reward is redeemed. */
  id: number;
  /** The game's claim function, `<package>::<module>::<function>` (the studio's sponsorship `target`). */
  target: string;
  /** The player: the transaction's sender, who signs it (a keypair, or a wallet's or zkLogin's signer). */
  signer: Pick<Signer, 'signTransaction'>;
  /** The chain: executes the transaction, and looks the verifier's shared version up unless `verifierVersion` says it. */
  chain: ClientWithCoreApi;
  /** The verifier object's initial shared version, when the game knows it (saves the chain a lookup). */
  verifierVersion?: number | string;
}

/**
 * Redeems a reward with the stage paying the gas (docs/claims.md "Sponsored claims"), in one call: signs the
 * claim (sign_code), builds the claim call as a transaction kind, has the platform's sponsor make and sign the
 * whole transaction (the player as sender, the sponsor as gas owner), signs it as the player and executes it with
 * both signatures. Answers the executed transaction's digest; a refusal of the platform is an ApiError.
 */
export async function redeemSponsored(options: SponsoredRedemption): Promise<{ digest: string }> {
  const { api, id, target, signer, chain } = options;
  const claim = await unwrap(api.POST('/merchant/sign/code', { body: { id } }));
  if (!claim.game || !claim.coin_type) throw new Error('the claim names no verifier: sign_code renews such a claim, call it again');
  const tx = new Transaction();
  const verifier =
    options.verifierVersion === undefined
      ? tx.object(claim.game)
      : tx.sharedObjectRef({ objectId: claim.game, initialSharedVersion: options.verifierVersion, mutable: true });
  tx.moveCall({
    target,
    // `type_name` renders the coin's addresses without 0x.
    typeArguments: [claim.coin_type.replace(/(^|[<,\s])([0-9a-fA-F]{64})::/g, '$10x$2::')],
    arguments: [verifier, tx.pure.vector('u8', fromHex(claim.message)), tx.pure.vector('u8', fromBase64(claim.signature)), tx.object.clock()],
  });
  const kind = await tx.build({ onlyTransactionKind: true, ...(options.verifierVersion === undefined ? { client: chain } : {}) });
  const sponsored = await unwrap(api.POST('/merchant/sign/sponsor', { body: { id, transaction_kind: toBase64(kind) } }));
  const bytes = fromBase64(sponsored.transaction);
  const { signature } = await signer.signTransaction(bytes);
  const result = await chain.core.executeTransaction({ transaction: bytes, signatures: [signature, sponsored.sponsor_signature] });
  if (result.$kind !== 'Transaction') throw new Error(`the sponsored claim failed on chain: ${JSON.stringify(result.FailedTransaction?.status)}`);
  return { digest: result.Transaction.digest };
}
