import { GetCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod/mini';
import { canonicalType } from '../chain/names.js';
import { toAccountRecord } from '../identity/accounts.js';
import { userKey } from '../identity/keys.js';
import { readItems } from '../platform/batch.js';
import type { HeroesDeps } from './deps.js';
import { platformError } from '../platform/errors.js';
import { heroError } from './errors.js';
import { transactOrFailures, type TransactItem } from '../platform/transactions.js';
import { liveObject, ownerText } from './chain-reads.js';
import { heroAttributes, requireConfig, toHero } from './heroes.js';
import { heroConfigKey, heroIdOfNft, heroKey, nftBindingKey } from './keys.js';
import { objectOf } from '../shared/records.js';
import { Hero } from './models.js';

/**
 * bind and unbind: an on-chain hero NFT becomes a hero of the player whose registered wallet address owns it,
 * and stops being one. The binding item (`HERONFT#<objectId>`, keys.ts) says who holds the NFT; while no one
 * does, it keeps the hero's level and experience, so levels paid for stay with the NFT through unbinding and
 * binding again (by the same player or the next owner). Its `rev` changes with every bind and unbind, and each
 * is written on condition it is still the one read.
 */

/**
 * "the binding of an NFT" (nftBindingKey) in either of its states: bound, its holder (`uid`) and since when; released,
 * the level and experience it keeps. `rev` counts both.
 */
export const StoredBinding = z.lazy(() =>
  z.extend(z.partial(z.pick(objectOf(Hero), { level: true, experience: true })), {
    uid: z.optional(z.string()),
    bound_at: z.optional(z.string()),
    rev: z.int(),
  }),
);
const bindingOf = (item: Record<string, unknown> | undefined) => item && StoredBinding.parse(item);

export interface BindingAnswer {
  hero: Hero;
  bound_at: string;
}

/**
 * bind. The binding, the caller's account and the hero (by the NFT's hero id) are read in one BatchGet:
 * - already bound to the caller: the first binding answers, with no chain read;
 * - else the object is read from the full node now (never from nft_detail's cache): it must be live (404), of
 *   the configured hero type (400) and owned by the caller's registered wallet address (403; an NFT in a kiosk
 *   is owned by the kiosk). An NFT bound to another player is 409 while the chain does not show the caller as
 *   its owner; once it does (the NFT was transferred), the binding moves to the caller with the hero's level.
 * A node that does not answer is 503. Nothing is written before every check has passed.
 */
/** What bind reads first (its first reads, core/http/operation.ts FirstReads, read with the caller's deletion mark): configuration, account, the NFT's binding, its hero. */
export const bindReads = (uid: string, objectId: string) => [heroConfigKey, userKey(uid), nftBindingKey(objectId), heroKey(uid, heroIdOfNft(objectId))];

/** What unbind reads first (its first reads, core/http/operation.ts FirstReads, read with the caller's deletion mark): the NFT's binding and its hero. */
export const unbindReads = (uid: string, objectId: string) => [nftBindingKey(objectId), heroKey(uid, heroIdOfNft(objectId))];

export async function bindNft(deps: HeroesDeps, uid: string, objectId: string): Promise<BindingAnswer> {
  const heroId = heroIdOfNft(objectId);
  const [configItem, accountItem, bindingItem, mine] = await readItems(deps, bindReads(uid, objectId));
  const config = requireConfig(configItem);
  const binding = bindingOf(bindingItem);
  if (binding?.uid === uid && binding.bound_at !== undefined && mine) return { hero: toHero(mine), bound_at: binding.bound_at };
  const account = accountItem && toAccountRecord(accountItem);
  if (!account?.wallet_address) throw heroError('hero.no_wallet', 'objectId: you have no registered wallet address to own the NFT');

  const object = await liveObject(deps, objectId);
  if (!object) throw heroError('hero.object_not_found', `objectId: no live object ${objectId} on chain (never created, deleted, or wrapped in another object)`);
  if (canonicalType(object.type) !== config.heroType)
    throw heroError('hero.object_wrong_type', `objectId: ${objectId} is a ${object.type}, not a hero (${config.heroType})`);
  const holder = binding?.uid;
  const ownedByCaller = object.owner.kind === 'address' && object.owner.address === account.wallet_address;
  if (holder !== undefined && holder !== uid && !ownedByCaller) throw heroError('hero.bound_to_other', `objectId: ${objectId} is bound to another player`);
  if (!ownedByCaller)
    throw heroError('hero.not_owned', `objectId: ${objectId} is owned by ${ownerText(object.owner)}, not by your wallet address ${account.wallet_address}`);

  // The previous holder's hero (the NFT was transferred to the caller): its level moves with the NFT.
  const previous = holder !== undefined && holder !== uid ? await heroOf(deps, holder, heroId) : undefined;
  const now = deps.now().toISOString();
  const carried = previous ?? binding;
  const hero: Hero = {
    id: heroId,
    userId: uid,
    level: carried?.level ?? 1,
    experience: carried?.experience ?? 0,
    source: 'nft',
    nftObjectId: objectId,
    created_at: now,
    updated_at: now,
  };
  const rev = binding?.rev ?? 0;
  const items: TransactItem[] = [
    {
      Put: {
        TableName: deps.table,
        Item: { ...nftBindingKey(objectId), type: 'hero_nft', objectId, heroId, uid, bound_at: now, rev: rev + 1 },
        ConditionExpression: binding ? 'rev = :rev' : 'attribute_not_exists(pk)',
        ...(binding ? { ExpressionAttributeValues: { ':rev': rev } } : {}),
      },
    },
    {
      Put: {
        TableName: deps.table,
        Item: { ...heroKey(uid, heroId), ...heroAttributes(hero) },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
  ];
  if (previous) {
    items.push({
      Delete: {
        TableName: deps.table,
        Key: heroKey(holder!, heroId),
        ConditionExpression: '#level = :level',
        ExpressionAttributeNames: { '#level': 'level' },
        ExpressionAttributeValues: { ':level': previous.level },
      },
    });
  }
  const failed = await transactOrFailures(deps, items, `objectId: ${objectId} was bound or released concurrently; retry`);
  if (failed.length > 0) {
    // A concurrent bind won. Bound to the caller now (the same request twice): that binding answers.
    const [winnerItem, winnersHero] = await readItems(deps, [nftBindingKey(objectId), heroKey(uid, heroId)]);
    const winner = bindingOf(winnerItem);
    if (winner?.uid === uid && winner.bound_at !== undefined && winnersHero) return { hero: toHero(winnersHero), bound_at: winner.bound_at };
    throw platformError('data.changed_concurrently', `objectId: ${objectId} was bound or released concurrently; retry`);
  }
  return { hero, bound_at: now };
}

async function heroOf(deps: HeroesDeps, uid: string, heroId: string): Promise<Hero | undefined> {
  const out = await deps.db.send(new GetCommand({ TableName: deps.table, Key: heroKey(uid, heroId), ConsistentRead: true }));
  return out.Item && toHero(out.Item);
}

/**
 * unbind: the caller's own bound NFT only (404 for any other, so bindings cannot be probed). The hero leaves the
 * caller's heroes and its level and experience are kept on the binding, in one transaction on condition
 * neither changed since read (an upgrade in flight: 409, retry).
 */
export async function unbindNft(deps: HeroesDeps, uid: string, objectId: string) {
  const heroId = heroIdOfNft(objectId);
  const [bindingItem, mine] = await readItems(deps, unbindReads(uid, objectId));
  const binding = bindingOf(bindingItem);
  if (!binding || binding.uid !== uid || !mine) throw heroError('hero.not_bound', `objectId: no hero NFT ${objectId} is bound to you`);
  const hero = toHero(mine);
  const now = deps.now().toISOString();
  const failed = await transactOrFailures(
    deps,
    [
      {
        Delete: {
          TableName: deps.table,
          Key: heroKey(uid, heroId),
          ConditionExpression: '#level = :level AND updated_at = :updated',
          ExpressionAttributeNames: { '#level': 'level' },
          ExpressionAttributeValues: { ':level': hero.level, ':updated': hero.updated_at },
        },
      },
      {
        Put: {
          TableName: deps.table,
          Item: {
            ...nftBindingKey(objectId),
            type: 'hero_nft',
            objectId,
            heroId,
            level: hero.level,
            experience: hero.experience,
            released_at: now,
            rev: binding.rev + 1,
          },
          ConditionExpression: 'uid = :uid AND rev = :rev',
          ExpressionAttributeValues: { ':uid': uid, ':rev': binding.rev },
        },
      },
    ],
    `objectId: ${objectId} changed concurrently; retry`,
  );
  if (failed.length > 0)
    throw platformError(
      'data.changed_concurrently',
      `objectId: the hero of ${objectId} changed concurrently (an upgrade or another unbind); nothing was released; retry`,
    );
  return { objectId, heroId, level: hero.level, experience: hero.experience, released_at: now };
}
