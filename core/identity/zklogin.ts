import { randomBytes, randomUUID } from 'node:crypto';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import * as z from 'zod/mini';
import { requireGame } from '../games/games.js';
import type { IdentityDeps } from './deps.js';
import { isConditionalFailure } from '../platform/conditional-failure.js';
import { DomainError } from '../platform/errors.js';
import { identityError } from './errors.js';
import { bindWallet, issueTokenPair, userOfAddress } from './accounts.js';
import type { VerifiedIdToken } from './id-tokens.js';
import { WalletType, type ZkInfo, type ZkLoginResult } from './models.js';

/**
 * zkLogin (docs/api.md, "Player identity"). An OAuth identity (iss, aud, sub) has one salt, created on first use and
 * never changed, because the Sui address is derived from the salt: a new salt would be a new address and lose the
 * user's assets. Access pattern "salt of an identity": pk `ZKSALT#<iss>#<aud>#<sub>`, sk `SALT`.
 */
const saltKey = (token: VerifiedIdToken) => ({ pk: `ZKSALT#${token.iss}#${token.aud}#${token.sub}`, sk: 'SALT' });
/** "salt of an identity" (saltKey). */
const StoredSalt = z.object({ salt: z.string() });
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
 * The identity's stored salt. The first read may be eventually consistent: a salt never changes, so a stale
 * read can only miss a new salt, and storeSalt's conditional put catches that.
 */
const storedSalt = async (deps: IdentityDeps, token: VerifiedIdToken, consistent: boolean) =>
  readSalt((await deps.db.send(new GetCommand({ TableName: deps.table, Key: saltKey(token), ConsistentRead: consistent }))).Item);

/** 16 random bytes as decimal text (below 2^128, as zkLogin requires). */
const newSalt = () => BigInt(`0x${randomBytes(16).toString('hex')}`).toString();

/**
 * Stores `salt` as the identity's salt unless it has one. A conditional put makes the first writer win; a loser
 * reads the winner's salt, so concurrent first uses agree on one salt. Answers the identity's salt.
 */
async function storeSalt(deps: IdentityDeps, token: VerifiedIdToken, salt: string): Promise<string> {
  const key = saltKey(token);
  try {
    await deps.db.send(
      new PutCommand({
        TableName: deps.table,
        Item: { ...key, type: 'zksalt', iss: token.iss, aud: token.aud, sub: token.sub, salt, created_at: deps.now().toISOString() },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
    return salt;
  } catch (error) {
    if (!isConditionalFailure(error)) throw error;
    return (await storedSalt(deps, token, true))!;
  }
}

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
