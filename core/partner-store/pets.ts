import { randomUUID } from 'node:crypto';
import * as z from 'zod/mini';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { readItems } from '../platform/batch.js';
import { answerOf, keyedRequest, keyRecordOf, transactKeyed } from '../platform/idempotency.js';
import type { PartnerStoreDeps } from './deps.js';
import { platformError } from '../platform/errors.js';
import { storeError } from './errors.js';
import { queryItems } from '../platform/query.js';
import type { TransactItem } from '../platform/transactions.js';
import type { StoreRegion } from './regions.js';
import { Feeding, Pet } from './models.js';
import { changeItems, ITEMS, PREMIUM } from './wallet.js';
import { userGone } from './challenges.js';
import { liveUserCheck } from './sessions.js';
import { FEEDLOG_PREFIX, feedingKey, PET_PREFIX, petBoardPartition, petKey, petsCountKey, storePartition } from './keys.js';

/**
 * The pet mini-game (docs/api.md, "Partner store: currencies, items and pets": adopt_pet, pet_query, feed_pet,
 * feed_log, rank). Access patterns, all but the board in the store user's partition:
 * - "a pet" and "a user's pets": pk `STOREUSER#<uid>`, sk `PET#<petId>` (begins_with `PET#`);
 * - "how many pets a user adopted": pk `STOREUSER#<uid>`, sk `PETS` (`adopted`): the first adoption is free;
 * - "a user's feedings, newest first": pk `STOREUSER#<uid>`, sk `FEEDLOG#<time>#<id>`;
 * - "a region's pets by level then experience": gsi4pk `PETRANK#<region>`, gsi4sk level × 10^9 + experience
 *   (a number; experience stays below 10^9), one Query. Every feeding of the region writes that index
 *   partition: docs/performance.md's write plan covers it.
 * Each transaction also holds the condition that the user is there (liveUserCheck): a write that races the
 * user's deletion is refused with the answer the bearer check gives a deleted user's token. An Idempotency-Key's record names
 * the user (`IDEMPOTENCY#store:<uid>#…`), so it joins the user's items that no key leads to (gsi6).
 */
export const ADOPTION_PRICE = 100;
export const FEED_COOLDOWN_SECONDS = 60;
/** Total experience a level needs: level L from LEVEL_XP[L - 1] on (level 1 from 0). */
export const LEVEL_XP = [0, 100, 250, 450, 700, 1000, 1400, 1900, 2500, 3200, 4000] as const;
const MAX_EXPERIENCE = LEVEL_XP[LEVEL_XP.length - 1]! * 10;

const rankKey = (level: number, experience: number) => level * 1e9 + experience;

/** A stored pet: a pet never fed has no `last_fed_at` (read as null). */
export const StoredPet = z.extend(Pet, { last_fed_at: z._default(z.nullable(z.string()), null) });
/** "how many pets a user adopted" (petsCountKey) as stored. */
export const StoredAdoptions = z.object({ adopted: z.int() });
/** "a region's pets by level then experience": what the board index answers of each pet. */
const RankedPet = z.pick(Pet, { petId: true, name: true, species: true, level: true, experience: true });

function levelOf(experience: number): number {
  let level = 1;
  while (level < LEVEL_XP.length && experience >= LEVEL_XP[level]!) level++;
  return level;
}

/** The Idempotency-Key's record of a store user's keyed pet operation, when a key is sent. */
const recordOf = (uid: string, operation: string, key: string | undefined) =>
  key === undefined ? [] : [keyRecordOf({ kind: 'store', sub: uid }, operation, key)];

/**
 * What adopt_pet reads first (its first reads, core/http/operation.ts FirstReads: the authorization layer's read of the session's user brings them
 * in the same request): the adoption count, and the Idempotency-Key's record when one is sent.
 */
export const adoptReads = (uid: string, key?: string) => [petsCountKey(uid), ...recordOf(uid, 'adopt_pet', key)];

/** What feed_pet reads first (its first reads, core/http/operation.ts FirstReads, as adoptReads): the pet, and the key's record when one is sent. */
export const feedReads = (uid: string, petId: string, key?: string) => [petKey(uid, petId), ...recordOf(uid, 'feed_pet', key)];

/**
 * adopt_pet: the user's first pet is free, every later one costs ADOPTION_PRICE gems. One transaction: the
 * adoption count on condition it is still the count read (so concurrent adoptions are judged one at a time:
 * a count that changed meanwhile is 409, retry), the payment on condition the balance covers it (409 when
 * short), the pet. Paid exactly once per pet; nothing written when refused.
 */
export async function adoptPet(deps: PartnerStoreDeps, region: StoreRegion, uid: string, input: { name: string; species: string }, idempotencyHeader?: string) {
  const keyed = keyedRequest({ kind: 'store', sub: uid }, 'adopt_pet', idempotencyHeader, input);
  const [count, record] = await readItems(deps, adoptReads(uid, keyed?.key));
  if (record && keyed) return answerOf<{ pet: Pet; paid: number }>(record, keyed);
  const adopted = count ? StoredAdoptions.parse(count).adopted : 0;
  const now = deps.now().toISOString();
  const pet: Pet = { petId: randomUUID(), name: input.name, species: input.species, level: 1, experience: 0, last_fed_at: null, adopted_at: now };
  const price = adopted === 0 ? 0 : ADOPTION_PRICE;
  const items: TransactItem[] = [
    {
      Update: {
        TableName: deps.table,
        Key: petsCountKey(uid),
        UpdateExpression: 'SET adopted = :next',
        ConditionExpression: adopted === 0 ? 'attribute_not_exists(adopted)' : 'adopted = :read',
        ExpressionAttributeValues: { ':next': adopted + 1, ...(adopted === 0 ? {} : { ':read': adopted }) },
      },
    },
    {
      Put: {
        TableName: deps.table,
        // Never fed: no last_fed_at attribute (the first feeding's condition is that it does not exist).
        Item: { ...petKey(uid, pet.petId), type: 'store_pet', uid, region, ...withoutFeeding(pet), gsi4pk: petBoardPartition(region), gsi4sk: rankKey(1, 0) },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
    ...(price > 0 ? changeItems(deps, uid, 'currency', PREMIUM, -price, `adopt#${pet.petId}`) : []),
    liveUserCheck(deps, uid),
  ];
  const answer = { pet, paid: price };
  const outcome = await transactKeyed(deps, keyed, answer, items, 'pets: adopted concurrently; retry', uid);
  if ('answer' in outcome) return outcome.answer;
  const failed = outcome.refused;
  if (failed.some((f) => f.index === items.length - 1)) throw userGone();
  if (failed.some((f) => f.index === 0)) throw platformError('data.changed_concurrently', 'pets: another adoption of yours happened meanwhile; retry');
  if (failed.some((f) => f.index === 2))
    throw storeError('pet.gems_short', `gem: the premium balance is less than the ${ADOPTION_PRICE} gems an adoption after the first costs`);
  throw new Error('adopt: a fresh pet id was taken');
}

const withoutFeeding = ({ last_fed_at: _never, ...pet }: Pet) => pet;

/** pet_query: the user's pets, oldest first (one Query). */
export async function userPets(deps: Pick<PartnerStoreDeps, 'db' | 'table'>, uid: string) {
  const items = await queryItems(deps, {
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :pet)',
    ExpressionAttributeValues: { ':pk': storePartition(uid), ':pet': PET_PREFIX },
    ConsistentRead: true,
  });
  return { pets: items.map((item) => StoredPet.parse(item)).sort((a, b) => (a.adopted_at < b.adopted_at ? -1 : a.adopted_at > b.adopted_at ? 1 : 0)) };
}

/**
 * feed_pet: `amount` of a food item is eaten, each giving the food's experience; the level follows LEVEL_XP. At
 * most once per FEED_COOLDOWN_SECONDS per pet (409 with when next). One transaction: the pet on condition it
 * is as read (so two feedings racing on one pet cannot both pass the cooldown), the food taken on condition
 * the balance covers it (409 when short), its ledger entry, and the feeding's log entry.
 */
export async function feedPet(deps: PartnerStoreDeps, uid: string, input: { petId: string; item: string; amount: number }, idempotencyHeader?: string) {
  const food = ITEMS.find((item) => item.code === input.item);
  if (food?.kind !== 'food') throw storeError('pet.not_food', `body.item: ${input.item} is not food`);
  const keyed = keyedRequest({ kind: 'store', sub: uid }, 'feed_pet', idempotencyHeader, input);
  // With a key, its record is read with the pet: a retry is answered before the cooldown would refuse it.
  const [item, record] = await readItems(deps, feedReads(uid, input.petId, keyed?.key));
  if (record && keyed) return answerOf<FeedAnswer>(record, keyed);
  if (!item) throw storeError('pet.not_found', `body.petId: no pet ${input.petId} of yours`);
  const pet = StoredPet.parse(item);
  const now = deps.now();
  if (pet.last_fed_at) {
    const next = new Date(pet.last_fed_at).getTime() + FEED_COOLDOWN_SECONDS * 1000;
    if (next > now.getTime())
      throw storeError(
        'pet.fed_recently',
        `body.petId: ${pet.name} was fed less than ${FEED_COOLDOWN_SECONDS} s ago; next feeding from ${new Date(next).toISOString()}`,
      );
  }
  const gained = food.experience * input.amount;
  const experience = Math.min(pet.experience + gained, MAX_EXPERIENCE);
  const level = levelOf(experience);
  const fedAt = now.toISOString();
  const feedingId = randomUUID();
  const entry = {
    feedingId,
    petId: pet.petId,
    item: food.code,
    amount: input.amount,
    experience_gained: experience - pet.experience,
    level_before: pet.level,
    level_after: level,
    fed_at: fedAt,
  };
  const answer: FeedAnswer = { pet: { ...pet, experience, level, last_fed_at: fedAt }, feeding: entry };
  const outcome = await transactKeyed(
    deps,
    keyed,
    answer,
    [
      {
        Update: {
          TableName: deps.table,
          Key: petKey(uid, pet.petId),
          UpdateExpression: 'SET experience = :experience, #level = :level, last_fed_at = :now, gsi4sk = :rank',
          ConditionExpression: pet.last_fed_at ? 'last_fed_at = :read' : 'attribute_not_exists(last_fed_at)',
          ExpressionAttributeNames: { '#level': 'level' },
          ExpressionAttributeValues: {
            ':experience': experience,
            ':level': level,
            ':now': fedAt,
            ':rank': rankKey(level, experience),
            ...(pet.last_fed_at ? { ':read': pet.last_fed_at } : {}),
          },
        },
      },
      ...changeItems(deps, uid, 'item', food.code, -input.amount, `feed#${feedingId}`),
      { Put: { TableName: deps.table, Item: { ...feedingKey(uid, fedAt, feedingId), type: 'store_feeding', ...entry } } },
      liveUserCheck(deps, uid),
    ],
    `body.petId: ${pet.name} is being fed concurrently; retry`,
    uid,
  );
  if ('answer' in outcome) return outcome.answer;
  const failed = outcome.refused;
  if (failed.some((f) => f.index === 4)) throw userGone();
  if (failed.some((f) => f.index === 0))
    throw storeError('pet.fed_recently', `body.petId: ${pet.name} was fed meanwhile; the next feeding waits ${FEED_COOLDOWN_SECONDS} s`);
  if (failed.some((f) => f.index === 1)) throw storeError('pet.items_short', `body.item: you hold fewer than ${input.amount} ${food.code}`);
  throw new Error('feed: a fresh feeding id was taken');
}

interface FeedAnswer {
  pet: Pet;
  feeding: z.infer<typeof Feeding>;
}

/** feed_log: the user's feedings, newest first, page `page` (zero-based) of `pageSize`: one Query. */
export async function feedLog(deps: Pick<PartnerStoreDeps, 'db' | 'table'>, uid: string, page: number, pageSize: number) {
  const out = await deps.db.send(
    new QueryCommand({
      TableName: deps.table,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :log)',
      ExpressionAttributeValues: { ':pk': storePartition(uid), ':log': FEEDLOG_PREFIX },
      ScanIndexForward: false,
      Limit: (page + 1) * pageSize + 1,
      ConsistentRead: true,
    }),
  );
  const items = out.Items ?? [];
  const entries = items.slice(page * pageSize, (page + 1) * pageSize).map((item) => Feeding.parse(item));
  return { entries, page, pageSize, hasMore: items.length > (page + 1) * pageSize };
}

/** rank: the region's pets by level, then experience (one Query of the board index). */
export async function petRank(deps: Pick<PartnerStoreDeps, 'db' | 'table'>, region: StoreRegion, limit: number) {
  const out = await deps.db.send(
    new QueryCommand({
      TableName: deps.table,
      IndexName: 'gsi4',
      KeyConditionExpression: 'gsi4pk = :board',
      ExpressionAttributeValues: { ':board': petBoardPartition(region) },
      ScanIndexForward: false,
      Limit: limit,
    }),
  );
  return { pets: (out.Items ?? []).map((item, index) => ({ rank: index + 1, ...RankedPet.parse(item) })) };
}
