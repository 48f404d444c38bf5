import { heroError } from './errors.js';
import * as z from 'zod/mini';
import { objectOf } from '../shared/records.js';
import { Hero, HeroConfig, StoredLevelCost } from './models.js';

/**
 * "a hero of a player" and "a player's heroes" (heroKey): the API's hero under its stored names (`heroId`, `uid`);
 * an item without `experience` reads 0, one without `nftObjectId` (granted) reads null.
 */
export const StoredHero = z.lazy(() =>
  z.extend(z.omit(objectOf(Hero), { id: true, userId: true }), {
    heroId: z.string(),
    uid: z.string(),
    experience: z._default(z.int(), 0),
    nftObjectId: z._default(z.nullable(z.string()), null),
  }),
);

/** A stored hero item as the API shows it. */
export function toHero(item: Record<string, unknown>): Hero {
  const { heroId, uid, ...hero } = StoredHero.parse(item);
  return { id: heroId, userId: uid, ...hero };
}

/** A hero item (keys not included) for `hero`. */
export const heroAttributes = (hero: Hero) => ({
  type: 'hero',
  heroId: hero.id,
  uid: hero.userId,
  level: hero.level,
  experience: hero.experience,
  source: hero.source,
  ...(hero.nftObjectId ? { nftObjectId: hero.nftObjectId } : {}),
  created_at: hero.created_at,
  updated_at: hero.updated_at,
});

/**
 * "the stage's hero configuration" (heroConfigKey), stored as the API shows it. Its level costs are checked, not
 * rebuilt: the answer shows each as stored (attributes in the table's order), as before.
 */
export const StoredHeroConfig = z.lazy(() =>
  z.extend(objectOf(HeroConfig), { levelCosts: z.array(z.custom<z.infer<typeof StoredLevelCost>>((cost) => StoredLevelCost.safeParse(cost).success)) }),
);

/** The configuration read with an operation's other items; 503 when the stage has none. */
export function requireConfig(item: Record<string, unknown> | undefined): HeroConfig {
  if (!item) throw notConfigured();
  return StoredHeroConfig.parse(item);
}

export const notConfigured = () => heroError('hero.unconfigured', 'the hero game is not configured on this stage (an admin sets it with PUT /heroes/config)');
