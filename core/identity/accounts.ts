import { GetCommand, QueryCommand, type QueryCommandInput, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod/mini';
import { objectOf } from '../shared/records.js';
import { readItems } from '../platform/batch.js';
import { nextId } from '../platform/counters.js';
import type { PlatformDeps } from '../platform/deps.js';
import { identityError } from './errors.js';
import { transactOrFailedConditions } from '../platform/transactions.js';
import { AccountStatus, AccountRecord } from './models.js';

/**
 * Player accounts. A user (`uid`, a UUID) has one account with one wallet address; an address belongs to one
 * user. Access patterns:
 * - "account of a user": pk `USER#<uid>`, sk `ACCOUNT` (the contract's Account/wallet record);
 * - "user of an address": pk `WALLET#<address>`, sk `WALLET` (attribute uid; makes an address unique).
 */
import { playerRewardsPartition, userKey, userPartition, walletKey } from './keys.js';

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/** "account of a user" (userKey): the contract's record as stored, without its `private_key` (always ''). */
export const StoredAccount = z.lazy(() => z.omit(objectOf(AccountRecord), { private_key: true }));
/** "user of an address" (walletKey): the user it belongs to. */
export const StoredWallet = z.object({ uid: z.string() });

export const toAccountRecord = (item: Record<string, unknown>): AccountRecord => ({ ...StoredAccount.parse(item), private_key: '' });

export async function findAccount(deps: PlatformDeps, uid: string): Promise<AccountRecord | undefined> {
  const out = await deps.db.send(new GetCommand({ TableName: deps.table, Key: userKey(uid), ConsistentRead: true }));
  return out.Item ? toAccountRecord(out.Item) : undefined;
}

/** The user bound to an address, if any. */
export async function userOfAddress(deps: PlatformDeps, address: string): Promise<string | undefined> {
  const out = await deps.db.send(new GetCommand({ TableName: deps.table, Key: walletKey(address), ConsistentRead: true }));
  return out.Item ? StoredWallet.parse(out.Item).uid : undefined;
}

/**
 * What the platform holds for a user id that has no account yet, if anything (chainwallet_register binds a
 * wallet to such an id only for a caller proven to be that user):
 * - any item of the user's partition `USER#<uid>`: ticket balances, ledger entries (every credit and debit),
 *   saved params, social bindings;
 * - a reward history entry (gsi1 `REWARDS#<uid>`): the claimable value of the user's scores once a season is
 *   settled.
 * Not covered: scores of seasons not settled yet (keyed by game and season, not by player): they become
 * history entries at settlement, and only then does the id count as known. Two one-item Queries in parallel;
 * the history index is eventually consistent (an entry written a moment before may not be seen yet).
 */
export async function knownWithoutAccount(deps: PlatformDeps, uid: string): Promise<'records' | 'rewards' | undefined> {
  const first = (input: Omit<QueryCommandInput, 'TableName' | 'Limit'>) =>
    deps.db.send(new QueryCommand({ TableName: deps.table, Limit: 1, ...input })).then((out) => (out.Items ?? []).length > 0);
  const [records, rewards] = await Promise.all([
    first({ KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': userPartition(uid) }, ProjectionExpression: 'pk', ConsistentRead: true }),
    first({
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': playerRewardsPartition(uid) },
      ProjectionExpression: 'pk',
    }),
  ]);
  return records ? 'records' : rewards ? 'rewards' : undefined;
}

/** A condition of the caller's own items in a binding transaction failed: `items` are their indexes in `withItems`. */
export class BindingRefused extends Error {
  constructor(readonly items: readonly number[]) {
    super('a condition of the binding transaction failed');
  }
}

/**
 * What a binding depends on, read in one request; `extra` holds the other items the caller asked for, in the order
 * of their keys (undefined where there is none).
 */
export interface BindingState {
  user?: Record<string, unknown>;
  wallet?: Record<string, unknown>;
  extra: (Record<string, unknown> | undefined)[];
}

type Key = { pk: string; sk: string };

/** Reads the user, the address and `extraKeys` (e.g. the sign-in nonce) in one BatchGetItem (read completely, or 503). */
export async function readBinding(deps: PlatformDeps, uid: string, address: string, extraKeys: Key[] = []): Promise<BindingState> {
  const [user, wallet, ...extra] = await readItems(deps, [userKey(uid), walletKey(address), ...extraKeys]);
  return { user, wallet, extra };
}

/**
 * Binds `address` to user `uid`, creating the account if the user is new, in one transaction together with
 * `withItems` (e.g. consuming the sign-in nonce, so a replay binds nothing). Binding the same pair again is
 * a sign-in: it writes only `withItems`. An address of another user, or a user with another address, is
 * 409; a failure of one of `withItems`' conditions is reported as BindingRefused for the caller to map.
 * `state` is what readBinding returned, when the caller read it already.
 */
export async function bindWallet(
  deps: PlatformDeps,
  binding: { uid: string; address: string; walletType: number },
  withItems: TransactItem[] = [],
  state?: BindingState,
): Promise<AccountRecord> {
  const { uid, address, walletType } = binding;
  const { user, wallet } = state ?? (await readBinding(deps, uid, address));
  if (wallet && wallet.uid !== uid) throw identityError('wallet.bound_to_other_user', 'address: bound to another user');
  if (user && user.wallet_address !== address) throw identityError('wallet.bound_to_other_user', 'uuid: this user is bound to another address');

  if (user && wallet) {
    if (withItems.length > 0) await transact(deps, withItems, withItems.length);
    return toAccountRecord(user);
  }
  const now = deps.now().toISOString();
  const record: AccountRecord = {
    id: await nextId(deps, 'account'),
    create_time: now,
    update_time: now,
    wallet_address: address,
    wallet_type: walletType,
    status: AccountStatus.active,
    uid,
    private_key: '',
  };
  const { private_key: _none, ...stored } = record;
  await transact(
    deps,
    [
      ...withItems,
      { Put: { TableName: deps.table, Item: { ...userKey(uid), type: 'account', ...stored }, ConditionExpression: 'attribute_not_exists(pk)' } },
      {
        Put: {
          TableName: deps.table,
          Item: { ...walletKey(address), type: 'wallet', uid, wallet_type: walletType },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
    ],
    withItems.length,
  );
  return record;
}

/**
 * Runs the transaction; the first `ownItems` items are the caller's, the rest the binding's. A transaction
 * cancelled by a concurrent one on the same items (two sign-ins racing for one address or nonce) is run again
 * by the platform, then answered 409; once the other has committed, a condition fails and says which.
 */
async function transact(deps: PlatformDeps, items: TransactItem[], ownItems: number) {
  const failed = await transactOrFailedConditions(deps, items, 'address: being bound concurrently by another request; retry');
  if (failed.length === 0) return;
  const own = failed.filter((index) => index < ownItems);
  if (own.length > 0) throw new BindingRefused(own);
  // The user or the address was bound meanwhile by a concurrent request: the same answer as if seen before.
  throw identityError('wallet.bound_to_other_user', 'address: bound meanwhile by another request');
}

/** The token pair a player gets on sign-in: a platform token, and a game token (for one game if named). */
export async function issueTokenPair(deps: PlatformDeps, uid: string, gameCode?: string) {
  const [platform, game] = await Promise.all([deps.tokens.issue('platform', uid), deps.tokens.issue('game', uid, gameCode ? { game_code: gameCode } : {})]);
  return {
    platformToken: { accessToken: platform.token, expiresAt: platform.expiresAt },
    gameToken: { accessToken: game.token, expiresAt: game.expiresAt },
  };
}
