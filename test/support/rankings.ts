import { createGame } from '../../core/games/games.js';
import { GameCreate } from '../../core/games/models.js';
import type { Deps } from '../../core/deps.js';
import { queryItems } from '../../core/platform/query.js';
import { rankPageKey, scorePartition } from '../../core/rankings/keys.js';
import { readItems } from '../../core/platform/batch.js';
import { type RankBoard, readDirectory, toPage } from '../../core/rankings/rank-pages.js';
import { monthOf, type Season } from '../../core/rankings/seasons.js';
import { setBoardShards } from '../../core/rankings/shards.js';
import type { LocalDeps } from './local-deps.js';
import { localConnection } from '../../functions/local/dynamo.js';
import { ScoreStreamReader } from '../../functions/local/score-stream.js';
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

/** Every score item of a game's season (a test-only read of each of its `shards` partitions), with its shard and scores. */
export async function seasonScores(deps: Deps, game: string, season: Season, shards: number) {
  const parts = await Promise.all(
    Array.from({ length: shards }, async (_, shard) => {
      const pk = scorePartition(game, season, shard, shards);
      const items = await queryItems(deps, { KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': pk }, ConsistentRead: true });
      return items.map((item) => ({ shard, id: item.game_player_id as string, kills: Number(item.gsi4sk ?? 0), wins: Number(item.gsi5sk ?? 0), item }));
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
 * Applies every change of the deps' table's stream to the rank pages (what the deployed stream subscription
 * does a moment after each report), as the local server's loop does; answers the records read.
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

/** A board's rank directory and its pages as stored, in the directory's order (a test-only read of them all). */
export async function boardPages(deps: Deps, ref: RankBoard) {
  const directory = await readDirectory(deps, ref);
  const items = await readItems(
    deps,
    directory.pages.map((page) => rankPageKey(ref.board, ref.game, ref.season, page.id)),
  );
  return { directory, pages: items.map((item) => toPage(item!)) };
}
