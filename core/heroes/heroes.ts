import { heroError } from './errors.js';
import type { Hero, HeroConfig } from './models.js';

/** A stored hero item as the API shows it. */
export function toHero(item: Record<string, unknown>): Hero {
  return {
    id: item.heroId as string,
    userId: item.uid as string,
    level: Number(item.level),
    experience: Number(item.experience ?? 0),
    source: item.source as Hero['source'],
    nftObjectId: (item.nftObjectId as string | undefined) ?? null,
    created_at: item.created_at as string,
    updated_at: item.updated_at as string,
  };
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

/** The configuration item as the API shows it. */
export function toHeroConfig(item: Record<string, unknown>): HeroConfig {
  return {
    heroType: item.heroType as string,
    maxLevel: Number(item.maxLevel),
    projectName: item.projectName as string,
    levelCosts: item.levelCosts as HeroConfig['levelCosts'],
    nftCacheSeconds: Number(item.nftCacheSeconds),
    updated_at: item.updated_at as string,
  };
}

/** The configuration read with an operation's other items; 503 when the stage has none. */
export function requireConfig(item: Record<string, unknown> | undefined): HeroConfig {
  if (!item) throw notConfigured();
  return toHeroConfig(item);
}

export const notConfigured = () => heroError('hero.unconfigured', 'the hero game is not configured on this stage (an admin sets it with PUT /heroes/config)');
