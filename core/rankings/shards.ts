import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { queryItems } from '../platform/query.js';
import * as z from 'zod/mini';
import { gameError } from '../games/errors.js';
import { gameKey } from '../games/keys.js';
import { conditionHeld, isConditionalFailure } from '../platform/conditional-failure.js';
import { platformError } from '../platform/errors.js';
import type { PlatformDeps } from '../platform/deps.js';
import { readRemembered, remember, type RememberedRead } from '../platform/process-memory.js';
import { AGAIN, retrying } from '../platform/retry.js';
import { rankingError } from './errors.js';
import { DEFAULT_SHARDS } from './models.js';
import { scorePartition } from './keys.js';
import { monthOf, type Season, seasonKey, weekOf } from './seasons.js';

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
 *
 * A game preparing its launch is not held to the K its current week and month started with: a change made while
 * a current season has no score names that season (`seasons`) and applies from LAUNCH_DELAY_MS after it, to that
 * season too, if it still has no score then (launchApplies). Meanwhile the game's reports are refused (503
 * `ranking.shards_changing`, with Retry-After) by every process that has read the change, and the processes that
 * have not stop writing under the old K when their memory lapses, a minute after the change, before it applies:
 * so at `from` the season's scores under the old K are what they will stay, and every process that looks then
 * finds the same (none: the new K; some: the old one, and the change waits for the next season).
 */
export const CHANGE_DELAY_MS = 10 * 60_000;
const SETTING_MEMORY_MS = 60_000;
/** How long after it is made a change applies to a current season without score: the memory's minute and half a minute more. */
export const LAUNCH_DELAY_MS = SETTING_MEMORY_MS + 30_000;

/**
 * A change of a game's shard count: K from the instant `from` (ISO) on, for the seasons that start from then; and
 * for the seasons `seasons` names (seasonKey), current and without score when it was made, if they have none at
 * `from` either.
 */
const ShardChange = z.object({
  shards: z.int(),
  from: z.string(),
  /** Each season (seasonKey) it may launch into, with the K the season had when the change was made. */
  seasons: z.optional(z.array(z.object({ season: z.string(), was: z.int() }))),
});
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

const settings = new Map<string, RememberedRead<ShardChange[]>>();

/** A game's shard changes, oldest first, remembered a minute per process. */
export function shardChanges(deps: Pick<PlatformDeps, 'db' | 'table'>, game: string): Promise<ShardChange[]> {
  return readRemembered(settings, `${deps.table}\u0000${game}`, SETTING_MEMORY_MS, () => readShardChanges(deps, game));
}

/** A game's shard changes as stored now (one consistent GetItem of the game item's setting). */
export async function readShardChanges(deps: Pick<PlatformDeps, 'db' | 'table'>, game: string): Promise<ShardChange[]> {
  return ShardSetting.parse((await readSettingItem(deps, game)) ?? {}).board_shards;
}

/** The game item's key and setting as stored now; undefined when there is no such game. */
async function readSettingItem(deps: Pick<PlatformDeps, 'db' | 'table'>, game: string): Promise<Record<string, unknown> | undefined> {
  const out = await deps.db.send(new GetCommand({ TableName: deps.table, Key: gameKey(game), ProjectionExpression: 'pk, board_shards', ConsistentRead: true }));
  return out.Item;
}

/** The K of a game's season (as its reports write it from now on: a launch change still to apply counts once it does). */
export async function seasonShards(deps: Pick<PlatformDeps, 'db' | 'table' | 'now'>, game: string, season: Season): Promise<number> {
  return shardsOf(deps, game, season, await shardChanges(deps, game));
}

/** The change that names `season` as a season it may launch into (at most one does), with the K the season had then. */
function launchOf(changes: readonly ShardChange[], season: Season): { change: ShardChange; was: number } | undefined {
  const key = seasonKey(season);
  for (const change of changes) {
    const named = change.seasons?.find((entry) => entry.season === key);
    if (named) return { change, was: named.was };
  }
  return undefined;
}

async function shardsOf(deps: Pick<PlatformDeps, 'db' | 'table' | 'now'>, game: string, season: Season, changes: readonly ShardChange[]): Promise<number> {
  const launch = launchOf(changes, season);
  if (!launch) return shardsAt(changes, season);
  if (Date.parse(launch.change.from) > deps.now().getTime()) return launch.was;
  return (await launchApplies(deps, game, season, launch.was, launch.change)) ? launch.change.shards : launch.was;
}

/**
 * A season's reports are refused while a change that may launch into it has not applied yet: what they wrote
 * under the old K would be left behind by the new one.
 */
export async function refuseWhileResharding(deps: Pick<PlatformDeps, 'db' | 'table' | 'now'>, game: string, seasons: readonly Season[]): Promise<void> {
  const changes = await shardChanges(deps, game);
  const now = deps.now().getTime();
  for (const season of seasons) {
    const from = launchOf(changes, season)?.change.from;
    if (from !== undefined && Date.parse(from) > now) {
      throw rankingError('ranking.shards_changing', `game_code: the board shards of game ${game} change at ${from}; report again then`, {
        retryAfterSeconds: Math.ceil((Date.parse(from) - now) / 1000),
      });
    }
  }
}

const launches = new Map<string, Promise<boolean>>();

/**
 * Does a launch change apply to its season: has the season no score under the K it had before the change (`was`)?
 * Asked at or after the change's `from`, when no process writes under the old K any more, so the answer never
 * changes: remembered per process (K Queries of one item each, once).
 */
function launchApplies(deps: Pick<PlatformDeps, 'db' | 'table'>, game: string, season: Season, was: number, launch: ShardChange): Promise<boolean> {
  const key = `${deps.table}\u0000${game}\u0000${seasonKey(season)}\u0000${launch.from}`;
  const known = launches.get(key);
  if (known) return known;
  const answer = seasonEmpty(deps, game, season, was);
  remember(launches, key, answer);
  answer.catch(() => launches.get(key) === answer && launches.delete(key));
  return answer;
}

/** Has a season no score item under K shards (each shard's partition read for one item)? */
async function seasonEmpty(deps: Pick<PlatformDeps, 'db' | 'table'>, game: string, season: Season, shards: number): Promise<boolean> {
  const found = await Promise.all(
    Array.from({ length: shards }, async (_, shard) => {
      const items = await queryItems(
        deps,
        { KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': scorePartition(game, season, shard, shards) }, ConsistentRead: true },
        1,
      );
      return items.length > 0;
    }),
  );
  return !found.includes(true);
}

/** The changes kept beyond those that decide a season's K: the last ones written, for the console to show. */
export const KEPT_CHANGES = 20;
/** How long the list may grow by appends before a change compacts it (keptChanges): about 4 KB of the game item. */
export const APPENDED_CHANGES = 100;
/** Writes of the setting tried on fresh reads while other changes land in between; then 409. */
const WRITE_ATTEMPTS = 5;

/**
 * Sets a game's K for the seasons that start from `CHANGE_DELAY_MS` on, and for the current week and month that
 * have no score (from `LAUNCH_DELAY_MS` on, see the top of the file). Commonly one UpdateItem appends the change
 * (on condition the game exists and holds fewer than APPENDED_CHANGES), so concurrent changes are each kept, in
 * the order written. A change that names seasons, or one past that many, compacts: the list is read, the change
 * added (and the seasons it names taken from the changes before it: they applied to no score), and what is kept
 * (`keptChanges`: bounded by the calendar, not by how many changes are made) written back on condition the list
 * is still the one read; a concurrent change makes it run again on a fresh read.
 */
export async function setBoardShards(deps: Pick<PlatformDeps, 'db' | 'table' | 'now'>, game: string, shards: number): Promise<ShardChange[]> {
  const now = deps.now();
  const stored = await readSettingItem(deps, game);
  const known = ShardSetting.parse(stored ?? {}).board_shards;
  // The current week's and month's emptiness, read side by side.
  const checked = await Promise.all(
    [weekOf(now), monthOf(now)].map(async (season) => {
      // A season still waiting for a launch change has no score (its reports are refused meanwhile) and keeps its K.
      const launch = launchOf(known, season);
      const was = await shardsOf(deps, game, season, known);
      const empty = (launch && Date.parse(launch.change.from) > now.getTime()) || (await seasonEmpty(deps, game, season, was));
      return empty ? [{ season: seasonKey(season), was }] : [];
    }),
  );
  const empty = checked.flat();
  if (empty.length > 0) {
    return compactWith(deps, game, { shards, from: new Date(now.getTime() + LAUNCH_DELAY_MS).toISOString(), seasons: empty }, stored);
  }
  const change: ShardChange = { shards, from: new Date(now.getTime() + CHANGE_DELAY_MS).toISOString() };
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
async function compactWith(
  deps: Pick<PlatformDeps, 'db' | 'table'>,
  game: string,
  change: ShardChange,
  /** The setting the caller has just read fresh: the first try writes on it, a later one reads again. */
  justRead?: Record<string, unknown>,
): Promise<ShardChange[]> {
  return retrying(
    async (attempt) => {
      const item = attempt === 1 && justRead ? justRead : await readSettingItem(deps, game);
      // The authorization layer found the game; games are never deleted, so only a race with nothing can miss it.
      if (!item) throw gameError('game.not_found', `game_code: no game ${game}`);
      const read = item.board_shards as unknown[] | undefined;
      const named = new Set((change.seasons ?? []).map((entry) => entry.season));
      // The seasons this change names have no score: a change before it that named them decides them no more (the
      // K they had then is in this change's `was`).
      const before = ShardSetting.parse(item).board_shards.map(({ seasons, ...rest }) => {
        const left = (seasons ?? []).filter((entry) => !named.has(entry.season));
        return left.length > 0 ? { ...rest, seasons: left } : rest;
      });
      const changes = keptChanges([...before, change]);
      const written = await conditionHeld(
        deps.db.send(
          new UpdateCommand({
            TableName: deps.table,
            Key: gameKey(game),
            UpdateExpression: 'SET board_shards = :changes',
            ConditionExpression: read === undefined ? 'attribute_exists(pk) AND attribute_not_exists(board_shards)' : 'board_shards = :read',
            ExpressionAttributeValues: { ':changes': changes, ...(read === undefined ? {} : { ':read': read }) },
          }),
        ),
      );
      return written ? changes : AGAIN;
    },
    {
      attempts: WRITE_ATTEMPTS,
      pause: false,
      giveUp: () => {
        throw platformError('data.changed_concurrently', `game_code: the board shards of game ${game} kept changing meanwhile; send the change again`);
      },
    },
  );
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
  // A change naming seasons may decide them (at most one change names a season: setBoardShards).
  return changes.filter((change, written) => decides.has(written) || written >= changes.length - KEPT_CHANGES || (change.seasons?.length ?? 0) > 0);
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

/** A game's setting as the console shows it (BoardShards): a current season's K as it is or will be once a launch change applies. */
export async function boardShardsOf(deps: Pick<PlatformDeps, 'db' | 'table' | 'now'>, game: string, changes?: ShardChange[]) {
  const known = changes ?? (await readShardChanges(deps, game));
  const now = deps.now();
  const currentK = async (season: Season) => {
    const launch = launchOf(known, season);
    return launch && Date.parse(launch.change.from) > now.getTime() ? launch.change.shards : shardsOf(deps, game, season, known);
  };
  return {
    game_code: game,
    // Of every change made, the one that applies last: what seasons starting from now on will have.
    shards: shardsFrom(known, LAST_INSTANT),
    week_shards: await currentK(weekOf(now)),
    month_shards: await currentK(monthOf(now)),
    changes: known,
  };
}
