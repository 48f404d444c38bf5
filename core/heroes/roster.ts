import { randomUUID } from 'node:crypto';
import * as z from 'zod/mini';
import { userKey, userPartition } from '../identity/keys.js';
import { readItems } from '../platform/batch.js';
import type { HeroesDeps } from './deps.js';
import { answerOf, fingerprintOf, referenceReused } from '../platform/idempotency.js';
import { eitherForm, keptAnswer } from '../platform/kept-answers.js';
import { heroError } from './errors.js';
import { playerItemsKeys } from '../platform/players.js';
import { queryItems } from '../platform/query.js';
import type { TokenClaims } from '../platform/tokens.js';
import { transactOrFailures } from '../platform/transactions.js';
import { heroAttributes, requireConfig, toHero } from './heroes.js';
import { grantKey, HERO_PREFIX, heroConfigKey, heroKey } from './keys.js';
import type { Hero, GrantBody } from './models.js';

/**
 * heroes_list: the caller's heroes with level and experience, oldest first, one page. One Query of the player's
 * partition (`HERO#` items: a few hundred bytes each, so a 1 MB page holds thousands of heroes), as the
 * platform's other player lists: page `page` (zero-based) of `pageSize`, with the total.
 */
export async function listHeroes(deps: HeroesDeps, uid: string, page: number, pageSize: number) {
  const items = await queryItems(deps, {
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :hero)',
    ExpressionAttributeValues: { ':pk': userPartition(uid), ':hero': HERO_PREFIX },
    ConsistentRead: true,
  });
  const heroes = items.map(toHero).sort((a, b) => (a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : a.id < b.id ? -1 : 1));
  return {
    heroes: heroes.slice(page * pageSize, (page + 1) * pageSize),
    page,
    pageSize,
    total: heroes.length,
    totalPage: Math.ceil(heroes.length / pageSize),
  };
}

/**
 * "a server's grant, once per reference" (grantKey), as stored: the request's fingerprint and the hero it answered,
 * kept as JSON text (`answer_json`), or as a map (`answer`) in grants written before (core/platform/kept-answers.ts).
 * Both stay as stored, for answerOf to answer them as it reads them.
 */
export const StoredGrant = z
  .object({ fingerprint: z.string(), answer_json: z.optional(z.string()), answer: z.optional(z.record(z.string(), z.unknown())) })
  .check(eitherForm());

/**
 * hero grant: a game server gives a player a hero (a starter hero), level 1. The server's merchant must own the
 * project (the route's policy); the project must be the hero game's (404 otherwise), the player must exist
 * (404). Once per (merchant, reference): the grant's record is written with the hero in one transaction and
 * kept for good, so the same request again answers the first hero, and the reference reused for another
 * request is 422; nothing is written twice.
 */
/** What the hero grant reads first (its first reads, core/http/operation.ts FirstReads, read with the caller's account state): configuration, player, the reference's grant. */
export const grantReads = (caller: TokenClaims, body: Pick<z.infer<typeof GrantBody>, 'userId' | 'reference'>) => [
  heroConfigKey,
  userKey(body.userId),
  grantKey(caller.sub, body.reference),
];

export async function grantHero(deps: HeroesDeps, caller: TokenClaims, body: z.infer<typeof GrantBody>): Promise<Hero> {
  const request = { key: body.reference, fingerprint: fingerprintOf(body) };
  const [configItem, account, granted] = await readItems(deps, grantReads(caller, body));
  if (granted) return answerOf<Hero>(StoredGrant.parse(granted), request, referenceReused('merchant'));
  const config = requireConfig(configItem);
  if (config.projectName !== body.projectName)
    throw heroError('hero.other_project', `body.projectName: the hero game of this stage is not of project ${body.projectName}`);
  if (!account) throw heroError('hero.player_not_found', `body.userId: no player ${body.userId}`);

  const now = deps.now().toISOString();
  const hero: Hero = { id: randomUUID(), userId: body.userId, level: 1, experience: 0, source: 'granted', nftObjectId: null, created_at: now, updated_at: now };
  const failed = await transactOrFailures(deps, [
    {
      Put: {
        TableName: deps.table,
        Item: {
          ...grantKey(caller.sub, body.reference),
          // Keyed by the server's reference, it holds the hero with its player: among the player's items no key leads to.
          ...playerItemsKeys(body.userId, 'HEROGRANT'),
          type: 'hero_grant',
          reference: body.reference,
          fingerprint: request.fingerprint,
          ...keptAnswer(hero),
          created_at: now,
        },
        ConditionExpression: 'attribute_not_exists(pk)',
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      },
    },
    { Put: { TableName: deps.table, Item: { ...heroKey(body.userId, hero.id), ...heroAttributes(hero) }, ConditionExpression: 'attribute_not_exists(pk)' } },
  ]);
  // The same reference granted concurrently: the first grant answers.
  const first = failed.find((failure) => failure.index === 0)?.item;
  if (first) return answerOf<Hero>(StoredGrant.parse(first), request, referenceReused('merchant'));
  if (failed.length > 0) throw new Error('hero grant: a fresh hero id was taken');
  return hero;
}
