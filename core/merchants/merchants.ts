import { GetCommand, PutCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { nextId } from '../platform/counters.js';
import { sortableInt } from '../platform/table.js';
import type { Deps } from '../platform/deps.js';
import { conflict, forbidden, notFound } from '../platform/errors.js';
import type { TokenClaims } from '../platform/tokens.js';
import { MerchantStatus, type Merchant, type MerchantPayload } from './models.js';

/**
 * Merchants: one per console account.
 * - "merchant of an account": pk `MERCHANT#<accountId>`, sk `MERCHANT` (GetItem, strongly consistent);
 * - "merchant by integer id": gsi1pk `MERCHANT_ID#<id>`, gsi1sk `MERCHANT` (admins' status operations).
 */
export const merchantKey = (accountId: string) => ({ pk: `MERCHANT#${accountId}`, sk: 'MERCHANT' });

export interface MerchantItem extends Merchant {
  pk: string;
  sk: string;
}

const toMerchant = ({ pk: _pk, sk: _sk, gsi1pk: _g, gsi1sk: _s, type: _t, ...merchant }: Record<string, unknown>) =>
  merchant as unknown as Merchant;

export async function createMerchant(deps: Deps, owner: TokenClaims, input: MerchantPayload): Promise<Merchant> {
  // No read first: the conditional put is what decides, also between concurrent creates. A refused create
  // leaves a gap in the merchant ids, which are unique but not dense.
  const id = await nextId(deps, 'merchant');
  const now = deps.now().toISOString();
  const merchant: Merchant = {
    id,
    account_id: owner.sub,
    merchant_email: owner.email ?? '',
    ...input,
    status: MerchantStatus.pending,
    create_time: now,
    update_time: now,
  };
  try {
    await deps.db.send(
      new PutCommand({
        TableName: deps.table,
        Item: { ...merchantKey(owner.sub), gsi1pk: `MERCHANT_ID#${id}`, gsi1sk: 'MERCHANT', type: 'merchant', ...merchant },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
  } catch (error) {
    if ((error as Error).name === 'ConditionalCheckFailedException') throw conflict('this account already has a merchant');
    throw error;
  }
  return merchant;
}

export async function findMerchant(deps: Deps, accountId: string): Promise<Merchant | undefined> {
  const out = await deps.db.send(new GetCommand({ TableName: deps.table, Key: merchantKey(accountId), ConsistentRead: true }));
  return out.Item ? toMerchant(out.Item) : undefined;
}

export async function requireMerchant(deps: Deps, accountId: string): Promise<Merchant> {
  const merchant = await findMerchant(deps, accountId);
  if (!merchant) throw notFound('this account has no merchant yet: create one with POST /merchant/create');
  return merchant;
}

export async function findMerchantById(deps: Deps, merchantId: number): Promise<Merchant | undefined> {
  const out = await deps.db.send(
    new QueryCommand({
      TableName: deps.table,
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk = :sk',
      ExpressionAttributeValues: { ':pk': `MERCHANT_ID#${merchantId}`, ':sk': 'MERCHANT' },
    }),
  );
  return out.Items?.[0] ? toMerchant(out.Items[0]) : undefined;
}

/** merchantStatus: the caller's merchant, or for an admin any merchant by id. */
export async function merchantStatusOf(deps: Deps, caller: TokenClaims, merchantId?: number) {
  if (merchantId !== undefined) {
    const merchant = await findMerchantById(deps, merchantId);
    if (merchant && merchant.account_id !== caller.sub && caller.role !== 'admin') {
      throw forbidden('merchant_id: only admins may read another merchant');
    }
    if (!merchant) throw notFound(`merchant_id: no merchant ${merchantId}`);
    return { merchant_id: merchant.id, status: merchant.status };
  }
  const merchant = await requireMerchant(deps, caller.sub);
  return { merchant_id: merchant.id, status: merchant.status };
}

/**
 * Sets a merchant's status (admins). A game is public ("live") exactly while its merchant is active, so the
 * merchant and each of its games change in one transaction, guarded by the status read, so a concurrent
 * change or a game created meanwhile makes this fail and be retried rather than leave a game behind.
 */
export async function setMerchantStatus(deps: Deps, merchantId: number, status: number) {
  // The merchant and its games are read from indexes, which lag writes slightly; a transaction refused
  // because of that (or of a concurrent change) is tried again on fresh reads before giving up.
  for (let attempt = 1; ; attempt++) {
    try {
      return await trySetMerchantStatus(deps, merchantId, status);
    } catch (error) {
      if ((error as Error).name !== 'TransactionCanceledException') throw error;
      if (attempt === 3) throw conflict('merchant or its games changed meanwhile; retry');
      await new Promise((resolve) => setTimeout(resolve, 50 * attempt));
    }
  }
}

async function trySetMerchantStatus(deps: Deps, merchantId: number, status: number) {
  const merchant = await findMerchantById(deps, merchantId);
  if (!merchant) throw notFound(`merchant_id: no merchant ${merchantId}`);
  const games = await deps.db.send(
    new QueryCommand({
      TableName: deps.table,
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': `MERCHANT_GAMES#${merchant.account_id}` },
      ProjectionExpression: 'pk, sk, id',
    }),
  );
  const gameKeys = (games.Items ?? []).map((item) => ({ pk: item.pk as string, sk: item.sk as string, id: item.id as number }));
  if (gameKeys.length > 99) throw conflict('merchant has more games than one status change can move; contact support');
  const live = status === MerchantStatus.active;
  const now = deps.now().toISOString();
  await deps.db.send(
    new TransactWriteCommand({
      TransactItems: [
        {
          Update: {
            TableName: deps.table,
            Key: merchantKey(merchant.account_id),
            UpdateExpression: 'SET #status = :status, update_time = :now, gameCount = :count',
            ConditionExpression: '#status = :seen AND (attribute_not_exists(gameCount) OR gameCount = :count)',
            ExpressionAttributeNames: { '#status': 'status' },
            ExpressionAttributeValues: { ':status': status, ':now': now, ':seen': merchant.status, ':count': gameKeys.length },
          },
        },
        ...gameKeys.map(({ pk, sk, id }) => ({
          Update: {
            TableName: deps.table,
            Key: { pk, sk },
            ...(live
              ? {
                  UpdateExpression: 'SET live = :true, gsi3pk = :livePk, gsi3sk = :liveSk',
                  ExpressionAttributeValues: { ':true': true, ':livePk': 'LIVE_GAME', ':liveSk': sortableInt(id) },
                }
              : {
                  UpdateExpression: 'SET live = :false REMOVE gsi3pk, gsi3sk',
                  ExpressionAttributeValues: { ':false': false },
                }),
          },
        })),
      ],
    }),
  );
  return { merchant_id: merchant.id, status };
}

export async function issueServerToken(deps: Deps, caller: TokenClaims) {
  const merchant = await requireMerchant(deps, caller.sub);
  if (merchant.status === MerchantStatus.suspended) throw forbidden('merchant is suspended');
  const { token, expiresAt } = await deps.tokens.issue('server', caller.sub, { merchant_id: merchant.id });
  return { accessToken: token, expiresAt, merchant_id: merchant.id };
}
