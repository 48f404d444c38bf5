import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod/mini';
import { gameError } from '../games/errors.js';
import { gameKey } from '../games/games.js';
import { isConditionalFailure } from '../platform/conditional-failure.js';
import type { PlatformDeps } from '../platform/deps.js';
import { remember } from '../platform/process-memory.js';
import { monthOf, type Season, weekOf } from './seasons.js';

/**
 * Board shards (docs/performance.md "Leaderboards at scale"). A season's score items and board index entries of
 * one game are spread over K partitions, so that a game's reports are not held to what one partition takes
 * (about 1,000 writes a second). A player is always in the same shard of a season (keys.ts `shardOf`: a hash of
 * the player id), so their increments keep their order; readers read the K shards in parallel and merge.
 *
 * K is the game's setting (`board_shards` on the game item: every change with the instant it applies from), and
 * a season keeps the K in effect at its start for its whole life: a change applies to the seasons that start
 * after it, so no score ever moves between shards and none is lost. A change applies `CHANGE_DELAY_MS` after it
 * is made, and a process keeps a game's setting at most `SETTING_MEMORY_MS`: by the time a change applies, every
 * process has read it, so all writers and readers of a season agree on its K without reading anything per
 * request. K = 1 is the unsharded layout (the keys without a shard suffix), the default.
 */
export const DEFAULT_SHARDS = 1;
export const MAX_SHARDS = 16;
export const CHANGE_DELAY_MS = 10 * 60_000;
const SETTING_MEMORY_MS = 60_000;

/** A change of a game's shard count: K from the instant `from` (ISO) on. */
const ShardChange = z.object({ shards: z.int(), from: z.string() });
export type ShardChange = z.infer<typeof ShardChange>;
const ShardSetting = z.object({ board_shards: z._default(z.array(ShardChange), []) });

/**
 * The K of a season: the change in effect at its start (the latest `from` at or before it; of equal ones, the
 * one written last), else the default. By `from`, not by list order: processes' clocks differ a little, so a
 * change written later may apply from a moment before one written earlier.
 */
export const shardsAt = (changes: readonly ShardChange[], season: Season): number => shardsFrom(changes, season.start.toISOString());

/** Later than any change's `from`. */
const LAST_INSTANT = '9999-12-31T23:59:59.999Z';

/** The K in effect at `instant` (ISO). */
function shardsFrom(changes: readonly ShardChange[], instant: string): number {
  let effective: ShardChange | undefined;
  for (const change of changes) if (change.from <= instant && (!effective || change.from >= effective.from)) effective = change;
  return effective?.shards ?? DEFAULT_SHARDS;
}

const settings = new Map<string, { changes: Promise<ShardChange[]>; readAt: number }>();

/** A game's shard changes, oldest first, remembered a minute per process. */
export function shardChanges(deps: Pick<PlatformDeps, 'db' | 'table'>, game: string): Promise<ShardChange[]> {
  const key = `${deps.table}\u0000${game}`;
  const known = settings.get(key);
  if (known && Date.now() - known.readAt < SETTING_MEMORY_MS) return known.changes;
  const changes = readShardChanges(deps, game);
  remember(settings, key, { changes, readAt: Date.now() });
  changes.catch(() => settings.get(key)?.changes === changes && settings.delete(key));
  return changes;
}

/** A game's shard changes as stored now (one consistent GetItem of the game item's setting). */
export async function readShardChanges(deps: Pick<PlatformDeps, 'db' | 'table'>, game: string): Promise<ShardChange[]> {
  const out = await deps.db.send(new GetCommand({ TableName: deps.table, Key: gameKey(game), ProjectionExpression: 'board_shards', ConsistentRead: true }));
  return ShardSetting.parse(out.Item ?? {}).board_shards;
}

/** The K of a game's season. */
export async function seasonShards(deps: Pick<PlatformDeps, 'db' | 'table'>, game: string, season: Season): Promise<number> {
  return shardsAt(await shardChanges(deps, game), season);
}

/**
 * Sets a game's K for the seasons that start from `CHANGE_DELAY_MS` on: appended to its changes by one
 * UpdateItem (on condition the game exists), so concurrent changes are each kept, in the order written.
 */
export async function setBoardShards(deps: Pick<PlatformDeps, 'db' | 'table' | 'now'>, game: string, shards: number): Promise<ShardChange[]> {
  const change: ShardChange = { shards, from: new Date(deps.now().getTime() + CHANGE_DELAY_MS).toISOString() };
  const out = await deps.db
    .send(
      new UpdateCommand({
        TableName: deps.table,
        Key: gameKey(game),
        UpdateExpression: 'SET board_shards = list_append(if_not_exists(board_shards, :none), :change)',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':none': [], ':change': [change] },
        ReturnValues: 'ALL_NEW',
      }),
    )
    .catch((error: unknown) => {
      // The authorization layer found the game; games are never deleted, so only a race with nothing can fail here.
      throw isConditionalFailure(error) ? gameError('game.not_found', `game_code: no game ${game}`) : error;
    });
  return ShardSetting.parse(out.Attributes ?? {}).board_shards;
}

/** A game's setting as the console shows it (BoardShards). */
export async function boardShardsOf(deps: Pick<PlatformDeps, 'db' | 'table' | 'now'>, game: string, changes?: ShardChange[]) {
  const known = changes ?? (await readShardChanges(deps, game));
  const now = deps.now();
  return {
    game_code: game,
    // Of every change made, the one that applies last: what seasons starting from now on will have.
    shards: shardsFrom(known, LAST_INSTANT),
    week_shards: shardsAt(known, weekOf(now)),
    month_shards: shardsAt(known, monthOf(now)),
    changes: known,
  };
}
