import { randomBytes } from 'node:crypto';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { decodeJwt } from 'jose';
import * as z from 'zod/mini';
import { toAccountRecord } from '../identity/accounts.js';
import type { IdentityDeps } from '../identity/deps.js';
import type { VerifiedIdToken } from '../identity/id-tokens.js';
import { WalletType, type AccountRecord } from '../identity/models.js';
import { signedBy } from '../identity/wallet.js';
import { zkAddressOf } from '../identity/zklogin.js';
import { readItems } from '../platform/batch.js';
import { sha256Url } from '../platform/digest.js';
import type { TransactItem } from '../platform/transactions.js';
import { privacyError } from './errors.js';
import { challengeReads, deletionNonceKey } from './keys.js';
import type { DeletionBody } from './models.js';

/**
 * A fresh proof that the caller controls the account, which a token alone is not (docs/security.md "Deleting a
 * player's account"):
 * - a wallet account signs a single-use message naming the deletion (deletionChallenge), live five minutes,
 *   kept apart from the sign-in nonce so that a signed sign-in can never delete and a signed deletion never signs in;
 * - a zkLogin account (its wallet cannot sign a personal message the platform verifies) sends an id_token of its
 *   identity issued within PROOF_MAX_AGE_SECONDS: the provider has just seen the person sign in.
 * The proof's id (a digest of the signature or id_token) names the deletion, so the same request again, after a
 * lost answer or a crash, finds it.
 */
export const MESSAGE_TTL_SECONDS = 5 * 60;
export const PROOF_MAX_AGE_SECONDS = 10 * 60;

export const StoredMessage = z.object({ nonce: z.string(), message: z.string(), expiresAt: z.number() });

export function deletionMessage(stage: string, address: string, uid: string, nonce: string, issuedAt: string, expiresAt: string) {
  return [
    `Delete my account on the game platform (${stage}):`,
    address,
    '',
    `Account: ${uid}`,
    'Everything the platform holds about me is deleted; unspent tickets are forfeited.',
    '',
    `Nonce: ${nonce}`,
    `Issued At: ${issuedAt}`,
    `Expiration Time: ${expiresAt}`,
  ].join('\n');
}

async function accountOf(deps: IdentityDeps, uid: string) {
  const [item] = await readItems(deps, challengeReads(uid));
  if (!item) throw privacyError('deletion.no_account', 'this user has no account to delete');
  return { account: toAccountRecord(item) };
}

/** deletion/challenge: a new deletion message for the caller's wallet account (it replaces the previous one). */
export async function deletionChallenge(deps: IdentityDeps, uid: string) {
  const { account } = await accountOf(deps, uid);
  if (account.wallet_type === WalletType.zkLogin) {
    throw privacyError('deletion.proof_kind_wrong', 'this account signs in with zkLogin: send a fresh id_token to account/delete instead');
  }
  const nonce = randomBytes(16).toString('hex');
  const now = deps.now();
  const expires = new Date(now.getTime() + MESSAGE_TTL_SECONDS * 1000);
  const message = deletionMessage(deps.stage, account.wallet_address, uid, nonce, now.toISOString(), expires.toISOString());
  await deps.db.send(
    new PutCommand({
      TableName: deps.table,
      Item: { ...deletionNonceKey(account.wallet_address), type: 'deletion_nonce', nonce, message, expiresAt: Math.floor(expires.getTime() / 1000) },
    }),
  );
  return { address: account.wallet_address, nonce, message, expiresAt: expires.toISOString() };
}

/** The id a proof gives its deletion. */
export const proofIdOf = (body: DeletionBody) => sha256Url(body.signature !== undefined ? `wallet:${body.signature}` : `zk:${body.id_token}`);

/** A zkLogin identity, without its id_token (which is never stored). */
export type ZkIdentity = Pick<VerifiedIdToken, 'provider' | 'iss' | 'aud' | 'sub'>;

export interface VerifiedProof {
  account: AccountRecord;
  /** The zkLogin identity, when the proof was an id_token: its salt moves to a key that hides the subject. */
  zk?: ZkIdentity;
  /** Written with the deletion's start: consumes the message, so a signature deletes once. */
  consume: TransactItem[];
}

/** Verifies the proof for the caller's account; refuses (4xx, nothing written) when it is not one. */
export async function verifyProof(deps: IdentityDeps, uid: string, body: DeletionBody): Promise<VerifiedProof> {
  if (body.signature !== undefined) return verifySignature(deps, uid, body.signature);
  return verifyIdToken(deps, uid, body.id_token!);
}

async function verifySignature(deps: IdentityDeps, uid: string, signature: string): Promise<VerifiedProof> {
  const { account } = await accountOf(deps, uid);
  if (account.wallet_type === WalletType.zkLogin) {
    throw privacyError('deletion.proof_kind_wrong', 'signature: this account signs in with zkLogin; send a fresh id_token instead');
  }
  const key = deletionNonceKey(account.wallet_address);
  const [item] = await readItems(deps, [key]);
  const stored = item && StoredMessage.parse(item);
  if (!stored || stored.expiresAt <= Math.floor(deps.now().getTime() / 1000)) {
    throw privacyError('deletion.message_missing', 'signature: no live deletion message for this account; ask deletion/challenge for one');
  }
  if (!(await signedBy(stored.message, signature, account.wallet_address))) {
    throw privacyError('deletion.signature_invalid', "signature: not the account's wallet's signature of its deletion message");
  }
  const consume: TransactItem = {
    Delete: { TableName: deps.table, Key: key, ConditionExpression: 'nonce = :nonce', ExpressionAttributeValues: { ':nonce': stored.nonce } },
  };
  return { account, consume: [consume] };
}

async function verifyIdToken(deps: IdentityDeps, uid: string, jwt: string): Promise<VerifiedProof> {
  const { account } = await accountOf(deps, uid);
  if (account.wallet_type !== WalletType.zkLogin) {
    throw privacyError('deletion.proof_kind_wrong', "id_token: this account signs in with its wallet; sign deletion/challenge's message instead");
  }
  const token = await deps.idTokens.verify(jwt);
  const issuedAt = Number(decodeJwt(jwt).iat ?? 0);
  if (Math.floor(deps.now().getTime() / 1000) - issuedAt > PROOF_MAX_AGE_SECONDS) {
    throw privacyError('deletion.proof_stale', `id_token: issued more than ${PROOF_MAX_AGE_SECONDS / 60} minutes ago; sign in with the provider again`);
  }
  if ((await zkAddressOf(deps, token)) !== account.wallet_address) {
    throw privacyError('deletion.proof_other_account', "id_token: not of this account's zkLogin identity");
  }
  return { account, zk: { provider: token.provider, iss: token.iss, aud: token.aud, sub: token.sub }, consume: [] };
}
