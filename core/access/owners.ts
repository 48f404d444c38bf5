import { GetCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod/mini';
import { gameKey } from '../games/keys.js';
import type { PlatformDeps } from '../platform/deps.js';
import { goodsKey, projectKey } from './keys.js';
import { remember } from '../platform/process-memory.js';

/**
 * Who owns a project, a game or a goods item: the console account id (`accountId`) stored on it. Owners never
 * change (no update path writes `accountId`, and none of these items is ever deleted), so an owner read once
 * is remembered for the life of the process (a warm Lambda, the local server): the authorization layer checks
 * ownership with no DynamoDB request on the hot paths, and never with a ConditionCheck on the shared item
 * inside a player's transaction (docs/data-model.md "Transactions and contention: what each touches").
 *
 * A missing item is not remembered (it may be created later). Keys carry the table name, so deps on different
 * tables (tests, bench) never share an entry. The memory is bounded (core/platform/process-memory.ts).
 */
export type OwnedKind = 'project' | 'game' | 'goods';

const keys: Record<OwnedKind, (id: string) => { pk: string; sk: string }> = {
  project: projectKey,
  game: gameKey,
  goods: (id) => goodsKey(Number(id)),
};

/** An owned item (project, game, goods), read for its owner alone. */
const OwnedItem = z.object({ accountId: z.optional(z.string()) });

const known = new Map<string, Promise<string | undefined>>();

/** The account id owning the item, or undefined when there is no such item. */
export function ownerOf(deps: Pick<PlatformDeps, 'db' | 'table'>, kind: OwnedKind, id: string): Promise<string | undefined> {
  const key = [deps.table, kind, id].join('\u0000');
  const remembered = known.get(key);
  if (remembered) return remembered;
  const read = deps.db
    .send(new GetCommand({ TableName: deps.table, Key: keys[kind](id), ProjectionExpression: 'accountId', ConsistentRead: true }))
    .then((out) => out.Item && OwnedItem.parse(out.Item).accountId);
  remember(known, key, read);
  // Forget what is not a fact yet (no such item) or a failed read, so the next call reads again.
  const forget = () => known.get(key) === read && known.delete(key);
  read.then((owner) => owner !== undefined || forget(), forget);
  return read;
}
