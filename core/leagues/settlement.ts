import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod/mini';
import { readItems } from '../platform/batch.js';
import { conditionHeld } from '../platform/conditional-failure.js';
import { logError } from '../platform/log.js';
import { goneKey } from '../platform/players.js';
import { queryItems } from '../platform/query.js';
import { transactOrFailedConditions } from '../platform/transactions.js';
import { toScoreItem } from '../rankings/items.js';
import { type Season, seasonOf } from '../rankings/seasons.js';
import { standingOf } from '../rankings/season-scores.js';
import type { RewardsDeps } from '../rewards/deps.js';
import { historyEntriesOf, historyEntryPut, type Placing } from '../rewards/entries.js';
import type { AlsoSettled } from '../rewards/settlement-job.js';
import { toBigInt } from '../shared/amounts.js';
import {
  arrivalsPrefix,
  COHORT_INDEX,
  cohortHistoryPartition,
  cohortPartition,
  cohortSettledKey,
  OPEN_LEAGUE_SEASONS,
  openLeagueSeasonKey,
  rulesPartition,
  settledPrefix,
  tierKey,
} from './keys.js';
import { StoredArrivals, StoredLeagueSeason } from './placement.js';
import { rulesForSeason, type StoredRules } from './rules.js';
import { cohortOrder } from './standing.js';

/**
 * A league season's settlement (docs/api.md "Leagues"), cohort by cohort, each exactly once:
 * 1. the cohort is ranked in the boards' order (equal totals: who reached them first) from its index partition;
 *    players who deleted their account are not in it (their score item went with them) and one whose deletion
 *    has just begun is left out by their gone mark;
 * 2. each player's tier for the next season is put (keys.ts tierKey) on condition it was not written for it yet:
 *    the top `promote` move up a tier, the bottom `demote` (of the others) down, the rest stay;
 * 3. one transaction puts the cohort's settled marker, on condition it is absent, with a history entry for each
 *    rank the tier's rewards pay (core/rewards/entries.ts): the claims of the existing verifier pay them.
 * A run that stops anywhere is finished by the next (the tiers written are not written again, the marker and the
 * entries go together or not at all); a cohort whose marker is there is skipped before anything is read, so
 * settling again writes nothing, and two runs at once write each tier and the entries once (the loser's
 * conditions fail). Idle players are written nothing (core/leagues/tiers.ts counts their drop when next seen).
 */

/** Seasons whose end is less than this long ago are left to the next run: the stream places the last arrivals first. */
export const LEAGUE_GRACE_MS = 2 * 60_000;
/** Cohorts settled side by side. */
const CONCURRENCY = 8;

/**
 * "a cohort settled" (keys.ts cohortSettledKey) as stored: what its settlement did, for whoever looks. Settlement
 * itself reads only its key (a cohort whose marker is there is skipped).
 */
export const StoredCohortSettled = z.object({
  game_code: z.string(),
  players: z.int(),
  promoted: z.int(),
  demoted: z.int(),
  entries: z.int(),
  settled_at: z.string(),
});

export interface LeagueSettlement {
  game_code: string;
  season_range: string;
  cohorts: number;
  /** Cohorts this run settled (the others were settled before). */
  settled_now: number;
}

/** Settles every cohort of a league season that has ended; answers how many there were and how many it settled. */
export async function settleLeagueSeason(deps: RewardsDeps, game: string, season: Season): Promise<LeagueSettlement> {
  const rules = await rulesForSeason(deps, game, season);
  const result = { game_code: game, season_range: season.range, cohorts: 0, settled_now: 0 };
  if (rules) {
    const [arrivals, settled] = await Promise.all([listed(deps, game, arrivalsPrefix(season)), listed(deps, game, settledPrefix(season))]);
    const done = new Set(settled.map((item) => String(item.sk)));
    const cohorts: { tier: number; cohort: number }[] = [];
    for (const item of arrivals) {
      const tier = Number(String(item.sk).slice(arrivalsPrefix(season).length));
      const { arrived } = StoredArrivals.parse(item);
      for (let cohort = 0; cohort * rules.cohort_size < arrived; cohort++) cohorts.push({ tier, cohort });
    }
    result.cohorts = cohorts.length;
    const pending = cohorts.filter(({ tier, cohort }) => !done.has(cohortSettledKey(game, season, tier, cohort).sk));
    let next = 0;
    // A cohort that fails stops the others taking new cohorts, and the run answers its error only once every
    // worker has stopped: none is left writing after the run has answered (the next run would race it).
    let failure: { error: unknown } | undefined;
    const worker = async () => {
      while (!failure && next < pending.length) {
        const { tier, cohort } = pending[next++]!;
        try {
          if (await settleCohort(deps, game, season, rules, tier, cohort)) result.settled_now++;
        } catch (error) {
          failure ??= { error };
        }
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    if (failure) throw failure.error;
  }
  await deps.db.send(new DeleteCommand({ TableName: deps.table, Key: openLeagueSeasonKey(game, season) }));
  return result;
}

const listed = (deps: RewardsDeps, game: string, prefix: string) =>
  queryItems(deps, {
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': rulesPartition(game), ':prefix': prefix },
    ConsistentRead: true,
  });

/** One cohort's settlement (see the top of the file); true when this run wrote its marker. */
async function settleCohort(deps: RewardsDeps, game: string, season: Season, rules: StoredRules, tier: number, cohort: number): Promise<boolean> {
  const listedPlayers = await queryItems(deps, {
    IndexName: COHORT_INDEX,
    KeyConditionExpression: `${COHORT_INDEX}pk = :cohort`,
    ExpressionAttributeValues: { ':cohort': cohortPartition(game, season, tier, cohort) },
  });
  const scores = listedPlayers.map(toScoreItem);
  const gone = await readItems(
    deps,
    scores.map((player) => goneKey(player.game_player_id)),
  );
  const ranked = cohortOrder(
    rules.board,
    scores.filter((_, i) => gone[i] === undefined),
  );
  const rule = rules.tiers[tier - 1]!;
  const promote = tier < rules.tiers.length ? Math.min(rule.promote, ranked.length) : 0;
  const demote = tier > 1 ? Math.min(rule.demote, ranked.length - promote) : 0;
  const nextTier = (i: number) => (i < promote ? tier + 1 : i >= ranked.length - demote ? tier - 1 : tier);
  const from = season.end.toISOString();
  // Every tier's write ends before a failure is answered, as the cohorts' workers do.
  const written = await Promise.allSettled(ranked.map((player, i) => putTier(deps, player.game_player_id, game, nextTier(i), from)));
  const refused = written.find((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
  if (refused) throw refused.reason;

  const amountOf = new Map(rule.rewards.map((row) => [row.rank, toBigInt(row.amount)]));
  const placings: Placing[] = ranked.flatMap((player, i) => {
    const amount = amountOf.get(i + 1);
    if (!amount) return [];
    return [
      {
        playerId: player.game_player_id,
        rank: i + 1,
        score: standingOf(rules.board, player).score,
        name: player.game_player_name,
        wallet: player.wallet_address || undefined,
        amount,
      },
    ];
  });
  const now = deps.now().toISOString();
  const marker = {
    ...cohortSettledKey(game, season, tier, cohort),
    type: 'league_cohort_settled',
    game_code: game,
    players: ranked.length,
    promoted: promote,
    demoted: demote,
    entries: placings.length,
    settled_at: now,
  };
  if (placings.length === 0) {
    return conditionHeld(deps.db.send(new PutCommand({ TableName: deps.table, Item: marker, ConditionExpression: 'attribute_not_exists(pk)' })));
  }
  const entries = await historyEntriesOf(deps, game, season, placings, now);
  const listing = cohortHistoryPartition(game, season, tier, cohort);
  const failed = await transactOrFailedConditions(deps, [
    { Put: { TableName: deps.table, Item: marker, ConditionExpression: 'attribute_not_exists(pk)' } },
    ...entries.map((entry) => historyEntryPut(deps.table, entry, season, listing)),
  ]);
  return failed.length === 0;
}

/** A player's tier from the next season on, unless this season's settlement wrote it already. */
async function putTier(deps: RewardsDeps, player: string, game: string, tier: number, from: string) {
  await conditionHeld(
    deps.db.send(
      new PutCommand({
        TableName: deps.table,
        Item: { ...tierKey(player, game), type: 'league_tier', game_code: game, tier, from },
        ConditionExpression: 'attribute_not_exists(pk) OR #from < :from',
        ExpressionAttributeNames: { '#from': 'from' },
        ExpressionAttributeValues: { ':from': from },
      }),
    ),
  );
}

/**
 * Every league season that ended (more than LEAGUE_GRACE_MS ago) and is still to settle, found with one Query of
 * `LEAGUE_SEASONS`, settled one after another until `deadline`; a season that fails is logged and left for the
 * next run.
 */
export async function settleDueLeagueSeasons(deps: RewardsDeps, options: { deadline?: number } = {}): Promise<{ settled: LeagueSettlement[]; failed: number }> {
  const before = new Date(deps.now().getTime() - LEAGUE_GRACE_MS).toISOString();
  const due = await queryItems(deps, {
    KeyConditionExpression: 'pk = :pk AND sk < :before',
    ExpressionAttributeValues: { ':pk': OPEN_LEAGUE_SEASONS, ':before': before },
  });
  const run = { settled: [] as LeagueSettlement[], failed: 0 };
  for (const item of due) {
    if (options.deadline !== undefined && Date.now() >= options.deadline) break;
    const { game_code: game, season_type } = StoredLeagueSeason.parse(item);
    // The sort key begins with the season's end: its last instant is in the season.
    const end = new Date(String(item.sk).slice(0, 24));
    const season = seasonOf(season_type, new Date(end.getTime() - 1));
    try {
      run.settled.push(await settleLeagueSeason(deps, game, season));
    } catch (error) {
      run.failed++;
      await logError('league settlement: season failed; the next run retries it', {
        game,
        sk: item.sk,
        error: error instanceof Error ? error.message : String(error),
      });
    }
  }
  return run;
}

/** The leagues' part of a settlement pass (core/rewards/settlement-job.ts `AlsoSettled`), as its run records it. */
export const leagueSettlement =
  (deps: RewardsDeps): AlsoSettled =>
  async (deadline) => {
    const run = await settleDueLeagueSeasons(deps, deadline === undefined ? {} : { deadline });
    return {
      did: {
        league_seasons_settled: run.settled.length,
        league_cohorts_settled: run.settled.reduce((sum, season) => sum + season.settled_now, 0),
        league_seasons_failed: run.failed,
      },
      failed: run.failed,
    };
  };
