import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { readItems } from '../platform/batch.js';
import { conditionalFailure } from '../platform/conditional-failure.js';
import { queryItems } from '../platform/query.js';
import { counterKey, nextId } from '../platform/counters.js';
import type { PlatformDeps } from '../platform/deps.js';
import { platformError } from '../platform/errors.js';
import { merchantError } from '../merchants/errors.js';
import { gameError } from './errors.js';
import { sortableInt } from '../platform/table.js';
import { retrying } from '../platform/retry.js';
import { isWriteConflict, transactOrFailedConditions } from '../platform/transactions.js';
import type { TokenClaims } from '../platform/tokens.js';
import { merchantOrNotFound } from '../merchants/merchants.js';
import { merchantKey } from '../merchants/keys.js';
import { MerchantStatus, type Merchant } from '../merchants/models.js';
import * as z from 'zod/mini';
import { objectOf } from '../shared/records.js';
import { GameRecord, type GameCreate, type GameListRecord, type GameUpdate } from './models.js';
import { merchantGamesPartition } from '../merchants/keys.js';
import { forgetGameChainIds } from './chain-ids.js';
import { gameKey } from './keys.js';

/**
 * The game catalogue. Access patterns (docs/data-model.md):
 * - "game by code" (unique platform-wide): pk `GAME#<code>`, sk `GAME`;
 * - "games of a merchant, newest first": gsi1pk `MERCHANT_GAMES#<accountId>`, gsi1sk zero-padded id;
 * - "all games, newest first" (gamelist): gsi2pk `GAME`, gsi2sk zero-padded id; the total is kept on the
 *   game counter item (`COUNTER#game`, attribute `total`), incremented in the creating transaction;
 * - "live games, newest first" (games of active merchants): sparse gsi3pk `LIVE_GAME`, gsi3sk zero-padded id.
 */
/** "game by code" (gameKey) and its index entries: the game record's fields under their stored names, its owner and whether it is live. */
export const StoredGame = z.lazy(() =>
  z.extend(z.omit(objectOf(GameRecord), { merchant_id: true, head_image: true, gameName: true, create_time: true }), {
    merchantId: z.int(),
    accountId: z.string(),
    coverImg: z.string(),
    game_name: z.string(),
    live: z.boolean(),
    createdAt: z.string(),
    updatedAt: z.string(),
  }),
);
type GameItem = z.infer<typeof StoredGame>;
const gameOf = (item: Record<string, unknown>): GameItem => StoredGame.parse(item);

const gameCounterKey = counterKey('game');
/** The most games a single catalogue read returns (query_new_merchant, a merchant's own list). */
export const CATALOGUE_LIMIT = 1000;

/** The fields both game record shapes of the contract share. */
const commonFields = (item: GameItem) => ({
  id: item.id,
  game_url: item.game_url,
  describe: item.describe,
  logo: item.logo,
  merchant_id: item.merchantId,
  code: item.code,
});

export function toGameRecord(item: GameItem): GameRecord {
  return {
    ...commonFields(item),
    head_image: item.coverImg,
    gameName: item.game_name,
    dev: item.dev,
    genre: item.genre,
    platform: item.platform,
    tags: item.tags,
    create_time: item.createdAt,
    images: item.images,
    link: item.link,
    releaseDate: item.releaseDate,
    ...(item.dcNum !== undefined ? { dcNum: item.dcNum } : {}),
    ...(item.dclink !== undefined ? { dclink: item.dclink } : {}),
    ...(item.package_id ? { package_id: item.package_id } : {}),
    ...(item.object_id ? { object_id: item.object_id } : {}),
  };
}

function toGameListRecord(item: GameItem, merchant: Merchant | undefined): GameListRecord {
  return {
    ...commonFields(item),
    back_ground_image: merchant?.back_ground_image ?? null,
    social_links: merchant?.social_links ?? null,
    merchant_email: merchant?.merchant_email ?? '',
    account_id: item.accountId,
    merchant_name: merchant?.merchant_name ?? '',
  };
}

/** savemerchantgame. The game is live at once if its merchant is active (see setMerchantStatus). */
export async function createGame(deps: PlatformDeps, caller: TokenClaims, input: GameCreate): Promise<GameRecord> {
  // The merchant and the code's game in one request: a taken code is refused before an id is taken, so a
  // refused create writes nothing (a concurrent create of the same code, refused by the put below, wastes one).
  const [merchantItem, taken] = await readItems(deps, [merchantKey(caller.sub), gameKey(input.code)]);
  const merchant = merchantOrNotFound(merchantItem);
  if (merchant.status === MerchantStatus.suspended) throw merchantError('merchant.suspended', 'merchant is suspended');
  if (taken) throw gameError('game.code_taken', `code: game ${input.code} exists already`);
  const id = await nextGameId(deps);
  const now = deps.now().toISOString();
  const live = merchant.status === MerchantStatus.active;
  const item: GameItem = { ...input, id, accountId: caller.sub, merchantId: merchant.id, live, createdAt: now, updatedAt: now };
  // A concurrent transaction on the merchant item (another create of this merchant, a status change) cancels
  // this one with nothing written; transactOrFailures runs it again, then answers 409 if collisions persist.
  const failed = await transactOrFailedConditions(
    deps,
    [
      {
        Put: {
          TableName: deps.table,
          Item: {
            ...gameKey(input.code),
            type: 'game',
            ...item,
            gsi1pk: merchantGamesPartition(caller.sub),
            gsi1sk: sortableInt(id),
            gsi2pk: 'GAME',
            gsi2sk: sortableInt(id),
            ...(live ? { gsi3pk: 'LIVE_GAME', gsi3sk: sortableInt(id) } : {}),
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      {
        // Guards the liveness chosen above against a concurrent status change, and counts the game so
        // a status change sees every game it has to move.
        Update: {
          TableName: deps.table,
          Key: merchantKey(caller.sub),
          UpdateExpression: 'ADD gameCount :one',
          ConditionExpression: '#status = :seen',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':one': 1, ':seen': merchant.status },
        },
      },
      {
        Update: {
          TableName: deps.table,
          Key: gameCounterKey,
          UpdateExpression: 'ADD #total :one',
          ExpressionAttributeNames: { '#total': 'total' },
          ExpressionAttributeValues: { ':one': 1 },
        },
      },
    ],
    'the merchant changed concurrently; retry',
  );
  if (failed.includes(0)) throw gameError('game.code_taken', `code: game ${input.code} exists already`);
  if (failed.includes(1)) throw platformError('data.changed_concurrently', 'merchant status changed meanwhile; retry');
  forgetGameChainIds(deps);
  return toGameRecord(item);
}

/**
 * The next game id. The id counter's item also holds the games total, which every create transaction adds to:
 * an increment that meets one of those transactions in flight is refused (TransactionConflictException, nothing
 * written) and is tried again, then answered 409 if collisions persist.
 */
async function nextGameId(deps: PlatformDeps): Promise<number> {
  return retrying(() => nextId(deps, 'game'), {
    retryOn: isWriteConflict,
    giveUp: () => {
      throw platformError('data.changed_concurrently', 'games are being created concurrently; retry');
    },
  });
}

/** Reads a whole index partition, newest first, up to `limit` items. */
async function queryNewest(deps: PlatformDeps, index: 'gsi1' | 'gsi2' | 'gsi3', partition: string, limit: number) {
  const items = await queryItems(
    deps,
    { IndexName: index, KeyConditionExpression: `${index}pk = :pk`, ExpressionAttributeValues: { ':pk': partition }, ScanIndexForward: false },
    limit,
  );
  return items.map(gameOf);
}

/**
 * The codes of a merchant's newest `limit` games ("games of a merchant, newest first", keys and codes only): one
 * Query, whatever the games hold (a studio's view of a player reads its games' boards by them).
 */
export async function merchantGameCodes(deps: PlatformDeps, accountId: string, limit: number): Promise<string[]> {
  const items = await queryItems(
    deps,
    {
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': merchantGamesPartition(accountId) },
      ProjectionExpression: 'code',
      ScanIndexForward: false,
    },
    limit,
  );
  return items.map((item) => String(item.code));
}

/** query merchant game: the caller's games, newest first, zero-based pages. */
export async function listMerchantGames(deps: PlatformDeps, accountId: string, page: number, pageSize: number) {
  const items = await queryNewest(deps, 'gsi1', merchantGamesPartition(accountId), CATALOGUE_LIMIT);
  return {
    total: String(items.length),
    games: items.slice(page * pageSize, (page + 1) * pageSize).map(toGameRecord),
  };
}

/**
 * gamelist: every game with its merchant's fields, newest first. Page p costs reading (p + 1) * pageSize
 * index entries (DynamoDB has no offset); the catalogue is small enough for that to stay cheap.
 */
export async function listAllGames(deps: PlatformDeps, page: number, pageSize: number) {
  const [items, counter] = await Promise.all([
    queryNewest(deps, 'gsi2', 'GAME', (page + 1) * pageSize),
    deps.db.send(
      new GetCommand({ TableName: deps.table, Key: gameCounterKey, ProjectionExpression: '#total', ExpressionAttributeNames: { '#total': 'total' } }),
    ),
  ]);
  const pageItems = items.slice(page * pageSize);
  const merchants = await merchantsByAccount(deps, [...new Set(pageItems.map((item) => item.accountId))]);
  return {
    total: String(counter.Item?.total ?? 0),
    games: pageItems.map((item) => toGameListRecord(item, merchants.get(item.accountId))),
  };
}

/** The merchants of a page's games (eventually consistent: a catalogue read), 100 per BatchGetItem. */
async function merchantsByAccount(deps: PlatformDeps, accountIds: string[]): Promise<Map<string, Merchant>> {
  const found = new Map<string, Merchant>();
  for (const item of await readItems(deps, accountIds.map(merchantKey), { consistent: false })) {
    if (!item) continue;
    const merchant = merchantOrNotFound(item);
    found.set(merchant.account_id, merchant);
  }
  return found;
}

/** query_new_merchant: code -> game for the games of active merchants, newest first. */
export async function liveGamesByCode(deps: PlatformDeps): Promise<Record<string, GameRecord>> {
  const items = await queryNewest(deps, 'gsi3', 'LIVE_GAME', CATALOGUE_LIMIT);
  return Object.fromEntries(items.map((item) => [item.code, toGameRecord(item)]));
}

/** That a game of the code exists, published or not; 404 naming `field` when there is none. */
export async function requireGame(deps: PlatformDeps, code: string, field = 'game_code'): Promise<void> {
  const out = await deps.db.send(new GetCommand({ TableName: deps.table, Key: gameKey(code) }));
  if (!out.Item) throw gameError('game.not_found', `${field}: no game ${code}`);
}

/** game_detail: a live game by code; a game of a merchant that is not active is not public. */
export async function liveGame(deps: PlatformDeps, code: string): Promise<GameRecord> {
  const out = await deps.db.send(new GetCommand({ TableName: deps.table, Key: gameKey(code) }));
  const item = out.Item && gameOf(out.Item);
  if (!item?.live) throw gameError('game.not_published', `code: no published game ${code}`);
  return toGameRecord(item);
}

const updatable = [
  'describe',
  'logo',
  'coverImg',
  'game_name',
  'dev',
  'genre',
  'platform',
  'tags',
  'images',
  'link',
  'game_url',
  'releaseDate',
  'dcNum',
  'dclink',
  'package_id',
  'object_id',
] as const;

/** update_single_game: changes the fields present, only on the caller's own game, in one conditional write. */
export async function updateGame(deps: PlatformDeps, caller: TokenClaims, input: GameUpdate) {
  const names: Record<string, string> = { '#updatedAt': 'updatedAt', '#owner': 'accountId' };
  const values: Record<string, unknown> = { ':now': deps.now().toISOString(), ':me': caller.sub };
  const sets = ['#updatedAt = :now'];
  for (const field of updatable) {
    if (input[field] === undefined) continue;
    names[`#${field}`] = field;
    values[`:${field}`] = input[field];
    sets.push(`#${field} = :${field}`);
  }
  try {
    const out = await deps.db.send(
      new UpdateCommand({
        TableName: deps.table,
        Key: gameKey(input.code),
        UpdateExpression: `SET ${sets.join(', ')}`,
        ConditionExpression: 'attribute_exists(pk) AND #owner = :me',
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
        ReturnValues: 'ALL_NEW',
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    if (input.package_id !== undefined || input.object_id !== undefined) forgetGameChainIds(deps);
    const name = String(out.Attributes?.game_name ?? '');
    return { response: 'success', status: 201, message: `game ${input.code} updated`, name };
  } catch (error) {
    const failed = conditionalFailure(error);
    if (!failed) throw error;
    if (failed.item) throw gameError('game.other_merchant', `code: game ${input.code} belongs to another merchant`);
    throw gameError('game.not_found', `code: no game ${input.code}`);
  }
}
