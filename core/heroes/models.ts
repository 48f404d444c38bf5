import * as z from 'zod/mini';
import { EXAMPLE, example } from '../shared/examples.js';
import { userId } from '../identity/models.js';
import { projectName } from '../payments/models.js';
import { answered, paging } from '../shared/fields.js';

/** The hero game's bodies and records (docs/api.md "Hero game"). */

/** The most heroes one upgrade takes: each needs up to 3 of a transaction's 100 actions (core/heroes/upgrade.ts). */
export const MAX_UPGRADE_HEROES = 33;
/** The highest maximum level a configuration may set (its level costs are one item, well under 400 KB). */
export const HIGHEST_MAX_LEVEL = 1000;

const MOVE_STRUCT_TYPE = /^0x[0-9a-fA-F]{1,64}::\w+::\w+$/;
const ticketLevel = z.int().check(z.minimum(0), z.maximum(1_000_000));
const ticketAmount = z.int().check(z.positive(), z.maximum(1_000_000_000));
const heroLevel = z.int().check(z.minimum(2), z.maximum(HIGHEST_MAX_LEVEL));

/** A Sui object id: 0x and 64 hex digits (lower case), as a path parameter or a body field. */
export const objectId = z
  .string()
  .check(z.trim(), z.toLowerCase(), z.regex(/^0x[0-9a-f]{64}$/, 'expected a Sui object id: 0x followed by 64 hex digits'), example(EXAMPLE.objectId));
/** The hero NFT's Move type, for the reference. */
const HERO_TYPE = `${EXAMPLE.objectId}::hero::Hero`;

/** What reaching a level costs: `amount` tickets of the configured project's price level `ticketLevel`. */
const LevelCost = z.object({ level: heroLevel, ticketLevel, amount: ticketAmount });

/**
 * The stage's hero configuration, as an admin sets it: the NFT's Move type, the maximum level, and the cost of
 * each level from 2 to `maxLevel` (each exactly once) in tickets of one project; how long nft_detail keeps an
 * NFT's on-chain fields.
 */
export const HeroConfigBody = z.lazy(() =>
  z
    .object({
      heroType: z.string().check(z.maxLength(600), z.regex(MOVE_STRUCT_TYPE, 'expected a Move struct type such as 0xabc::hero::Hero'), example(HERO_TYPE)),
      maxLevel: heroLevel,
      projectName,
      levelCosts: z
        .array(LevelCost)
        .check(
          z.minLength(1),
          z.maxLength(HIGHEST_MAX_LEVEL),
          z.describe('One cost for every level from 2 to maxLevel: each level exactly once, none above maxLevel.'),
        ),
      nftCacheSeconds: z._default(z.int().check(z.minimum(1), z.maximum(86_400)), 60),
    })
    .check(
      z.superRefine((body, ctx) => {
        const seen = new Map<number, number>();
        body.levelCosts.forEach((cost, index) => {
          const first = seen.get(cost.level);
          if (first !== undefined)
            ctx.issues.push({
              code: 'custom',
              input: cost.level,
              path: ['levelCosts', index, 'level'],
              message: `level ${cost.level} is priced twice (first at levelCosts.${first})`,
            });
          else if (cost.level > body.maxLevel)
            ctx.issues.push({
              code: 'custom',
              input: cost.level,
              path: ['levelCosts', index, 'level'],
              message: `level ${cost.level} is above maxLevel ${body.maxLevel}`,
            });
          seen.set(cost.level, index);
        });
        for (let level = 2; level <= body.maxLevel; level++) {
          if (!seen.has(level)) {
            ctx.issues.push({
              code: 'custom',
              input: body.levelCosts,
              path: ['levelCosts'],
              message: `every level from 2 to maxLevel needs a cost; level ${level} has none`,
            });
            return;
          }
        }
      }),
    ),
);

/** One level's price as stored and answered: `amount` tickets of the project's price level `ticketLevel`. */
export const StoredLevelCost = z.lazy(() => z.object({ level: z.int(), ticketLevel: z.int(), amount: z.int() }));

export const HeroConfig = z.lazy(() =>
  z.object({
    heroType: z.string().check(example(HERO_TYPE)),
    maxLevel: z.int(),
    projectName: answered.projectName,
    levelCosts: z.array(StoredLevelCost),
    nftCacheSeconds: z.int(),
    updated_at: answered.time,
  }),
);
export type HeroConfig = z.infer<typeof HeroConfig>;

/** A hero of a player: bound from an on-chain NFT (`nftObjectId`), or granted by the game's server. */
export const Hero = z.lazy(() =>
  z.object({
    id: answered.uuid,
    userId: answered.userId,
    level: z.int(),
    experience: z.int(),
    source: z.enum(['nft', 'granted']),
    nftObjectId: z.nullable(answered.objectId),
    created_at: answered.time,
    updated_at: answered.time,
  }),
);
export type Hero = z.infer<typeof Hero>;

export const HeroAuthResult = z.lazy(() => z.object({ accessToken: answered.accessToken, expiresAt: answered.time, userId: answered.userId }));

export const HeroListQuery = z.lazy(() => z.object(paging));
export const HeroList = z.lazy(() => z.object({ heroes: z.array(Hero), page: z.int(), pageSize: z.int(), total: z.int(), totalPage: z.int() }));

/** The contract's upgrade body: the user (the token's subject) and the ids of that user's heroes, each once. */
export const UpgradeBody = z.lazy(() =>
  z.object({ userId, itemIds: z.array(z.uuid().check(example(EXAMPLE.uuid))).check(z.minLength(1), z.maxLength(MAX_UPGRADE_HEROES)) }),
);

export const UpgradeResult = z.lazy(() =>
  z.object({
    userId: answered.userId,
    heroes: z.array(Hero),
    ticketsSpent: z.array(z.object({ projectName: answered.projectName, level: z.int(), amount: z.int() })),
  }),
);

export const BindBody = z.lazy(() => z.object({ objectId }));
export const Binding = z.lazy(() => z.object({ hero: Hero, bound_at: answered.time }));
export const UnbindResult = z.lazy(() =>
  z.object({ objectId: answered.objectId, heroId: answered.uuid, level: z.int(), experience: z.int(), released_at: answered.time }),
);

export const NftParams = z.lazy(() => z.object({ objectId }));
export const NftDetail = z.lazy(() =>
  z.object({
    objectId: answered.objectId,
    type: z.string().check(example(HERO_TYPE)),
    version: z.string(),
    owner: z.object({
      kind: z.enum(['address', 'object', 'shared', 'immutable']),
      address: z.optional(answered.address),
      objectId: z.optional(answered.objectId),
    }),
    fields: z.record(z.string(), z.unknown()),
    fetched_at: answered.time,
    age_seconds: z.int(),
    cached: z.boolean(),
    heroId: answered.uuid,
  }),
);

/** A game server grants a hero to a player (a starter hero): once per reference. */
export const GrantBody = z.lazy(() =>
  z.object({
    userId,
    projectName,
    reference: z.string().check(z.regex(/^[\w.:-]{1,128}$/, 'expected 1-128 letters, digits, _ . : or -'), example('starter-hero-d64a1c3a')),
  }),
);
