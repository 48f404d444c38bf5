import { randomBytes } from 'node:crypto';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type { z } from 'zod/mini';
import { requireGame } from '../games/games.js';
import type { PlatformDeps } from '../platform/deps.js';
import { goneKey, notGoneCheck } from '../platform/players.js';
import { bearerTokenOf } from '../platform/authorization-header.js';
import { identityError } from './errors.js';
import { BindingRefused, bindWallet, issueTokenPair, knownWithoutAccount, readBinding } from './accounts.js';
import { StoredNonce, WalletType, type RegisterBody } from './models.js';
import { nonceKey } from './keys.js';

/**
 * Wallet sign-in (docs/api.md, "Player identity"). getNonce stores a single-use message per address; the wallet signs
 * it as a Sui personal message; chainwallet_register verifies the signature for that address and consumes the
 * nonce in the same transaction that binds the address, so a signature can never be used twice.
 * Access pattern "live nonce of an address": pk `NONCE#<address>`, sk `NONCE` (TTL `expiresAt`).
 */
export const NONCE_TTL_SECONDS = 5 * 60;

export function signInMessage(stage: string, address: string, nonce: string, issuedAt: string, expiresAt: string) {
  return [
    `Sign in to the game platform (${stage}) with your Sui account:`,
    address,
    '',
    `Nonce: ${nonce}`,
    `Issued At: ${issuedAt}`,
    `Expiration Time: ${expiresAt}`,
  ].join('\n');
}

export async function issueNonce(deps: PlatformDeps, address: string) {
  const nonce = randomBytes(16).toString('hex');
  const now = deps.now();
  const expires = new Date(now.getTime() + NONCE_TTL_SECONDS * 1000);
  const message = signInMessage(deps.stage, address, nonce, now.toISOString(), expires.toISOString());
  await deps.db.send(
    new PutCommand({
      TableName: deps.table,
      // A new nonce replaces the address's previous one: only the latest message can be signed in with.
      Item: { ...nonceKey(address), type: 'nonce', nonce, message, expiresAt: Math.floor(expires.getTime() / 1000) },
    }),
  );
  return { address, nonce, message, expiresAt: expires.toISOString() };
}

/** Signature schemes of ordinary wallets (the serialized signature's flag byte): Ed25519, Secp256k1, Secp256r1. */
const walletSchemes = new Set(['ED25519', 'Secp256k1', 'Secp256r1']);

/**
 * True when `signature` is a personal-message signature of `message` by `address`. @mysten/sui's verifier is
 * imported on first use: it is sizeable (about 110 KB minified in 2.x: every scheme's curves and BCS), and in
 * the split bundle this keeps it off every cold start. zkLogin, multisig and passkey signatures are refused before it is
 * called, so verification never reaches for the network.
 */
export async function signedBy(message: string, signature: string, address: string): Promise<boolean> {
  const [{ parseSerializedSignature }, { verifyPersonalMessageSignature }] = await Promise.all([
    import('@mysten/sui/cryptography'),
    import('@mysten/sui/verify'),
  ]);
  try {
    if (!walletSchemes.has(parseSerializedSignature(signature).signatureScheme)) return false;
    await verifyPersonalMessageSignature(new TextEncoder().encode(message), signature, { address });
    return true;
  } catch {
    return false;
  }
}

/**
 * chainwallet_register: verifies, binds and signs in; answers the contract's token pair.
 *
 * The uuid is the client's choice, so naming a user id must not be enough to become that user. A uuid with an
 * account gets no other address (409), and its own address signs in with a signature by it. A uuid without an
 * account that the platform already holds something for (knownWithoutAccount: tickets, ledger, params, social
 * bindings, reward history) gets a wallet only when the request proves the caller is that user, with a valid
 * platform token of the uuid in `Authorization: Bearer`; otherwise 409, and nothing is written (the nonce stays
 * live). A uuid the platform knows nothing of is new: the first signed request binds it.
 *
 * A uuid whose user deleted their account (the gone mark, core/platform/players.ts) is never bound again: 409,
 * nothing written. Its mark is read with the binding, and the binding's transaction checks it is still absent,
 * so a deletion that commits in between leaves no account, and no address bound to the deleted id, behind.
 * Signing in again takes a new uuid (the deleted account's address is free again once the deletion is done).
 */
export async function registerWallet(deps: PlatformDeps, input: z.infer<typeof RegisterBody>, authorization?: string) {
  const { uuid, address, signature } = input;
  const state = await readBinding(deps, uuid, address, [nonceKey(address), goneKey(uuid)]);
  const [stored, gone] = state.extra;
  if (gone) throw deletedUser();
  const nonce = stored && StoredNonce.parse(stored);
  const nowSeconds = Math.floor(deps.now().getTime() / 1000);
  if (!nonce || nonce.expiresAt <= nowSeconds) throw identityError('wallet.nonce_missing', 'address: no live sign-in nonce; ask getNonce for one');
  const [signed, known] = await Promise.all([signedBy(nonce.message, signature, address), state.user ? undefined : knownWithoutAccount(deps, uuid)]);
  if (!signed) throw identityError('wallet.signature_invalid', 'signature: not a signature of the sign-in message by this address');
  if (known && !(await isUser(deps, authorization, uuid))) {
    throw identityError(
      'wallet.user_has_records',
      `uuid: the platform already holds ${known === 'rewards' ? 'rewards' : 'records'} for this user; only the user may bind a wallet to it (send a platform token of this user as Authorization: Bearer)`,
    );
  }
  const consumeNonce = {
    Delete: {
      TableName: deps.table,
      Key: nonceKey(address),
      ConditionExpression: 'nonce = :nonce AND expiresAt > :now',
      ExpressionAttributeValues: { ':nonce': nonce.nonce, ':now': nowSeconds },
    },
  };
  const stillHere = notGoneCheck(deps.table, uuid);
  try {
    await bindWallet(deps, { uid: uuid, address, walletType: WalletType.external }, [consumeNonce, stillHere], state);
  } catch (error) {
    if (error instanceof BindingRefused && error.items.includes(1)) throw deletedUser();
    if (error instanceof BindingRefused) throw identityError('wallet.message_used', 'signature: this sign-in message was used already');
    throw error;
  }
  return issueTokenPair(deps, uuid);
}

const deletedUser = () => identityError('account.deleted', 'uuid: this user deleted their account; sign in with a new uuid');

/** True when `authorization` is `Bearer <a valid platform token of uid>`. */
async function isUser(deps: PlatformDeps, authorization: string | undefined, uid: string): Promise<boolean> {
  const token = bearerTokenOf(authorization);
  if (!token) return false;
  try {
    return (await deps.tokens.verify(token, ['platform'])).sub === uid;
  } catch {
    return false;
  }
}

/** chainwallet/token: a game token for one existing game. */
export async function gameTokenFor(deps: PlatformDeps, uid: string, gameCode: string) {
  await requireGame(deps, gameCode);
  const { token, expiresAt } = await deps.tokens.issue('game', uid, { game_code: gameCode });
  return { accessToken: token, expiresAt, game_code: gameCode };
}
