import { DeleteCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod/mini';
import { seasonTop } from '../rankings/season-scores.js';
import { requireGame } from '../games/games.js';
import { readItems } from '../platform/batch.js';
import type { RewardsDeps } from './deps.js';
import { rewardError } from './errors.js';
import { logError } from '../platform/log.js';
import { retrying, rethrowLast } from '../platform/retry.js';
import { ConcurrentChange, isTransactionConflict, isWriteConflict, transactOrFailedConditions, type TransactItem } from '../platform/transactions.js';
import { OPEN_SEASONS, openSeasonKey } from '../rankings/keys.js';
import { SeasonType, seasonOf, type Season } from '../rankings/seasons.js';
import { historyEntriesOf, historyEntryPut } from './entries.js';
import { rewardTableKey, settledKey } from './keys.js';
import { SettlementResult } from './models.js';
import { toBigInt } from '../shared/amounts.js';
import { objectOf } from '../shared/records.js';
import { StoredRewardTable } from './table.js';

/**
 * Settlement: a finished season of a game becomes history rank entries, exactly once.
 *
 * - Who is ranked: the players of the paying board (the reward table's `board`; boards hold only scores above
 *   0), in the boards' order (core/rankings/season-scores.ts `seasonTop`): score descending, then who reached that
 *   score first (`killsAt`/`winsAt`), then player id. Ranks are positions 1, 2, 3… (a tie never shares a rank;
 *   reaching the score first wins it).
 * - Who gets an entry: the top N, N = the highest rank of the reward table; a rank the table skips is an entry
 *   with reward_amount 0 (its player still sees the placing). Fewer players than N: fewer entries.
 * - A game without a reward table at settlement: the season is closed with no entries (nothing to pay).
 * - Exactly once: the entries and a `SETTLED` marker of the season are put in one TransactWriteItems, the marker
 *   on condition it is absent; a second or concurrent run fails that condition and writes nothing. N <= 99, so
 *   the transaction (marker + entries) stays within DynamoDB's 100 items.
 * - The season's "to settle" item (pk `SEASONS`, written after a process's first report of the season) is
 *   deleted in the same transaction (or right after it when 99 entries leave no room); a run that finds the
 *   marker deletes a leftover one.
 * - Ids: one counter `ADD n` gives the season's entries a block of n integer ids.
 */

type SettleDeps = RewardsDeps;

/** Seasons whose end is less than this long ago are left to the next run, so writes in flight at the end land first. */
export const SETTLE_GRACE_MS = 60_000;
const MAX_TRANSACTION_ITEMS = 100;

/** Settles one season of one game (idempotent: a settled season answers what its settlement wrote). */
export async function settleSeason(deps: SettleDeps, game: string, season: Season): Promise<SettlementResult> {
  // Concurrent settlements of one season cancel each other's transactions (TransactionConflict, retried by
  // transactOrFailedConditions, then a 409), and refuse the lone DeleteItem of the season item that another
  // one's transaction holds (TransactionConflictException); running the whole settlement again reads the
  // marker of the one that won, or writes the season itself if none did. Past the last try, its error stands.
  return retrying(() => settleOnce(deps, game, season), {
    retryOn: (error) => isTransactionConflict(error) || isWriteConflict(error) || error instanceof ConcurrentChange,
    giveUp: rethrowLast,
  });
}

/**
 * history/test: settles a season that has ended (409 while it is still running) of a game that exists (404
 * otherwise, before anything is written: a settled marker of no game would stay forever).
 */
export async function settleEndedSeason(deps: SettleDeps, game: string, season: Season): Promise<SettlementResult> {
  if (deps.now().getTime() < season.end.getTime()) {
    throw rewardError('season.not_ended', `season_range: the season ${season.range} has not ended yet (it ends ${season.end.toISOString()})`);
  }
  await requireGame(deps, game);
  return settleSeason(deps, game, season);
}

async function settleOnce(deps: SettleDeps, game: string, season: Season): Promise<SettlementResult> {
  const { table, marker, open } = await readTableAndMarker(deps, game, season);
  if (marker) {
    // The settling transaction deletes the season's "to settle" item; one is left only if a report wrote it
    // again afterwards (a late report of the ended season), and only then is there something to delete.
    if (open) await deleteOpenSeason(deps, game, season);
    return resultOf(game, season, marker, false);
  }

  const now = deps.now().toISOString();
  const rewards = table?.rewards ?? [];
  const amountOf = new Map(rewards.map((row) => [row.rank, row.amount]));
  let entries: Awaited<ReturnType<typeof historyEntriesOf>> = [];
  if (table && rewards.length > 0) {
    const topRank = Math.max(...rewards.map((row) => row.rank));
    // The boards' own order and tie rule (core/rankings/order.ts), from every score item of the season.
    const placings = (await seasonTop(deps, table.board, game, season, topRank)).map(({ item, score }, i) => ({
      playerId: item.game_player_id,
      rank: i + 1,
      score,
      name: item.game_player_name,
      wallet: item.wallet_address || undefined,
      amount: amountOf.has(i + 1) ? toBigInt(amountOf.get(i + 1)) : 0n,
    }));
    // After every check: a season already settled returned above; only a concurrent run's marker can refuse
    // the transaction below, which wastes the entries' block of ids.
    entries = await historyEntriesOf(deps, game, season, placings, now);
  }

  const markerItem = { board: table?.board ?? null, entries: entries.length, settled_at: now };
  const items: TransactItem[] = [
    {
      Put: {
        TableName: deps.table,
        Item: { ...settledKey(game, season), type: 'season_settled', game_code: game, season_type: season.type, season_range: season.range, ...markerItem },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
    ...entries.map((entry) => historyEntryPut(deps.table, entry, season)),
  ];
  const deleteInTransaction = items.length < MAX_TRANSACTION_ITEMS;
  if (deleteInTransaction) items.push({ Delete: { TableName: deps.table, Key: openSeasonKey(game, season) } });

  const failed = await transactOrFailedConditions(deps, items);
  if (failed.length > 0) {
    // Another run settled the season first (its marker is there): answer what it wrote.
    const { marker: theirs } = await readTableAndMarker(deps, game, season);
    if (!theirs) throw new Error(`settlement of ${game} ${season.range}: transaction refused without a settled marker`);
    await deleteOpenSeason(deps, game, season);
    return resultOf(game, season, theirs, false);
  }
  if (!deleteInTransaction) await deleteOpenSeason(deps, game, season);
  return resultOf(game, season, markerItem, true);
}

/** "season settled" (settledKey): the settlement's answer as stored, but whether it was settled now. */
export const StoredSettledMarker = z.lazy(() => z.omit(objectOf(SettlementResult), { settled_now: true }));
type Marker = Pick<z.infer<typeof StoredSettledMarker>, 'board' | 'entries' | 'settled_at'>;

const resultOf = (game: string, season: Season, marker: Marker, settledNow: boolean): SettlementResult => ({
  game_code: game,
  season_type: season.type,
  season_range: season.range,
  board: marker.board,
  entries: marker.entries,
  settled_at: marker.settled_at,
  settled_now: settledNow,
});

/** The reward table and the season's settled marker, in one BatchGetItem. */
async function readTableAndMarker(deps: SettleDeps, game: string, season: Season) {
  const keys = [rewardTableKey(game), settledKey(game, season), openSeasonKey(game, season)];
  const [table, marker, open] = await readItems(deps, keys);
  return { table: table && StoredRewardTable.parse(table), marker: marker && StoredSettledMarker.parse(marker), open: open !== undefined };
}

async function deleteOpenSeason(deps: SettleDeps, game: string, season: Season) {
  await deps.db.send(new DeleteCommand({ TableName: deps.table, Key: openSeasonKey(game, season) }));
}

/** A season named by its "to settle" sort key `<end ISO>#<game>#<W|M>#<first day>` (core/rankings/keys.ts). */
export function parseOpenSeason(sk: string): { game: string; season: Season } | undefined {
  const [, game, kind, firstDay, ...rest] = sk.split('#');
  if (!game || !firstDay || rest.length > 0 || (kind !== 'W' && kind !== 'M')) return undefined;
  const start = new Date(`${firstDay}T00:00:00.000Z`);
  if (Number.isNaN(start.getTime())) return undefined;
  const season = seasonOf(kind === 'W' ? SeasonType.week : SeasonType.month, start);
  return season.start.getTime() === start.getTime() ? { game, season } : undefined;
}

export interface SettlementRun {
  /** Every season found due, with what its settlement wrote (settled_now false: another run had done it). */
  settled: SettlementResult[];
  /** Seasons whose settlement failed this time (logged); the next run tries them again. */
  failed: number;
}

/**
 * The scheduled settlement: every season that ended (more than SETTLE_GRACE_MS ago) and is still to settle,
 * found with one Query on pk `SEASONS` (sk, the end instant first, < now - grace), settled a few at a time.
 * Safe to run twice or concurrently: each season is settled once (see settleSeason).
 */
export async function settleDueSeasons(deps: SettleDeps, options: { deadline?: number; concurrency?: number } = {}): Promise<SettlementRun> {
  const before = new Date(deps.now().getTime() - SETTLE_GRACE_MS).toISOString();
  const due: { game: string; season: Season }[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const out = await deps.db.send(
      new QueryCommand({
        TableName: deps.table,
        KeyConditionExpression: 'pk = :pk AND sk < :before',
        ExpressionAttributeValues: { ':pk': OPEN_SEASONS, ':before': before },
        ProjectionExpression: 'sk',
        ExclusiveStartKey: start,
      }),
    );
    for (const item of out.Items ?? []) {
      const parsed = parseOpenSeason(String(item.sk));
      if (parsed) due.push(parsed);
      else await logError('settlement: unreadable season item skipped', { sk: item.sk });
    }
    start = out.LastEvaluatedKey;
  } while (start);

  const run: SettlementRun = { settled: [], failed: 0 };
  let next = 0;
  const worker = async () => {
    while (next < due.length) {
      if (options.deadline !== undefined && Date.now() >= options.deadline) return;
      const { game, season } = due[next++]!;
      try {
        run.settled.push(await settleSeason(deps, game, season));
      } catch (error) {
        run.failed++;
        await logError('settlement: season failed; the next run retries it', {
          game,
          range: season.range,
          type: season.type,
          error: error instanceof Error ? error.message : String(error),
        });
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency ?? 4) }, worker));
  return run;
}
