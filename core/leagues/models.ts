import * as z from 'zod/mini';
import { gamePlayerId, RankedEntry } from '../rankings/models.js';
import { MAX_REWARDED_RANK } from '../rewards/models.js';
import { baseUnits, exactInteger } from '../shared/amounts.js';
import { example } from '../shared/examples.js';
import { answered, gameCode } from '../shared/fields.js';

/**
 * A game's league (docs/api.md "Leagues"): its tiers, lowest first, each with how many of a cohort go up and down at
 * a season's end and what each rank of a cohort pays; the cohort size; how many tiers an idle player drops; the
 * board it ranks on; and its season.
 */
export const MAX_TIERS = 10;
export const MIN_COHORT = 10;
export const MAX_COHORT = 100;

const tierName = z.string().check(z.minLength(1), z.maxLength(40), z.regex(/^\S(.*\S)?$/, 'expected no leading or trailing space'), example('Gold'));
const count = z.int().check(z.minimum(0), z.maximum(MAX_COHORT));

const Tier = z.object({
  name: tierName,
  /** How many of a cohort of this tier move up a tier at the season's end (none from the top tier). */
  promote: z._default(count, 0),
  /** How many of a cohort of this tier move down a tier at the season's end (none from the lowest tier). */
  demote: z._default(count, 0),
  /**
   * What each rank of a cohort of this tier pays, in base units of the stage's payout coin; each rank at most once,
   * up to rank 99 (a cohort's entries are written in one transaction with its settled marker).
   */
  rewards: z._default(
    z.array(z.object({ rank: z.int().check(z.minimum(1), z.maximum(MAX_REWARDED_RANK)), amount: baseUnits() })).check(z.maxLength(MAX_REWARDED_RANK)),
    [],
  ),
});

export const LeagueRulesSave = z.lazy(() =>
  z
    .object({
      game_code: gameCode,
      /** The board a cohort ranks on. */
      board: z._default(z.enum(['wins', 'kills']), 'wins'),
      /** 1 a week, 2 a month. */
      season_type: z._default(z.union([z.literal(1), z.literal(2)]), 1),
      cohort_size: z.int().check(z.minimum(MIN_COHORT), z.maximum(MAX_COHORT)),
      /** How many tiers a player with no score in a season drops (0: none). */
      idle_drop: z._default(z.int().check(z.minimum(0), z.maximum(MAX_TIERS - 1)), 0),
      /** The tier (1 the lowest) a player's first season starts in. */
      start_tier: z._default(z.int().check(z.minimum(1), z.maximum(MAX_TIERS)), 1),
      tiers: z
        .array(Tier)
        .check(
          z.minLength(1),
          z.maxLength(MAX_TIERS),
          z.describe(
            'The tiers, lowest first: each named once; the top tier promotes no one and the lowest demotes no one; a tier moves at most cohort_size (promote and demote together); its reward ranks are at most cohort_size, each once; start_tier is at most the number of tiers.',
          ),
        ),
    })
    .check(
      z.superRefine((body, ctx) => {
        const issue = (path: (string | number)[], message: string) => ctx.issues.push({ code: 'custom', input: body, path, message });
        const last = body.tiers.length - 1;
        if (body.start_tier > body.tiers.length) issue(['start_tier'], `there are ${body.tiers.length} tiers`);
        const names = new Map<string, number>();
        body.tiers.forEach((tier, i) => {
          const first = names.get(tier.name);
          if (first !== undefined) issue(['tiers', i, 'name'], `tier name "${tier.name}" is used by tiers.${first} already`);
          names.set(tier.name, i);
          if (i === last && tier.promote > 0) issue(['tiers', i, 'promote'], 'the top tier promotes no one');
          if (i === 0 && tier.demote > 0) issue(['tiers', i, 'demote'], 'the lowest tier demotes no one');
          if (tier.promote + tier.demote > body.cohort_size)
            issue(['tiers', i, 'demote'], `promote and demote together exceed cohort_size ${body.cohort_size}`);
          const ranks = new Set<number>();
          tier.rewards.forEach((row, j) => {
            if (ranks.has(row.rank)) issue(['tiers', i, 'rewards', j, 'rank'], `rank ${row.rank} is paid twice`);
            else if (row.rank > body.cohort_size) issue(['tiers', i, 'rewards', j, 'rank'], `rank ${row.rank} is beyond cohort_size ${body.cohort_size}`);
            ranks.add(row.rank);
          });
        });
      }),
    ),
);
export type LeagueRulesSave = z.infer<typeof LeagueRulesSave>;

/** A league's rules as answered: the amounts as exact JSON integers and as decimal text. */
const ShownRules = z.object({
  board: z.enum(['wins', 'kills']),
  season_type: z.int(),
  cohort_size: z.int(),
  idle_drop: z.int(),
  start_tier: z.int(),
  tiers: z.array(
    z.object({
      tier: z.int(),
      name: z.string(),
      promote: z.int(),
      demote: z.int(),
      rewards: z.array(z.object({ rank: z.int(), amount: exactInteger(), amount_base: answered.baseUnits })),
    }),
  ),
  /** The first season these rules apply to (its first instant). */
  from: answered.time,
  updated_at: answered.time,
});
export type ShownRules = z.infer<typeof ShownRules>;

export const LeagueRules = z.lazy(() =>
  z.object({
    game_code: answered.gameCode,
    /** The rules of the current season; null when the game's league starts with a later season (or has none). */
    current: z.nullable(ShownRules),
    /** The rules of a later season, when a change is waiting for it; null when the current ones go on. */
    next: z.nullable(ShownRules),
    /** The coin the rewards are counted in (the stage's payout coin). */
    coin_type: answered.coinType,
  }),
);
export type LeagueRules = z.infer<typeof LeagueRules>;

export const LeagueQuery = z.lazy(() => z.object({ game_code: gameCode }));

export const StandingQuery = z.lazy(() => z.object({ game_code: gameCode, game_player_id: gamePlayerId }));
export type StandingQuery = z.infer<typeof StandingQuery>;

/** A player's league standing in the current season. */
export const LeagueStanding = z.lazy(() =>
  z.object({
    game_code: answered.gameCode,
    season_type: z.int(),
    season_range: answered.seasonRange,
    board: z.enum(['wins', 'kills']),
    game_player_id: answered.playerId,
    /** The player's tier this season (1 the lowest), and its name. */
    tier: z.int(),
    tier_name: z.string(),
    tiers: z.int(),
    /**
     * False until the player's first score of the season has placed them in a cohort (a moment after it is
     * reported): then `cohort` is null, `rank` null, `total` "0" and `players` empty.
     */
    placed: z.boolean(),
    cohort: z.nullable(z.string()),
    /** The player's rank in the cohort (exact, with their current total); null when not placed. */
    rank: z.nullable(z.int()),
    total: z.string(),
    /** Every player of the cohort by rank (equal totals: who reached the total first ranks higher). */
    players: z.array(RankedEntry),
    /** How many of the cohort go up and down at the season's end. */
    promote: z.int(),
    demote: z.int(),
    /** What each rank of a cohort of this tier pays, in base units of `coin_type`. */
    rewards: z.array(z.object({ rank: z.int(), amount: exactInteger(), amount_base: answered.baseUnits })),
    coin_type: answered.coinType,
  }),
);
export type LeagueStanding = z.infer<typeof LeagueStanding>;
