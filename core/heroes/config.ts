import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type * as z from 'zod/mini';
import { canonicalType } from '../chain/names.js';
import { projectKey } from '../access/keys.js';
import { levelKey } from '../payments/projects.js';
import { readItems } from '../platform/batch.js';
import type { HeroesDeps } from './deps.js';
import { paymentError } from '../payments/errors.js';
import { heroError } from './errors.js';
import { requireConfig } from './heroes.js';
import { heroConfigKey } from './keys.js';
import type { HeroConfig, HeroConfigBody } from './models.js';

/** hero config read: what heroes are and what each level costs (a catalogue read, open). */
export async function heroConfig(deps: Pick<HeroesDeps, 'db' | 'table'>): Promise<HeroConfig> {
  const out = await deps.db.send(new GetCommand({ TableName: deps.table, Key: heroConfigKey }));
  return requireConfig(out.Item);
}

/**
 * hero config set (admins): replaces the stage's configuration after checking that the project and every
 * price level the costs name exist (one BatchGet; 404 naming the first missing one). Heroes keep their levels
 * when the maximum or the costs change: the next upgrade pays the cost then configured. NFTs bound under
 * another hero type stay bound; new binds check the new type.
 */
export async function setHeroConfig(deps: HeroesDeps, body: z.infer<typeof HeroConfigBody>): Promise<HeroConfig> {
  const ticketLevels = [...new Set(body.levelCosts.map((cost) => cost.ticketLevel))];
  const [project, ...levels] = await readItems(deps, [projectKey(body.projectName), ...ticketLevels.map((level) => levelKey(body.projectName, level))]);
  if (!project) throw paymentError('project.not_found', `body.projectName: no project ${body.projectName}`);
  const missing = ticketLevels.findIndex((_, index) => !levels[index]);
  if (missing >= 0) {
    const at = body.levelCosts.findIndex((cost) => cost.ticketLevel === ticketLevels[missing]);
    throw heroError('hero.price_level_not_found', `body.levelCosts.${at}.ticketLevel: project ${body.projectName} has no price level ${ticketLevels[missing]}`);
  }
  const config: HeroConfig = {
    heroType: canonicalType(body.heroType),
    maxLevel: body.maxLevel,
    projectName: body.projectName,
    levelCosts: [...body.levelCosts].sort((a, b) => a.level - b.level),
    nftCacheSeconds: body.nftCacheSeconds,
    updated_at: deps.now().toISOString(),
  };
  await deps.db.send(new PutCommand({ TableName: deps.table, Item: { ...heroConfigKey, type: 'hero_config', ...config } }));
  return config;
}

/** The cost of reaching `level` (the configuration covers every level from 2 to maxLevel). */
export function costOf(config: HeroConfig, level: number) {
  const cost = config.levelCosts.find((entry) => entry.level === level);
  if (!cost) throw new Error(`hero config: no cost for level ${level}`);
  return cost;
}
