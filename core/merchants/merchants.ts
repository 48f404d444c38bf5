import { GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod/mini';
import { queryItems } from '../platform/query.js';
import { isConditionalFailure } from '../platform/conditional-failure.js';
import { AGAIN, retrying } from '../platform/retry.js';
import { outlastRememberedStates } from '../platform/process-memory.js';
import { transactOrFailures, type TransactItem } from '../platform/transactions.js';
import { nextId } from '../platform/counters.js';
import { sortableInt } from '../platform/table.js';
import type { PlatformDeps } from '../platform/deps.js';
import { platformError } from '../platform/errors.js';
import { objectOf } from '../shared/records.js';
import { merchantError } from './errors.js';
import type { TokenClaims } from '../platform/tokens.js';
import { Merchant, MerchantStatus, type MerchantPayload, type MerchantStatusView } from './models.js';
import { merchantGamesPartition, merchantIdPartition, merchantKey, merchantsOfStatusKeys } from './keys.js';

/**
 * Merchants: one per console account.
 * - "merchant of an account": pk `MERCHANT#<accountId>`, sk `MERCHANT` (GetItem, strongly consistent);
 * - "merchant by integer id": gsi1pk `MERCHANT_ID#<id>`, gsi1sk `MERCHANT` (admins' status operations);
 * - "merchants of a status, newest first": gsi2pk `MERCHANTS#<status>`, gsi2sk `<create_time>#<zero-padded id>`
 *   (admins' review list, review.ts), set when the merchant is made and moved by every status change, in the
 *   transaction that changes the status.
 */

/** What the merchant item records of its last status change (setMerchantStatus). */
const StatusChange = z.object({
  status_reason: z.optional(z.string()),
  status_changed_at: z.optional(z.string()),
  status_changed_by: z.optional(z.string()),
});

/**
 * "merchant of an account" as stored: its record and its last status change. Not its index keys: merchants made
 * before "merchants of a status" lack gsi2's until backfilled or their status next changes (review.ts reads the
 * index's sort key from the index alone); nor `gameCount`, which only conditions read.
 */
export const StoredMerchant = z.lazy(() => z.extend(objectOf(Merchant), StatusChange.shape));

/**
 * The last status change as the merchant's views show it: only when it gave a reason (else the views are as they
 * were before reasons existed), with the admin account that made it to admins only.
 */
function shownChange(item: Record<string, unknown>, admin: boolean) {
  const change = StatusChange.parse(item);
  if (change.status_reason === undefined) return {};
  return {
    status_reason: change.status_reason,
    ...(change.status_changed_at === undefined ? {} : { status_changed_at: change.status_changed_at }),
    ...(admin && change.status_changed_by !== undefined ? { status_changed_by: change.status_changed_by } : {}),
  };
}

/** The merchant record of a stored merchant item (the bookkeeping left out, its last change shown as to its owner). */
function toMerchant(item: unknown): Merchant {
  const { status_reason, status_changed_at, status_changed_by: _by, ...merchant } = StoredMerchant.parse(item);
  return { ...merchant, ...shownChange({ status_reason, status_changed_at }, false) };
}

export async function createMerchant(deps: PlatformDeps, owner: TokenClaims, input: MerchantPayload): Promise<Merchant> {
  // The account's merchant is read before the id is taken, so a second create is refused with nothing written.
  // The conditional put still decides between concurrent creates; only the loser of that race wastes its id.
  if (await findMerchant(deps, owner.sub)) throw merchantError('merchant.exists', 'this account already has a merchant');
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
        Item: {
          ...merchantKey(owner.sub),
          gsi1pk: merchantIdPartition(id),
          gsi1sk: 'MERCHANT',
          ...merchantsOfStatusKeys(merchant.status, merchant),
          type: 'merchant',
          ...merchant,
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
  } catch (error) {
    if (isConditionalFailure(error)) throw merchantError('merchant.exists', 'this account already has a merchant');
    throw error;
  }
  return merchant;
}

export async function findMerchant(deps: PlatformDeps, accountId: string): Promise<Merchant | undefined> {
  const out = await deps.db.send(new GetCommand({ TableName: deps.table, Key: merchantKey(accountId), ConsistentRead: true }));
  return out.Item ? toMerchant(out.Item) : undefined;
}

export async function requireMerchant(deps: PlatformDeps, accountId: string): Promise<Merchant> {
  return merchantOrNotFound(await findMerchant(deps, accountId));
}

/** requireMerchant's answer for a merchant read with other items (one BatchGetItem): 404 when there is none. */
export function merchantOrNotFound(merchant: Merchant | Record<string, unknown> | undefined): Merchant {
  if (!merchant) throw merchantError('merchant.none', 'this account has no merchant yet: create one with POST /merchant/create');
  return toMerchant(merchant);
}

/** The merchant item of an integer id, as stored, if there is one. */
async function merchantItemById(deps: PlatformDeps, merchantId: number): Promise<Record<string, unknown> | undefined> {
  const out = await deps.db.send(
    new QueryCommand({
      TableName: deps.table,
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk = :sk',
      ExpressionAttributeValues: { ':pk': merchantIdPartition(merchantId), ':sk': 'MERCHANT' },
    }),
  );
  return out.Items?.[0];
}

export async function findMerchantById(deps: PlatformDeps, merchantId: number): Promise<Merchant | undefined> {
  const item = await merchantItemById(deps, merchantId);
  return item ? toMerchant(item) : undefined;
}

/** merchantStatus: the caller's merchant, or for an admin any merchant by id; with its last change's reason when it gave one. */
export async function merchantStatusOf(deps: PlatformDeps, caller: TokenClaims, merchantId?: number): Promise<MerchantStatusView> {
  const admin = caller.role === 'admin';
  if (merchantId !== undefined) {
    const item = await merchantItemById(deps, merchantId);
    const merchant = item ? toMerchant(item) : undefined;
    if (merchant && merchant.account_id !== caller.sub && !admin) {
      throw merchantError('merchant.other_merchant', 'merchant_id: only admins may read another merchant');
    }
    if (!item || !merchant) throw merchantError('merchant.not_found', `merchant_id: no merchant ${merchantId}`);
    return { merchant_id: merchant.id, status: merchant.status, ...shownChange(item, admin) };
  }
  const out = await deps.db.send(new GetCommand({ TableName: deps.table, Key: merchantKey(caller.sub), ConsistentRead: true }));
  const merchant = merchantOrNotFound(out.Item);
  return { merchant_id: merchant.id, status: merchant.status, ...shownChange(out.Item!, admin) };
}

/** Games a status-change transaction moves beside its merchant item (TransactWriteItems holds 100 items). */
export const STATUS_CHUNK = 99;
/**
 * The most games one status change moves: every game is written within the one request, which must end within
 * the function's timeout (about 100 transactions of 100 items); a merchant with more is refused, writing nothing.
 */
export const MAX_STATUS_GAMES = 10_000;
/** Fresh reads a status change tries when a game was created or the status changed between its read and its write. */
const STATUS_ATTEMPTS = 5;

/**
 * Sets a merchant's status (admins). A game is public ("live", in the sparse LIVE_GAME index) exactly while its
 * merchant is active. Every write of a game's liveness is in a transaction that holds the merchant's status to the
 * one that liveness follows (createGame: the status it read; here: the new status), so whatever the order of
 * concurrent changes and creates, the last write to each game follows the status at that moment.
 * 1. The merchant's games are read (games index), then one transaction sets the status on condition that the
 *    status and the game count are still those read (so no game was missed), and moves the first 99 games.
 *    A merchant with at most 99 games changes with its games at once; a refused transaction wrote nothing and is
 *    tried again on fresh reads.
 * 2. The other games move 99 per transaction, each with a ConditionCheck that the merchant still has the new
 *    status. When it has not, a later change has taken over the games and this one stops (its answer stands: it
 *    was applied, then overtaken). Until the last transaction, those games still show the previous visibility.
 * The writes are idempotent: repeating the request with the same status completes a change interrupted after its
 * first transaction (a timeout, or a 409 from writes that kept colliding).
 */
export async function setMerchantStatus(
  deps: PlatformDeps,
  merchantId: number,
  status: number,
  change: { reason?: string; by?: string } = {},
): Promise<MerchantStatusView> {
  return retrying(
    async () => {
      // The merchant and its games come from indexes, which lag writes slightly: a transaction refused because
      // of that (or of a concurrent create or change) is tried again on fresh reads before giving up.
      const merchant = await findMerchantById(deps, merchantId);
      if (!merchant) throw merchantError('merchant.not_found', `merchant_id: no merchant ${merchantId}`);
      const games = await merchantGameKeys(deps, merchant.account_id);
      if (games.length > MAX_STATUS_GAMES) {
        throw merchantError(
          'merchant.too_many_games',
          `merchant has ${games.length} games, more than one status change moves (${MAX_STATUS_GAMES}); contact support`,
        );
      }
      const [first = [], ...rest] = chunks(games, STATUS_CHUNK);
      const now = deps.now().toISOString();
      // The change is recorded on the merchant (its reason, when, by whom: a change without them removes the last
      // one's), and the merchant moves to its new status's review list, in the same write as the status.
      const recorded = {
        ...(change.reason === undefined ? {} : { status_reason: change.reason }),
        ...(change.by === undefined ? {} : { status_changed_by: change.by }),
      };
      const removed = ['status_reason', 'status_changed_by'].filter((name) => !(name in recorded));
      const flip: TransactItem = {
        Update: {
          TableName: deps.table,
          Key: merchantKey(merchant.account_id),
          UpdateExpression:
            `SET #status = :status, update_time = :now, gameCount = :count, status_changed_at = :now, gsi2pk = :listed, gsi2sk = :place` +
            Object.keys(recorded)
              .map((name) => `, ${name} = :${name}`)
              .join('') +
            (removed.length > 0 ? ` REMOVE ${removed.join(', ')}` : ''),
          ConditionExpression: '#status = :seen AND (attribute_not_exists(gameCount) OR gameCount = :count)',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: {
            ':status': status,
            ':now': now,
            ':seen': merchant.status,
            ':count': games.length,
            ':listed': merchantsOfStatusKeys(status, merchant).gsi2pk,
            ':place': merchantsOfStatusKeys(status, merchant).gsi2sk,
            ...Object.fromEntries(Object.entries(recorded).map(([name, value]) => [`:${name}`, value])),
          },
        },
      };
      const failed = await transactOrFailures(
        deps,
        [flip, ...first.map((game) => moveGame(deps, game, status))],
        'merchant or its games changed meanwhile; retry',
      );
      if (failed.length === 0) {
        await moveRemainingGames(deps, merchant.account_id, status, rest);
        // From the answer, no process moves value on a state read before the suspension (docs/security.md).
        if (status === MerchantStatus.suspended) await outlastRememberedStates();
        return { merchant_id: merchant.id, status, ...shownChange({ ...recorded, status_changed_at: now }, true) };
      }
      return AGAIN;
    },
    {
      attempts: STATUS_ATTEMPTS,
      giveUp: () => {
        throw platformError('data.changed_concurrently', 'merchant or its games changed meanwhile; retry');
      },
    },
  );
}

/** A merchant's game in the games index (gsi1 `MERCHANT_GAMES#<accountId>`), projected to its keys and id. */
const GameKey = z.object({ pk: z.string(), sk: z.string(), id: z.int() });
type GameKey = z.infer<typeof GameKey>;

/** Every game of a merchant (games index, all pages), keys only. */
async function merchantGameKeys(deps: PlatformDeps, accountId: string): Promise<GameKey[]> {
  const items = await queryItems(deps, {
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :pk',
    ExpressionAttributeValues: { ':pk': merchantGamesPartition(accountId) },
    ProjectionExpression: 'pk, sk, id',
  });
  return items.map((item) => GameKey.parse(item));
}

function chunks<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** A game's liveness for a merchant status: `live`, and the sparse LIVE_GAME keys set or removed (idempotent). */
function moveGame(deps: PlatformDeps, { pk, sk, id }: GameKey, status: number): TransactItem {
  const live = status === MerchantStatus.active;
  return {
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
  };
}

/**
 * Step 2 of setMerchantStatus: the games beyond the first transaction, 99 per transaction, each while the
 * merchant still has `status`. Stops, leaving the rest to the later change, once it has not.
 */
async function moveRemainingGames(deps: PlatformDeps, accountId: string, status: number, rest: GameKey[][]) {
  for (const chunk of rest) {
    const held: TransactItem = {
      ConditionCheck: {
        TableName: deps.table,
        Key: merchantKey(accountId),
        ConditionExpression: '#status = :status',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':status': status },
      },
    };
    const failed = await transactOrFailures(
      deps,
      [held, ...chunk.map((game) => moveGame(deps, game, status))],
      'the status is set but some games have not moved yet (concurrent writes): repeat the request to finish',
    );
    // Only the merchant's condition can fail (games are never deleted, and their moves have no condition).
    if (failed.length > 0) return;
  }
}
