import type { GasCoin } from './gas-reads.js';
import type { GasSponsor } from './sponsor-key.js';

/**
 * The whole transaction of a sponsored claim, from the player's transaction kind: the claim's recipient as
 * sender (the verifier pays only its sender), the sponsor as gas owner paying with the one coin reserved for it,
 * the reference gas price, the stage's gas cap as budget, and an expiry at the end of the current epoch (so the
 * coin's reservation ends with it, coins.ts). Answers its bytes, digest and the sponsor's signature.
 */
export async function sponsoredTransaction(
  kind: Uint8Array,
  terms: { sender: string; sponsor: GasSponsor; coin: GasCoin; price: bigint; budget: bigint; epoch: string },
): Promise<{ bytes: Uint8Array; digest: string; signature: string }> {
  // Loaded on first use: only sponsored claims need the SDK's transaction builder.
  const { Transaction, TransactionDataBuilder } = await import('@mysten/sui/transactions');
  const tx = Transaction.fromKind(kind);
  tx.setSender(terms.sender);
  tx.setGasOwner(terms.sponsor.address);
  tx.setGasPayment([{ objectId: terms.coin.objectId, version: terms.coin.version, digest: terms.coin.digest }]);
  tx.setGasPrice(terms.price);
  tx.setGasBudget(terms.budget);
  tx.setExpiration({ Epoch: terms.epoch });
  // Every input of the kind is already resolved (kind-check.ts: pure bytes and shared object references), so the
  // build needs no chain client.
  const bytes = await tx.build();
  return { bytes, digest: TransactionDataBuilder.getDigestFromBytes(bytes), signature: await terms.sponsor.signTransaction(bytes) };
}
