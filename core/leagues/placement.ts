import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod/mini';
import { readItems } from '../platform/batch.js';
import { conditionHeld } from '../platform/conditional-failure.js';
import type { PlatformDeps } from '../platform/deps.js';
import { backOff, retrying, rethrowLast } from '../platform/retry.js';
import { isThrottled } from '../platform/table-failures.js';
import type { ItemChange } from '../platform/stream-records.js';
import { isWriteConflict } from '../platform/transactions.js';
import { toScoreItem } from '../rankings/items.js';
import { SCORE_PREFIX } from '../rankings/keys.js';
import { openSeasonOnce } from '../rankings/known.js';
import { type Season, SeasonType, type SeasonTypeValue, parseSeasonRange, seasonKey } from '../rankings/seasons.js';
import { arrivalsKey, cohortPartition, openLeagueSeasonKey, tierKey } from './keys.js';
import { rulesForSeason, type StoredRules } from './rules.js';
import { tierIn } from './tiers.js';

/**
 * Placement (docs/api.md "Leagues"): a player's first score of a league's season puts them in a cohort of their
 * tier. It runs in the score stream's consumer, beside the boards' heads (functions/jobs/rank-pages.ts), not in the
 * report: a report cannot tell a player's first score from a later one without reading first, and every report
 * would pay for that read. Here a batch's new players cost one counter write per tier and one write each:
 * - per (game, season, tier), one UpdateItem ADDs the batch's number of new players to the tier's arrivals
 *   (keys.ts arrivalsKey) and answers the new count: the batch's players take the numbers just below it, in the
 *   order they arrived, and a player's number over the cohort size is their cohort. Numbers are never given twice,
 *   so no cohort ever holds more than the cohort size, however many consumers place at once;
 * - per player, one UpdateItem of their score item sets the tier and the cohort (the cohort's index entry, gsi3),
 *   on condition the item has none yet: a player is in one cohort of a season, and a batch placed again (Lambda
 *   retries a failed one) places no one twice. A number taken by a batch that failed after the count is left
 *   unused: a cohort may end with fewer players, never with more;
 * - those writes share their score partitions with the reports, under the partition's write limit: a batch reads
 *   which of its players are placed already and writes for the others only, a few at a time per partition, backing
 *   off when throttled (placeSeason).
 * Nothing a report writes is shared by other players, and the counter is written once per batch and tier, not per
 * report: 1,000 first scores a second on one game are a few counter writes a second.
 */

/** "the arrivals of a tier in a season" (keys.ts arrivalsKey) as stored: the count of numbers placement has taken. */
export const StoredArrivals = z.object({ arrived: z.int() });

/**
 * "league seasons to settle" (keys.ts openLeagueSeasonKey) as stored, as settlement reads it: the game, and the
 * season's kind (its end is in the sort key).
 */
export const StoredLeagueSeason = z.object({ game_code: z.string(), season_type: z.union([z.literal(SeasonType.week), z.literal(SeasonType.month)]) });

/** A score item's record that asks for placement: the item is there and has no cohort yet. */
const unplaced = (change: ItemChange) => change.after !== undefined && String(change.after.pk).startsWith(SCORE_PREFIX) && change.after.cohort === undefined;

/**
 * Placement writes in flight at once per score partition. Four writes of a few milliseconds each are some hundreds
 * a second, under the thousand a partition takes, so a batch does not crowd out the reports of its partition.
 */
const LANES_PER_PARTITION = 4;
/** Tries of one placement write (the SDK's own retries inside each), and the back-off between them: about 15 s at most. */
const PLACEMENT_ATTEMPTS = 8;
const PAUSE_BASE_MS = 50;
const PAUSE_CAP_MS = 4_000;

interface Candidate {
  key: { pk: string; sk: string };
  player: string;
}

/** Places the batch's players who have no cohort yet in their league seasons; answers how many it placed. */
export async function placeNewPlayers(deps: Pick<PlatformDeps, 'db' | 'table' | 'now'>, changes: readonly ItemChange[]): Promise<number> {
  const seasons = new Map<string, { game: string; season: Season; candidates: Map<string, Candidate> }>();
  for (const change of changes.filter(unplaced)) {
    const item = toScoreItem(change.after!);
    const season = parseSeasonRange(item.season_type as SeasonTypeValue, item.season_range);
    if (!season) continue;
    const id = `${item.game_code}\u0000${seasonKey(season)}`;
    const entry = seasons.get(id) ?? { game: item.game_code, season, candidates: new Map<string, Candidate>() };
    if (!entry.candidates.has(item.game_player_id))
      entry.candidates.set(item.game_player_id, { key: { pk: String(change.after!.pk), sk: String(change.after!.sk) }, player: item.game_player_id });
    seasons.set(id, entry);
  }
  let placed = 0;
  for (const { game, season, candidates } of seasons.values()) {
    const rules = await rulesForSeason(deps, game, season);
    if (!rules) continue;
    // Before anyone is placed: a season with a cohort is always found by settlement.
    await recordOpenSeason(deps, game, season);
    placed += await placeSeason(deps, game, season, rules, [...candidates.values()]);
  }
  return placed;
}

/** The season's record for settlement, once per process (rankings/known.ts, keyed apart from the boards' own record). */
function recordOpenSeason(deps: Pick<PlatformDeps, 'db' | 'table'>, game: string, season: Season) {
  const key = openLeagueSeasonKey(game, season);
  return openSeasonOnce(deps, `${key.pk}#${key.sk}`, async () => {
    await deps.db.send(
      new PutCommand({ TableName: deps.table, Item: { ...key, type: 'league_season', game_code: game, season_type: season.type, season_range: season.range } }),
    );
  });
}

/**
 * Places the season's candidates who are not placed yet. One strongly consistent read of their tiers and score items
 * comes first: a batch given again after a failure (Lambda retries it whole) then writes only for the players its
 * first try did not place. A conditional write that fails still costs a write on the score's partition, so
 * skipping them is what lets a retried batch catch up under the partition limit.
 */
async function placeSeason(deps: Pick<PlatformDeps, 'db' | 'table'>, game: string, season: Season, rules: StoredRules, candidates: Candidate[]) {
  const read = await readItems(deps, [...candidates.map((candidate) => tierKey(candidate.player, game)), ...candidates.map((candidate) => candidate.key)]);
  const byTier = new Map<number, Candidate[]>();
  candidates.forEach((candidate, i) => {
    const score = read[candidates.length + i];
    // Gone (the player deleted their account meanwhile) or placed already.
    if (score === undefined || score.cohort !== undefined) return;
    const tier = tierIn(rules, season, read[i]);
    byTier.set(tier, [...(byTier.get(tier) ?? []), candidate]);
  });
  const placements: Placement[] = [];
  for (const [tier, players] of byTier) {
    const first = (await takeArrivals(deps, game, season, tier, players.length)) - players.length;
    for (const [i, candidate] of players.entries())
      placements.push({ candidate, tier, cohort: cohortPartition(game, season, tier, Math.floor((first + i) / rules.cohort_size)) });
  }
  const done = await inPartitionLanes(
    placements,
    (placement) => placement.candidate.key.pk,
    (placement) => placeOne(deps, placement),
  );
  return done.filter(Boolean).length;
}

interface Placement {
  candidate: Candidate;
  tier: number;
  cohort: string;
}

/**
 * Runs `write` for each item, at most LANES_PER_PARTITION at once for the items of one partition (the partitions
 * side by side): a batch's thousand placements on a few score partitions arrive paced, not all in the same
 * moment, and what the table still throttles backs off (placeOne).
 */
async function inPartitionLanes<T, R>(items: readonly T[], partitionOf: (item: T) => string, write: (item: T) => Promise<R>): Promise<R[]> {
  const queues = new Map<string, number[]>();
  for (const [i, item] of items.entries()) queues.set(partitionOf(item), [...(queues.get(partitionOf(item)) ?? []), i]);
  const out: R[] = new Array(items.length);
  const lane = async (queue: number[]) => {
    for (let i = queue.shift(); i !== undefined; i = queue.shift()) out[i] = await write(items[i]!);
  };
  await Promise.all([...queues.values()].flatMap((queue) => Array.from({ length: Math.min(LANES_PER_PARTITION, queue.length) }, () => lane(queue))));
  return out;
}

/** ADDs `count` to the tier's arrivals and answers the new count. */
async function takeArrivals(deps: Pick<PlatformDeps, 'db' | 'table'>, game: string, season: Season, tier: number, count: number): Promise<number> {
  const out = await deps.db.send(
    new UpdateCommand({
      TableName: deps.table,
      Key: arrivalsKey(game, season, tier),
      UpdateExpression: 'SET #type = :type ADD arrived :count',
      ExpressionAttributeNames: { '#type': 'type' },
      ExpressionAttributeValues: { ':type': 'league_arrivals', ':count': count },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  // UPDATED_NEW answers the attributes the update set: the type and the count.
  return StoredArrivals.parse(out.Attributes).arrived;
}

/** Sets the player's tier and cohort on their score item, unless it has a cohort already; true when placed. */
async function placeOne(deps: Pick<PlatformDeps, 'db' | 'table'>, { candidate, tier, cohort }: Placement): Promise<boolean> {
  // False: placed already (by a consumer racing this one), or gone (the player deleted their account meanwhile).
  return conditionHeld(
    // Throttled (the score's partition is at its limit: reports and placements share it), or refused by a
    // report's transaction on the same item at the same moment (TransactionConflict): wait and write again. Past
    // the last try the batch fails, and is given again.
    retrying(
      () =>
        deps.db.send(
          new UpdateCommand({
            TableName: deps.table,
            Key: candidate.key,
            UpdateExpression: 'SET tier = :tier, cohort = :cohort, gsi3pk = :cohort, gsi3sk = :player',
            ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(cohort)',
            ExpressionAttributeValues: { ':tier': tier, ':cohort': cohort, ':player': candidate.player },
          }),
        ),
      {
        attempts: PLACEMENT_ATTEMPTS,
        retryOn: (error) => isWriteConflict(error) || isThrottled(error),
        pause: backOff(PAUSE_BASE_MS, PAUSE_CAP_MS),
        giveUp: rethrowLast,
      },
    ),
  );
}
