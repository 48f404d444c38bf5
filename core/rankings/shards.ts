import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod/mini';
import { gameError } from '../games/errors.js';
import { gameKey } from '../games/games.js';
import { isConditionalFailure } from '../platform/conditional-failure.js';
import { platformError } from '../platform/errors.js';
import type { PlatformDeps } from '../platform/deps.js';
import { remember } from '../platform/process-memory.js';
import { monthOf, type Season, weekOf } from './seasons.js';

/**
 * Board shards (docs/performance.md "Leaderboards at scale"). A season's score items and board index entries of
 * one game are spread over K partitions, so that a game's reports are not held to what one partition takes
 * (about 1,000 writes a second). A player is always in the same shard of a season (keys.ts `shardOf`: a hash of
 * the player id), so their increments keep their order; readers read the K shards in parallel and merge.
 *
 * K is the game's setting (`board_shards` on the game item: its changes, each with the instant it applies from,
 * as many as decide a season's K and the last few: keptChanges), and
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

/** The changes kept beyond those that decide a season's K: the last ones written, for the console to show. */
export const KEPT_CHANGES = 20;
/** How long the list may grow by appends before a change compacts it (keptChanges): about 4 KB of the game item. */
export const APPENDED_CHANGES = 100;
/** Writes of the setting tried on fresh reads while other changes land in between; then 409. */
const WRITE_ATTEMPTS = 5;

/**
 * Sets a game's K for the seasons that start from `CHANGE_DELAY_MS` on. Commonly one UpdateItem appends the
 * change (on condition the game exists and holds fewer than APPENDED_CHANGES), so concurrent changes are each
 * kept, in the order written. Past that the change compacts: the list is read, the change added, and what is kept
 * (`keptChanges`: bounded by the calendar, not by how many changes are made) written back on condition the list
 * is still the one read; a concurrent change makes it run again on a fresh read.
 */
export async function setBoardShards(deps: Pick<PlatformDeps, 'db' | 'table' | 'now'>, game: string, shards: number): Promise<ShardChange[]> {
  const change: ShardChange = { shards, from: new Date(deps.now().getTime() + CHANGE_DELAY_MS).toISOString() };
  const appended = await deps.db
    .send(
      new UpdateCommand({
        TableName: deps.table,
        Key: gameKey(game),
        UpdateExpression: 'SET board_shards = list_append(if_not_exists(board_shards, :none), :change)',
        ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(board_shards) OR size(board_shards) < :most)',
        ExpressionAttributeValues: { ':none': [], ':change': [change], ':most': APPENDED_CHANGES },
        ReturnValues: 'ALL_NEW',
      }),
    )
    .catch((error: unknown) => {
      if (isConditionalFailure(error)) return undefined;
      throw error;
    });
  if (appended) return ShardSetting.parse(appended.Attributes ?? {}).board_shards;
  return compactWith(deps, game, change);
}

/** The change added to a game's changes past APPENDED_CHANGES: what is kept written back, on condition the list is as read. */
async function compactWith(deps: Pick<PlatformDeps, 'db' | 'table'>, game: string, change: ShardChange): Promise<ShardChange[]> {
  for (let attempt = 1; attempt <= WRITE_ATTEMPTS; attempt++) {
    const out = await deps.db.send(
      new GetCommand({ TableName: deps.table, Key: gameKey(game), ProjectionExpression: 'pk, board_shards', ConsistentRead: true }),
    );
    // The authorization layer found the game; games are never deleted, so only a race with nothing can miss it.
    if (!out.Item) throw gameError('game.not_found', `game_code: no game ${game}`);
    const read = out.Item.board_shards as unknown[] | undefined;
    const changes = keptChanges([...ShardSetting.parse(out.Item).board_shards, change]);
    const written = await deps.db
      .send(
        new UpdateCommand({
          TableName: deps.table,
          Key: gameKey(game),
          UpdateExpression: 'SET board_shards = :changes',
          ConditionExpression: read === undefined ? 'attribute_exists(pk) AND attribute_not_exists(board_shards)' : 'board_shards = :read',
          ExpressionAttributeValues: { ':changes': changes, ...(read === undefined ? {} : { ':read': read }) },
        }),
      )
      .then(
        () => true,
        (error: unknown) => {
          if (isConditionalFailure(error)) return false;
          throw error;
        },
      );
    if (written) return changes;
  }
  throw platformError('data.changed_concurrently', `game_code: the board shards of game ${game} kept changing meanwhile; send the change again`);
}

/**
 * What a game keeps of its changes (oldest first, in the order written): each change that decides the K of some
 * season, and the last KEPT_CHANGES. A change decides a season's K when it is the one in effect at that season's
 * start (shardsFrom); if it is in effect at any start, it is at the first start at or after its `from`, so that
 * one start tells. Whatever is dropped is in effect at no season's start, so every season, past or to come, keeps
 * its K: the reads of old seasons (rank_around, settlement) find their scores where they were written. At most
 * one change per season start from the first change on is kept: about 64 a year (52 weeks and 12 months), 42
 * bytes each in the game item, plus the last KEPT_CHANGES.
 */
function keptChanges(changes: readonly ShardChange[]): ShardChange[] {
  // In the order shardsFrom ranks them: by `from`, and of equal ones the one written last after the others.
  const ranked = changes.map((change, written) => ({ change, written })).sort((a, b) => compareText(a.change.from, b.change.from) || a.written - b.written);
  const decides = new Set<number>();
  for (const { change, written } of ranked) {
    const start = firstSeasonStartFrom(change.from);
    // A `from` that is no instant is kept as it was (never dropped unread).
    if (start === undefined) {
      decides.add(written);
      continue;
    }
    // The change in effect at that start: the last ranked with `from` at or before it.
    let low = 0;
    let high = ranked.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (ranked[middle]!.change.from <= start) low = middle + 1;
      else high = middle;
    }
    if (ranked[low - 1]?.written === written) decides.add(written);
  }
  return changes.filter((_, written) => decides.has(written) || written >= changes.length - KEPT_CHANGES);
}

const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The first season start (a week's or a month's) at or after the instant `from` names, as ISO text; undefined for no instant. */
function firstSeasonStartFrom(from: string): string | undefined {
  const instant = Date.parse(from);
  if (Number.isNaN(instant)) return undefined;
  const at = new Date(instant);
  const starts = [weekOf(at), monthOf(at)].map((season) => (season.start.getTime() === instant ? instant : season.end.getTime()));
  return new Date(Math.min(...starts)).toISOString();
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
