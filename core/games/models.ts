import * as z from 'zod/mini';
import { EXAMPLE, example } from '../shared/examples.js';
import { answered, gameCode, httpUrl, paging, relativePath, requiredText, text } from '../shared/fields.js';
import { suiAddress } from '../shared/sui-address.js';
import { clientMap } from '../shared/maps.js';

/** A Sui object or package id: 0x and 64 hex digits, stored in lower case. */
const objectId = suiAddress;

const labels = z.array(requiredText(50)).check(z.maxLength(20));
/**
 * `link`: platform name -> URL, e.g. `{web}` or `{apple, android}`: at most 20, so a game item stays far below
 * DynamoDB's 400 KB (20 × (30 + 2,048) bytes of links, 20 images and 2 × 20 labels, 5,000 of description).
 */
const links = clientMap({
  key: { pattern: /^[A-Za-z0-9_-]{1,30}$/, message: 'expected a platform name of 1-30 letters, digits, _ or -' },
  value: httpUrl,
  maxEntries: 20,
});

/** The contract's Game update payload: `code` names the game; every other field present is changed. */
export const GameUpdate = z.lazy(() =>
  z.object({
    code: gameCode,
    describe: z.optional(text(5000)),
    logo: z.optional(relativePath),
    coverImg: z.optional(relativePath),
    game_name: z.optional(requiredText(100).check(example(EXAMPLE.gameName))),
    dev: z.optional(text(100)),
    genre: z.optional(text(50)),
    platform: z.optional(labels),
    tags: z.optional(labels),
    images: z.optional(z.array(relativePath).check(z.maxLength(20))),
    link: z.optional(links),
    game_url: z.optional(z.union([httpUrl, z.literal('')])),
    releaseDate: z.optional(text(40)),
    dcNum: z.optional(text(40)),
    dclink: z.optional(z.union([httpUrl, z.literal('')])),
    /** On-chain ids of the game (gameCode); '' clears one. */
    package_id: z.optional(z.union([objectId, z.literal('')])),
    object_id: z.optional(z.union([objectId, z.literal('')])),
  }),
);
export type GameUpdate = z.infer<typeof GameUpdate>;

/** savemerchantgame: the Game payload plus `game_url` and `releaseDate`; code and name are required. */
export const GameCreate = z.lazy(() =>
  z.object({
    code: gameCode,
    game_name: requiredText(100).check(example(EXAMPLE.gameName)),
    describe: z._default(text(5000), ''),
    logo: z._default(z.union([relativePath, z.literal('')]), ''),
    coverImg: z._default(z.union([relativePath, z.literal('')]), ''),
    dev: z._default(text(100), ''),
    genre: z._default(text(50), ''),
    platform: z._default(labels, []),
    tags: z._default(labels, []),
    images: z._default(z.array(relativePath).check(z.maxLength(20)), []),
    link: z._default(links, {}),
    game_url: z._default(z.union([httpUrl, z.literal('')]), ''),
    releaseDate: z._default(text(40), ''),
    dcNum: z.optional(text(40)),
    dclink: z.optional(z.union([httpUrl, z.literal('')])),
    /** The game's Move package and shared object on chain (gameCode lists them). */
    package_id: z.optional(objectId),
    object_id: z.optional(objectId),
  }),
);
export type GameCreate = z.infer<typeof GameCreate>;

/** The fields both game record shapes of the contract share (docs/api.md, "The compatibility contract"). */
const GameCommon = z.object({
  id: z.int(),
  game_url: answered.url,
  describe: z.string(),
  logo: answered.filePath,
  merchant_id: z.int(),
  code: answered.gameCode,
});

/** Game record, new-merchant page shape (query_new_merchant, game_detail, the merchant's own games). */
export const GameRecord = z.lazy(() =>
  z.extend(GameCommon, {
    head_image: answered.filePath,
    gameName: answered.gameName,
    dev: z.string(),
    genre: z.string(),
    platform: z.array(z.string()),
    tags: z.array(z.string()),
    create_time: answered.time,
    images: z.array(answered.filePath),
    link: z.record(z.string(), answered.url),
    releaseDate: z.string(),
    dcNum: z.optional(z.string()),
    dclink: z.optional(answered.url),
    package_id: z.optional(answered.objectId),
    object_id: z.optional(answered.objectId),
  }),
);
export type GameRecord = z.infer<typeof GameRecord>;

/** Game record, games list shape (gamelist): the game with its merchant's fields. */
export const GameListRecord = z.lazy(() =>
  z.extend(GameCommon, {
    back_ground_image: z.nullable(z.array(answered.imageUrl)),
    social_links: z.nullable(z.array(z.object({ name: z.string(), url: answered.url }))),
    merchant_email: answered.email,
    account_id: answered.accountId,
    merchant_name: z.string().check(example(EXAMPLE.studioName)),
  }),
);
export type GameListRecord = z.infer<typeof GameListRecord>;

export const GamePage = z.lazy(() => z.object({ total: z.string(), games: z.array(GameListRecord) }));
export const MerchantGamePage = z.lazy(() => z.object({ total: z.string(), games: z.array(GameRecord) }));
export const NewMerchantPage = z.lazy(() => z.record(z.string(), GameRecord));

export const PageQuery = z.lazy(() => z.object(paging));
export const CodeQuery = z.lazy(() => z.object({ code: gameCode }));

/** update_single_game's 201 body (the contract's). */
export const GameUpdated = z.lazy(() => z.object({ response: z.string(), status: z.int(), message: z.string(), name: z.string() }));
