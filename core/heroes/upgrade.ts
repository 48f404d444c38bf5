import { randomUUID } from 'node:crypto';
import type * as z from 'zod/mini';
import { readItems } from '../platform/batch.js';
import type { HeroesDeps } from './deps.js';
import { platformError, type DomainError } from '../platform/errors.js';
import { ticketError } from '../tickets/errors.js';
import { heroError } from './errors.js';
import { callerOf, answerOf, keyedRequest, transactKeyed, transactWithRecordIn } from '../platform/idempotency.js';
import { keptAnswer } from '../platform/kept-answers.js';
import type { TokenClaims } from '../platform/tokens.js';
import type { TransactItem } from '../platform/transactions.js';
import { debitItems, ledgerKey } from '../tickets/balances.js';
import { costOf } from './config.js';
import { requireConfig, toHero } from './heroes.js';
import { heroConfigKey, heroKey } from './keys.js';
import type { Hero, UpgradeBody } from './models.js';

/**
 * upgrade (the contract's POST /heroes/upgrade-level): every listed hero of the user gains one level and the user
 * pays each level's cost, in one TransactWriteItems: all or nothing.
 *
 * Requests: one BatchGet (the configuration, the heroes and, with an Idempotency-Key, its record), then the
 * transaction. Its actions: one Update per
 * hero (its level, on condition it is still the level read: two upgrades racing on a stale level cannot both
 * succeed), and per ticket level the costs are paid in, the balance (on condition it covers the sum) and one
 * ledger entry; with an Idempotency-Key, the key's record. A hero needs at most 3 actions (its update, and a
 * balance and a ledger entry when its cost is in a ticket level no other hero's is), so MAX_UPGRADE_HEROES (models.ts) = 33
 * heroes (99 actions, plus the key's record: DynamoDB's 100) fit in any configuration.
 *
 * A retry with the first request's Idempotency-Key answers the first answer before any of the checks below.
 * Refusals, each before anything is written: duplicated ids (400), ids that are not the user's heroes (404: a
 * hero of another player reads as none), a hero at the maximum level (409), a balance short of the total
 * (409), a hero changed since it was read (409). No balance is read: the transaction's conditions decide.
 */

type Body = z.infer<typeof UpgradeBody>;

/** What an upgrade answers: the heroes at their new levels and what each ticket level paid. */
interface UpgradeAnswer {
  userId: string;
  heroes: Hero[];
  ticketsSpent: Spend[];
}

interface Spend {
  projectName: string;
  level: number;
  amount: number;
}

/**
 * What upgrade reads first (its first reads, core/http/operation.ts FirstReads: the authorization layer's fresh read of the caller's deletion mark
 * brings them in the same request): the configuration, each hero, the Idempotency-Key's record when one is sent.
 */
export function upgradeReads(caller: TokenClaims, body: Pick<Body, 'userId' | 'itemIds'>, key?: string) {
  const ids = body.itemIds.map((id) => id.toLowerCase());
  const record = key === undefined ? [] : [ledgerKey(body.userId, keyedReference(callerOf(caller), key))];
  return [heroConfigKey, ...ids.map((id) => heroKey(body.userId, id)), ...record];
}

/**
 * The reference of a keyed upgrade's first ledger entry, which is the key's record (its fingerprint and answer):
 * `hero-upgrade#<caller>#<key>`; the entries of its other price levels add `#<level>`.
 */
const keyedReference = (caller: string, key: string) => `hero-upgrade#${caller}#${key}`;

export async function upgradeHeroes(deps: HeroesDeps, caller: TokenClaims, body: Body, idempotencyHeader?: string): Promise<UpgradeAnswer> {
  const keyed = keyedRequest(caller, 'upgrade', idempotencyHeader, body);
  const ids = body.itemIds.map((id) => id.toLowerCase());
  ids.forEach((id, index) => {
    const first = ids.indexOf(id);
    if (first !== index) throw heroError('hero.item_repeated', `body.itemIds.${index}: duplicates itemIds.${first}; each hero gains one level per upgrade`);
  });

  // With a key, its record is read with the heroes: a retry answers the first answer before any check that
  // what changed since (a level reached, a balance spent) would fail.
  const [configItem, ...read] = await readItems(deps, upgradeReads(caller, body, keyed?.key));
  const items = read.slice(0, ids.length);
  const record = read[ids.length];
  if (record && keyed) return answerOf<UpgradeAnswer>(record, keyed);
  const config = requireConfig(configItem);
  const heroes = items.map((item, index) => {
    if (!item) throw heroError('hero.not_found', `body.itemIds.${index}: no hero ${ids[index]} of user ${body.userId}`);
    const hero = toHero(item);
    if (hero.level >= config.maxLevel) throw heroError('hero.max_level', `body.itemIds.${index}: hero ${hero.id} is at the maximum level ${config.maxLevel}`);
    return hero;
  });

  // What each ticket level pays, in the order first met.
  const spends = new Map<number, Spend>();
  for (const hero of heroes) {
    const cost = costOf(config, hero.level + 1);
    const spend = spends.get(cost.ticketLevel) ?? { projectName: config.projectName, level: cost.ticketLevel, amount: 0 };
    spend.amount += cost.amount;
    spends.set(cost.ticketLevel, spend);
  }
  const now = deps.now().toISOString();
  const upgraded: Hero[] = heroes.map((hero) => ({ ...hero, level: hero.level + 1, updated_at: now }));
  const answer: UpgradeAnswer = { userId: body.userId, heroes: upgraded, ticketsSpent: [...spends.values()] };

  const reference = keyed ? keyedReference(keyed.caller, keyed.key) : `hero-upgrade#${randomUUID()}`;
  // With a key, the first spend's ledger entry is the key's record: it carries the request's fingerprint and answer.
  const entryRecord = keyed && { caller: keyed.caller, key: keyed.key, fingerprint: keyed.fingerprint, ...keptAnswer(answer) };
  const work: TransactItem[] = [
    ...heroes.map(
      (hero): TransactItem => ({
        Update: {
          TableName: deps.table,
          Key: heroKey(body.userId, hero.id),
          UpdateExpression: 'SET #level = :next, updated_at = :now',
          ConditionExpression: '#level = :level',
          ExpressionAttributeNames: { '#level': 'level' },
          ExpressionAttributeValues: { ':level': hero.level, ':next': hero.level + 1, ':now': now },
        },
      }),
    ),
    ...[...spends.values()].flatMap((spend, index) => {
      const target = { uid: body.userId, projectName: spend.projectName, level: spend.level };
      const isRecord = entryRecord && index === 0;
      return debitItems(deps, target, spend.amount, isRecord ? reference : `${reference}#${spend.level}`, isRecord ? entryRecord : {});
    }),
  ];

  const outcome = keyed
    ? await transactWithRecordIn(deps, keyed, answer, work, heroes.length + 1, ledgerKey(body.userId, reference))
    : await transactKeyed(deps, undefined, answer, work, 'the heroes or the balance changed concurrently; retry');
  if ('answer' in outcome) return outcome.answer;
  throw refusal(outcome.refused[0]!.index, heroes, [...spends.values()]);
}

/** Why the transaction was refused, from its first failed action (work items: the heroes, then two per spend). */
function refusal(index: number, heroes: Hero[], spends: Spend[]): DomainError {
  if (index < heroes.length) {
    const hero = heroes[index]!;
    return platformError(
      'data.changed_concurrently',
      `body.itemIds.${index}: hero ${hero.id} is no longer at level ${hero.level} (upgraded or released meanwhile); nothing was upgraded`,
    );
  }
  const spend = spends[Math.floor((index - heroes.length) / 2)]!;
  return ticketError(
    'tickets.balance_short',
    `body.itemIds: the balance of ${spend.projectName} level ${spend.level} is less than the ${spend.amount} tickets these levels cost; nothing was upgraded`,
  );
}
