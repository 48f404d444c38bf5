import { PutCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod/mini';
import type { PlatformDeps } from '../platform/deps.js';
import { remember } from '../platform/process-memory.js';
import { queryItems } from '../platform/query.js';
import { transactOrFailures, type TransactItem } from '../platform/transactions.js';
import { type Season, type SeasonTypeValue, seasonOf } from '../rankings/seasons.js';
import type { RewardsDeps } from '../rewards/deps.js';
import { payoutCoin, shownRows } from '../rewards/table.js';
import { RULES_PREFIX, rulesKey, rulesPartition } from './keys.js';
import type { LeagueRules, LeagueRulesSave, ShownRules } from './models.js';

/**
 * A game's league rules (docs/api.md "Leagues"). A change applies from the next season of its kind: the rules of a
 * season that has begun never change, so each process keeps them once read. Each change is an item of its own,
 * keyed by the first season it applies to (keys.ts rulesKey); a season's rules are the latest that began at or
 * before it. A change made while another waits for a later season replaces it.
 */
export const StoredRules = z.object({
  game_code: z.string(),
  board: z.enum(['wins', 'kills']),
  season_type: z.union([z.literal(1), z.literal(2)]),
  cohort_size: z.int(),
  idle_drop: z.int(),
  start_tier: z.int(),
  tiers: z.array(
    z.object({
      name: z.string(),
      promote: z.int(),
      demote: z.int(),
      rewards: z.array(z.object({ rank: z.int(), amount: z.union([z.number(), z.bigint()]) })),
    }),
  ),
  from: z.string(),
  updated_at: z.string(),
});
export type StoredRules = z.infer<typeof StoredRules>;

/** Saves a change of the league of one of the caller's games (the authorization layer has checked it is theirs). */
export async function setLeagueRules(deps: RewardsDeps, input: LeagueRulesSave): Promise<LeagueRules> {
  const now = deps.now();
  const from = seasonOf(input.season_type as SeasonTypeValue, now).end;
  const stored: StoredRules = {
    game_code: input.game_code,
    board: input.board,
    season_type: input.season_type,
    cohort_size: input.cohort_size,
    idle_drop: input.idle_drop,
    start_tier: input.start_tier,
    tiers: input.tiers.map((tier) => ({
      name: tier.name,
      promote: tier.promote,
      demote: tier.demote,
      rewards: tier.rewards.map(({ rank, amount }) => ({ rank, amount: BigInt(amount) })).sort((a, b) => a.rank - b.rank),
    })),
    from: from.toISOString(),
    updated_at: now.toISOString(),
  };
  const { current, waiting } = await versionsOf(deps, input.game_code, now);
  const put = { TableName: deps.table, Item: { ...rulesKey(input.game_code, from), type: 'league_rules', ...stored } };
  const replaced: TransactItem[] = waiting
    .filter((version) => version.from !== stored.from)
    .map((version) => ({ Delete: { TableName: deps.table, Key: rulesKey(version.game_code, new Date(version.from)) } }));
  // A lone Put costs half a transaction's units; a change that replaces another waiting one deletes it in the same write.
  if (replaced.length === 0) await deps.db.send(new PutCommand(put));
  else await transactOrFailures(deps, [{ Put: put }, ...replaced]);
  return { game_code: input.game_code, current: current ? shown(current) : null, next: shown(stored), coin_type: payoutCoin(deps) };
}

/** The rules of the current season and the change waiting for a later one, if any. */
export async function leagueRulesOf(deps: RewardsDeps, game: string): Promise<LeagueRules> {
  const { current, waiting } = await versionsOf(deps, game, deps.now());
  return {
    game_code: game,
    current: current ? shown(current) : null,
    next: waiting[0] ? shown(waiting[0]) : null,
    coin_type: payoutCoin(deps),
  };
}

/** The rules in force now (the latest that began), and those waiting for a later season, earliest first. */
async function versionsOf(deps: Pick<PlatformDeps, 'db' | 'table'>, game: string, now: Date) {
  const items = await queryItems(deps, {
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :rules)',
    ExpressionAttributeValues: { ':pk': rulesPartition(game), ':rules': RULES_PREFIX },
    ConsistentRead: true,
  });
  const versions = items.map((item) => StoredRules.parse(item));
  const begun = versions.filter((version) => new Date(version.from) <= now);
  return { current: begun.at(-1), waiting: versions.filter((version) => new Date(version.from) > now) };
}

/** Rules of seasons that have begun, per process (core/platform/process-memory.ts): they never change (see the top of the file). */
const known = new Map<string, Promise<StoredRules | undefined>>();

/**
 * The rules of a season that has begun: the latest change that began at or before it, when it is a league of that
 * season's kind; undefined when the game runs no league in it.
 */
export function rulesForSeason(deps: Pick<PlatformDeps, 'db' | 'table'>, game: string, season: Season): Promise<StoredRules | undefined> {
  const id = `${deps.table}\u0000${game}\u0000${season.type}\u0000${season.start.toISOString()}`;
  let rules = known.get(id);
  if (!rules) {
    rules = latestAt(deps, game, season).catch((error: unknown) => {
      known.delete(id);
      throw error;
    });
    remember(known, id, rules);
  }
  return rules;
}

async function latestAt(deps: Pick<PlatformDeps, 'db' | 'table'>, game: string, season: Season): Promise<StoredRules | undefined> {
  const [item] = await queryItems(
    deps,
    {
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :first AND :last',
      ExpressionAttributeValues: { ':pk': rulesPartition(game), ':first': RULES_PREFIX, ':last': rulesKey(game, season.start).sk },
      ScanIndexForward: false,
      ConsistentRead: true,
    },
    1,
  );
  const rules = item ? StoredRules.parse(item) : undefined;
  return rules?.season_type === season.type ? rules : undefined;
}

/** The current season of the game's league and its rules; undefined when it runs none now. */
export async function currentLeague(
  deps: Pick<PlatformDeps, 'db' | 'table' | 'now'>,
  game: string,
): Promise<{ season: Season; rules: StoredRules } | undefined> {
  const now = deps.now();
  const seasons = [seasonOf(1, now), seasonOf(2, now)];
  const found = await Promise.all(seasons.map((season) => rulesForSeason(deps, game, season)));
  // After a change of the season's kind, the season of the later rules is the league's (the other ends as it began).
  let league: { season: Season; rules: StoredRules } | undefined;
  found.forEach((rules, i) => {
    if (rules && (!league || rules.from > league.rules.from)) league = { season: seasons[i]!, rules };
  });
  return league;
}

function shown(rules: StoredRules): ShownRules {
  return {
    board: rules.board,
    season_type: rules.season_type,
    cohort_size: rules.cohort_size,
    idle_drop: rules.idle_drop,
    start_tier: rules.start_tier,
    tiers: rules.tiers.map((tier, i) => ({ tier: i + 1, name: tier.name, promote: tier.promote, demote: tier.demote, rewards: shownRows(tier.rewards) })),
    from: rules.from,
    updated_at: rules.updated_at,
  };
}
