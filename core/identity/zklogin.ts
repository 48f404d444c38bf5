import { randomBytes, randomUUID } from 'node:crypto';
import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import * as z from 'zod/mini';
import { requireGame } from '../games/games.js';
import type { IdentityDeps } from './deps.js';
import { readItems } from '../platform/batch.js';
import { isConditionalFailure } from '../platform/conditional-failure.js';
import { DomainError } from '../platform/errors.js';
import { ConcurrentChange, transactOrFailedConditions } from '../platform/transactions.js';
import { identityError } from './errors.js';
import { hiddenSaltKey, saltKey } from './keys.js';
import { bindWallet, issueTokenPair, userOfAddress } from './accounts.js';
import type { VerifiedIdToken } from './id-tokens.js';
import { WalletType, type ZkInfo, type ZkLoginResult } from './models.js';

/**
 * zkLogin (docs/api.md, "Player identity"). An OAuth identity (iss, aud, sub) has one salt, created on first use and
 * never changed, because the Sui address is derived from the salt: a new salt would be a new address and lose the
 * user's assets. Access patterns:
 * - "salt of an identity": pk `ZKSALT#<iss>#<aud>#<sub>`, sk `SALT` (with iss, aud and sub);
 * - "salt of a deleted identity": pk `ZKSALT#<SHA-256 of [iss, aud, sub] as JSON, Base64url>`, sk `SALT`, holding
 *   only the salt and when it was made. A deletion moves the salt there (forgetZkSubject): the subject is the
 *   player's, and must not stay, but the salt must, since the address holds the player's assets on chain, and
 *   signing in again gives that address again (with a new, empty account). The key does not name the subject,
 *   though whoever knows the subject can compute it. A named salt is never made again for an identity whose
 *   salt was moved.
 */
/** "salt of an identity" (saltKey) and "salt of a deleted identity" (hiddenSaltKey). */
export const StoredSalt = z.object({ salt: z.string() });
const readSalt = (item: Record<string, unknown> | undefined) => item && StoredSalt.parse(item).salt;

/** query_zk_info: the identity's salt and zkLogin address (the salt is created if this is its first use). */
export async function zkInfo(deps: IdentityDeps, idToken: string): Promise<z.infer<typeof ZkInfo>> {
  const token = await deps.idTokens.verify(idToken);
  const { salt, address } = await zkIdentity(deps, token);
  return { provider: token.provider, iss: token.iss, aud: token.aud, sub: token.sub, salt, address };
}

/** login_zk: the identity's account (wallet_type 2), created on first sign-in, and its token pair. */
export async function loginZk(deps: IdentityDeps, idToken: string, gameCode?: string): Promise<z.infer<typeof ZkLoginResult>> {
  const token = await deps.idTokens.verify(idToken);
  if (gameCode) await requireGame(deps, gameCode);
  const { address } = await zkIdentity(deps, token);
  const uid = await userOfZkAddress(deps, address);
  return { ...(await issueTokenPair(deps, uid, gameCode)), uid, address };
}

/**
 * The salt and zkLogin address of a verified identity. A new identity's address is derived with the salt it
 * is about to get before that salt is stored: deriving refuses a token the circuit cannot prove (addressOf),
 * and a refused token must leave nothing behind.
 */
async function zkIdentity(deps: IdentityDeps, token: VerifiedIdToken) {
  assertProvable(token);
  const stored = await storedSalt(deps, token, false);
  if (stored) return { salt: stored, address: await addressOf(token.jwt, stored) };
  const candidate = newSalt();
  const address = await addressOf(token.jwt, candidate);
  const salt = await storeSalt(deps, token, candidate);
  return { salt, address: salt === candidate ? address : await addressOf(token.jwt, salt) };
}

/** The zkLogin address of a verified identity that has a salt already; undefined otherwise. Writes nothing. */
export async function zkAddressOf(deps: IdentityDeps, token: VerifiedIdToken): Promise<string | undefined> {
  const salt = await storedSalt(deps, token, true);
  return salt === undefined ? undefined : addressOf(token.jwt, salt);
}

/**
 * Refuses, before anything is stored, a verified token that zkLogin cannot use: its circuit proves RS256
 * signatures over a token with a single `aud`, so any other token would give an address no one can sign for.
 */
function assertProvable(token: VerifiedIdToken) {
  if (decodeProtectedHeader(token.jwt).alg !== 'RS256') throw identityError('zklogin.token_unusable', 'id_token: zkLogin needs an RS256-signed id_token');
  if (typeof decodeJwt(token.jwt).aud !== 'string') throw identityError('zklogin.token_unusable', 'id_token: zkLogin needs an id_token with a single aud');
}

/**
 * The identity's stored salt, under either key. Both keys in one BatchGetItem: a returning identity's sign-in
 * costs one request, as with one key, and so does a deleted identity's; reading the hidden key only after missing
 * the named one would cost those and every first sign-in a second request. A salt never changes, only moves, so
 * the first read may be eventually consistent: a stale read can only miss a salt, and storeSalt's conditions
 * catch that.
 */
async function storedSalt(deps: IdentityDeps, token: VerifiedIdToken, consistent: boolean) {
  const [named, hidden] = await readItems(deps, [saltKey(token), hiddenSaltKey(token)], { consistent });
  return readSalt(named) ?? readSalt(hidden);
}

/** 16 random bytes as decimal text (below 2^128, as zkLogin requires). */
const newSalt = () => BigInt(`0x${randomBytes(16).toString('hex')}`).toString();

/**
 * Stores `salt` as the identity's salt unless it has one under either key. One transaction puts the named salt on
 * condition that neither key holds one, so the first writer wins and a moved salt is never replaced by a new one
 * (a new salt would be a new address). A loser reads the winner's salt, so concurrent first uses agree on one
 * salt; so does a request that concurrent first uses kept cancelling, once one of them has stored it. Answers the
 * identity's salt.
 */
async function storeSalt(deps: IdentityDeps, token: VerifiedIdToken, salt: string): Promise<string> {
  const absent = 'attribute_not_exists(pk)';
  const item = { ...saltKey(token), type: 'zksalt', iss: token.iss, aud: token.aud, sub: token.sub, salt, created_at: deps.now().toISOString() };
  const collided = 'id_token: concurrent first uses of this identity kept colliding; retry';
  const items = [
    { Put: { TableName: deps.table, Item: item, ConditionExpression: absent } },
    { ConditionCheck: { TableName: deps.table, Key: hiddenSaltKey(token), ConditionExpression: absent } },
  ];
  const written = await transactOrFailedConditions(deps, items, collided).then(
    (failed) => failed.length === 0,
    (error: unknown) => {
      if (error instanceof ConcurrentChange) return false;
      throw error;
    },
  );
  if (written) return salt;
  const stored = await storedSalt(deps, token, true);
  if (!stored) throw new ConcurrentChange(collided);
  return stored;
}

/**
 * What a player's deletion does to their zkLogin identity: moves its salt from the key naming the subject to the
 * hidden key (hiddenSaltKey), holding only the salt and when it was made. Idempotent, and safe to run again
 * after a crash at any point: the hidden salt is put unless it is there (and if it is, it must be the same salt),
 * then the named item is deleted; run again, it puts nothing new and deletes what is left. An identity with no
 * named salt has nothing to move.
 */
export async function forgetZkSubject(deps: Pick<IdentityDeps, 'db' | 'table'>, token: VerifiedIdToken): Promise<void> {
  const named = await deps.db.send(new GetCommand({ TableName: deps.table, Key: saltKey(token), ConsistentRead: true }));
  if (!named.Item) return;
  const { salt, created_at } = StoredMovedSalt.parse(named.Item);
  try {
    await deps.db.send(
      new PutCommand({
        TableName: deps.table,
        Item: { ...hiddenSaltKey(token), salt, created_at },
        ConditionExpression: 'attribute_not_exists(pk) OR salt = :salt',
        ExpressionAttributeValues: { ':salt': salt },
      }),
    );
  } catch (error) {
    // Two salts for one identity: never made by this module (storeSalt refuses a named salt beside a hidden one).
    if (isConditionalFailure(error)) throw new Error('forgetZkSubject: the identity holds another salt under its hidden key');
    throw error;
  }
  // Unconditional: a salt never changes, and a run racing this one may have deleted it already.
  await deps.db.send(new DeleteCommand({ TableName: deps.table, Key: saltKey(token) }));
}

/** What a moved salt keeps of the named one. */
const StoredMovedSalt = z.object({ salt: z.string(), created_at: z.string() });

/**
 * The zkLogin address of the token's identity with this salt. `@mysten/sui/zklogin` is imported here, on first
 * use, rather than at the top: the bundle is split, and this keeps its ~600 KB out of the group's cold start.
 */
async function addressOf(jwt: string, salt: string): Promise<string> {
  const { jwtToAddress } = await import('@mysten/sui/zklogin');
  try {
    // The address Sui's wallets derive (not the legacy form with the address seed unpadded), which is what
    // 1.x computed by default; 2.x makes the caller say so.
    return jwtToAddress(jwt, salt, false);
  } catch (error) {
    // Limits of the circuit assertProvable does not check: the token's length, the sub's and aud's lengths.
    throw identityError('zklogin.token_unusable', `id_token: not usable for zkLogin (${(error as Error).message})`);
  }
}

/**
 * The user of a zkLogin address, created with its account on the first sign-in. When concurrent first
 * sign-ins race, one transaction binds the address; the others get a 409 and read the winner's user.
 */
async function userOfZkAddress(deps: IdentityDeps, address: string): Promise<string> {
  const existing = await userOfAddress(deps, address);
  if (existing) return existing;
  try {
    // A fresh uid has no account and the address had no user just now: bindWallet need not read them again.
    const account = await bindWallet(deps, { uid: randomUUID(), address, walletType: WalletType.zkLogin }, [], { extra: [] });
    return account.uid;
  } catch (error) {
    const winner = error instanceof DomainError && error.kind === 'Conflict' ? await userOfAddress(deps, address) : undefined;
    if (winner) return winner;
    throw error;
  }
}
