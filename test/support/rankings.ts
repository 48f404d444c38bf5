import { createGame } from '../../core/games/games.js';
import { GameCreate } from '../../core/games/models.js';
import type { Deps } from '../../core/deps.js';
import { queryItems } from '../../core/platform/query.js';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { headPageKey, headTopKey, scorePartition, snapshotPageKey } from '../../core/rankings/keys.js';
import { readItems } from '../../core/platform/batch.js';
import { readHead } from '../../core/rankings/rank-head.js';
import { type Directory, type PageEntry, type RankBoard, toEntries, toPage } from '../../core/rankings/rank-pages.js';
import { readSnapshot } from '../../core/rankings/rank-snapshot.js';
import { type SnapshotRun, snapshotSeasons } from '../../core/rankings/rank-snapshots.js';
import { toScoreItem } from '../../core/rankings/items.js';
import { monthOf, type Season } from '../../core/rankings/seasons.js';
import { setBoardShards } from '../../core/rankings/shards.js';
import type { LocalDeps } from './local-deps.js';
import { localConnection } from '../../tools/local/dynamo.js';
import { ScoreStreamReader } from '../../tools/local/score-stream.js';
import type { ItemChange } from '../../core/rankings/rank-stream.js';
import { newCode, gamePayload } from './games.js';
import { merchantWithToken } from './merchants.js';

/** An active merchant with one game and a server token of the merchant (what the game's servers send). */
export async function gameWithServer(deps: Deps) {
  const owner = await merchantWithToken(deps);
  const code = newCode('rank');
  await createGame(deps, owner.claims, GameCreate.parse(gamePayload(code)));
  const server = (await deps.tokens.issue('server', owner.accountId, { merchant_id: owner.merchant.id })).token;
  return { owner, code, server };
}

/**
 * Sets a game's board shards as made just before `season` started (the deps' clock moved there for the call),
 * so that the season and every later one has them: by default, before the month of forty days ago, so the
 * current week and month do.
 */
export async function shardsSince(deps: LocalDeps, game: string, shards: number, season: Season = monthOf(new Date(Date.now() - 40 * 86_400_000))) {
  deps.setNow(new Date(season.start.getTime() - 86_400_000));
  try {
    await setBoardShards(deps, game, shards);
  } finally {
    deps.setNow(undefined);
  }
}

/** A gameWithServer whose current seasons have `shards` board shards. */
export async function shardedGame(deps: LocalDeps, shards: number) {
  const game = await gameWithServer(deps);
  await shardsSince(deps, game.code, shards);
  return game;
}

/**
 * Every score item of a game's season (a test-only read of each of its `shards` partitions), with its shard and
 * scores as a reader counts them (reports.ts toScoreItem: `kills`/`wins`, plus what an older item holds in its
 * former index sort keys).
 */
export async function seasonScores(deps: Deps, game: string, season: Season, shards: number) {
  const parts = await Promise.all(
    Array.from({ length: shards }, async (_, shard) => {
      const pk = scorePartition(game, season, shard, shards);
      const items = await queryItems(deps, { KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': pk }, ConsistentRead: true });
      return items.map((item) => {
        const { kills, wins } = toScoreItem(item);
        return { shard, id: item.game_player_id as string, kills, wins, item };
      });
    }),
  );
  return parts.flat();
}

/** Counts the DynamoDB commands the deps' client sends while `start()`ed, by name (GetItem, Query, …); the bench counts with it too. */
export function commandCounter(deps: Deps) {
  let counts: Record<string, number> | undefined;
  deps.db.middlewareStack.add(
    (next, context) => async (args) => {
      if (counts) {
        const name = (context.commandName ?? 'unknown').replace(/Command$/, '');
        counts[name] = (counts[name] ?? 0) + 1;
      }
      return next(args);
    },
    { step: 'initialize', name: `rankingsCounter${Math.random()}` },
  );
  return {
    start: () => void (counts = {}),
    stop: () => {
      const result = counts ?? {};
      counts = undefined;
      return result;
    },
  };
}

const readers = new WeakMap<LocalDeps, ScoreStreamReader>();

/**
 * Applies every change of the deps' table's stream to the boards' live heads (what the deployed stream
 * subscription does a moment after each report), as the local server's loop does; answers the records read.
 */
export function drainRankStream(deps: LocalDeps): Promise<number> {
  let reader = readers.get(deps);
  if (!reader) readers.set(deps, (reader = new ScoreStreamReader(deps, localConnection(deps.endpoint))));
  return reader.drain();
}

/** Every record of the deps' table's stream so far, in order, read into images: what the consumer would be given. */
export async function streamRecords(deps: LocalDeps): Promise<ItemChange[]> {
  const records: ItemChange[] = [];
  await new ScoreStreamReader(deps, localConnection(deps.endpoint), async (batch) => records.push(...batch)).drain();
  return records;
}

/** A directory's pages as stored (one batch read of them all), in the directory's order; a listed page missing throws. */
async function pagesOf(deps: Deps, directory: Directory, key: (id: number) => { pk: string; sk: string }) {
  const items = await readItems(
    deps,
    directory.pages.map((page) => key(page.id)),
  );
  return items.map((item, i) => {
    if (!item) throw new Error(`page ${directory.pages[i]!.id} is listed but missing`);
    return toPage(item);
  });
}

/** A board's live head (core/rankings/rank-head.ts) as stored: its directory and its pages, in order (a test-only read of them all). */
export async function headPages(deps: Deps, ref: RankBoard): Promise<{ directory: Directory; pages: { version: number; entries: PageEntry[] }[] }> {
  const directory = await readHead(deps, ref);
  return { directory, pages: await pagesOf(deps, directory, (id) => headPageKey(ref.board, ref.game, ref.season, id)) };
}

/** A board's head's kept top (what gameRank reads) as stored; none before the head's first batch. */
export async function headTop(deps: Deps, ref: RankBoard): Promise<PageEntry[] | undefined> {
  const out = await deps.db.send(new GetCommand({ TableName: deps.table, Key: headTopKey(ref.board, ref.game, ref.season), ConsistentRead: true }));
  return out.Item ? toEntries(out.Item.data as Uint8Array) : undefined;
}

/** A board's snapshot (core/rankings/rank-snapshot.ts) as stored: its directory and its pages, in order (a test-only read of them all). */
export async function snapshotPages(deps: Deps, ref: RankBoard): Promise<{ directory: Directory; pages: { version: number; entries: PageEntry[] }[] }> {
  const directory = await readSnapshot(deps, ref);
  return { directory, pages: await pagesOf(deps, directory, (id) => snapshotPageKey(ref.board, ref.game, ref.season, id)) };
}

/**
 * One run of the snapshot job over every open season of the deps' table (core/rankings/rank-snapshots.ts), its
 * superseded pages deleted at once: a test reads no snapshot while one is written, so none needs the grace.
 */
export function takeSnapshots(deps: Deps): Promise<SnapshotRun> {
  return snapshotSeasons(deps, { graceMs: 0 });
}
