import * as z from 'zod/mini';
import { eitherForm } from '../platform/kept-answers.js';
import { EXAMPLE, example } from '../shared/examples.js';
import { answered, gameCode, intParam, text } from '../shared/fields.js';
import { suiAddress } from '../shared/sui-address.js';

/** How many partitions a season's scores of a game are spread over (shards.ts): 1 unless the studio sets more, 16 at most. */
export const DEFAULT_SHARDS = 1;
export const MAX_SHARDS = 16;

/** The most kills or wins one report may add for one player (a bound against typos and overflow). */
export const MAX_POINTS = 1_000_000;
/**
 * The most lines (so players) of one submitgamescore report. The report is one TransactWriteItems (at most 100
 * items): per player 2 score updates (week and month), + the result record = 97 at 48 (reports.ts; the
 * open-season records are written after it).
 */
export const MAX_REPORT_PLAYERS = 48;
/**
 * A result record as stored (reports.ts resultPut): the report's fingerprint (`request`; a SHA-256 of its
 * JSON.stringify in records written before fingerprintOf) and the answer, as JSON text (`response_json`) or, in
 * records written before, the answer itself (`response`); `expiresAt`, the table's TTL, in epoch seconds.
 */
export const StoredResult = z
  .object({ request: z.string(), response_json: z.optional(z.string()), response: z.optional(z.unknown()), expiresAt: z.number() })
  .check(eitherForm('response'));

/** gameRank's default and largest `limit`. */
export const MAX_BOARD = 100;

const points = z.int().check(z.minimum(0), z.maximum(MAX_POINTS), example(3));

/** A player of a game: the player's platform user id, or the game's own id for the player. */
export const gamePlayerId = z
  .string()
  .check(z.trim(), z.minLength(1), z.maxLength(128), z.regex(/^[^\p{Cc}]*$/u, 'no control characters'), example(EXAMPLE.playerId));
/** The name shown on the boards; may be empty. The latest report's name is the one shown. */
const gamePlayerName = text(64).check(z.regex(/^[^\p{Cc}]*$/u, 'no control characters'), example(EXAMPLE.playerName));
/** A game's id for one finished match or report: the same id is counted once. */
export const resultId = z.string().check(z.regex(/^[\w.:-]{1,128}$/, 'expected 1-128 letters, digits, _ . : or -'), example(EXAMPLE.resultId));

const positiveSomewhere = z.refine<{ kills: number; wins: number }>((entry) => entry.kills > 0 || entry.wins > 0, {
  error: 'kills or wins must be positive',
  path: ['kills'],
});

/** positiveSomewhere's rule, stated on each of its fields (a generated client keeps a field's description). */
const killsOrWins = z.describe('kills or wins must be above 0: a report of neither is refused.');

/** addWin: one player's kills and wins, added to the current week and month. */
export const AddWinBody = z
  .object({
    game_code: gameCode,
    game_player_id: gamePlayerId,
    game_player_name: gamePlayerName,
    wallet_address: z.optional(suiAddress),
    kills: points.check(killsOrWins),
    wins: points.check(killsOrWins),
    result_id: z.optional(resultId),
  })
  .check(positiveSomewhere);
export type AddWinBody = z.infer<typeof AddWinBody>;

/** One player's line of a submitgamescore report. A line of 0 kills and 0 wins records the player at 0. */
export const ScoreLine = z.lazy(() =>
  z.object({
    game_player_id: gamePlayerId,
    game_player_name: gamePlayerName,
    wallet_address: z.optional(suiAddress),
    kills: points,
    wins: points,
  }),
);

/** submitgamescore: the result of one match, counted once per result id. */
export const ScoreReport = z.lazy(() =>
  z.object({
    game_code: gameCode,
    result_id: resultId,
    scores: z.array(ScoreLine).check(z.minLength(1), z.maxLength(MAX_REPORT_PLAYERS)),
  }),
);
export type ScoreReport = z.infer<typeof ScoreReport>;

export const SeasonRef = z.lazy(() =>
  z.object({
    /** 1 week, 2 month. */
    season_type: z.int(),
    season_range: answered.seasonRange,
  }),
);

export const AddWinResult = z.lazy(() =>
  z.object({
    game_code: answered.gameCode,
    game_player_id: answered.playerId,
    /** What this report added (not the new totals). */
    kills: z.int(),
    wins: z.int(),
    result_id: z.optional(z.string().check(example(EXAMPLE.resultId))),
    /** The seasons it was added to: the week and the month current when it was first received. */
    seasons: z.array(SeasonRef),
  }),
);
export type AddWinResult = z.infer<typeof AddWinResult>;

export const ScoreResult = z.lazy(() =>
  z.object({
    game_code: answered.gameCode,
    result_id: z.string().check(example(EXAMPLE.resultId)),
    /** Distinct players counted (lines of the same player are added together). */
    players: z.int(),
    seasons: z.array(SeasonRef),
  }),
);
export type ScoreResult = z.infer<typeof ScoreResult>;

export const RankQuery = z.lazy(() =>
  z.object({
    game_code: gameCode,
    limit: z._default(intParam({ min: 1, max: MAX_BOARD }), MAX_BOARD),
  }),
);

/** The contract's Rank entry (docs/api.md, "The compatibility contract"). */
export const RankEntry = z.lazy(() =>
  z.object({
    total: z.string(),
    game_player_id: answered.playerId,
    game_player_name: answered.playerName,
  }),
);
export type RankEntry = z.infer<typeof RankEntry>;

/** gameRank's data (the contract's names, `Moth` included). */
export const GameRank = z.lazy(() =>
  z.object({
    gameWeekKillRank: z.array(RankEntry),
    gameWeekWinRank: z.array(RankEntry),
    gameMothKillRank: z.array(RankEntry),
    gameMothWinRank: z.array(RankEntry),
  }),
);
export type GameRank = z.infer<typeof GameRank>;

/** Sets a game's board shard count (shards.ts): for the seasons that start once the change applies. */
export const BoardShardsSave = z.lazy(() =>
  z.object({
    game_code: gameCode,
    shards: z.int().check(z.minimum(1), z.maximum(MAX_SHARDS)),
  }),
);
export type BoardShardsSave = z.infer<typeof BoardShardsSave>;

/** A game's board shard setting: its changes kept (rankings/shards.ts keptChanges), and the K of its current seasons. */
export const BoardShards = z.lazy(() =>
  z.object({
    game_code: answered.gameCode,
    /** The K of seasons that start from now on (the last change's, or the default 1). */
    shards: z.int(),
    /** The current week's and month's K (each keeps the K in effect at its start, or a launch change's once it applies). */
    week_shards: z.int(),
    month_shards: z.int(),
    /** The changes kept, oldest first: K from the instant `from` on (ISO; 10 minutes after the change was made). */
    changes: z.array(
      z.object({
        shards: z.int(),
        from: answered.time,
        /** The current seasons without score it was made in (`W#…`/`M#…`), with the shards they had: it applies to them too if they still have none at `from`. */
        seasons: z.optional(z.array(z.object({ season: z.string(), was: z.int() }))),
      }),
    ),
  }),
);
export type BoardShards = z.infer<typeof BoardShards>;

/** The most players above and below a player that rank_around answers. */
export const MAX_AROUND = 25;

/** rank_around: one player's place on one board of one season (the current one unless named). */
export const RankAroundQuery = z.lazy(() =>
  z.object({
    game_code: gameCode,
    board: z.enum(['kills', 'wins']),
    /** 1 week, 2 month. */
    season_type: intParam({ min: 1, max: 2 }),
    /** The season's first and last day (YYYY-MM-DD-MM-DD); the current season of `season_type` when absent. */
    season_range: z.optional(z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}-\d{2}-\d{2}$/, 'expected YYYY-MM-DD-MM-DD'), example(EXAMPLE.seasonRange))),
    game_player_id: gamePlayerId,
    around: z._default(intParam({ min: 0, max: MAX_AROUND }), 10),
    /** `game` (the default): the game's whole board; `cohort`: the player's league cohort this season (core/leagues). */
    scope: z._default(z.enum(['game', 'cohort']), 'game'),
  }),
);
export type RankAroundQuery = z.infer<typeof RankAroundQuery>;

/** A player on a board with their rank (1 is the top). */
export const RankedEntry = z.lazy(() =>
  z.object({
    rank: z.int(),
    total: z.string(),
    game_player_id: answered.playerId,
    game_player_name: answered.playerName,
  }),
);
export type RankedEntry = z.infer<typeof RankedEntry>;

/** rank_around's answer: the player's rank and total, and the players just above and below. */
export const PlayerRank = z.lazy(() =>
  z.object({
    game_code: answered.gameCode,
    board: z.enum(['kills', 'wins']),
    season_type: z.int(),
    season_range: answered.seasonRange,
    game_player_id: answered.playerId,
    /** False when the player has no score on this board: then rank is null, total "0" and the lists are empty. */
    ranked: z.boolean(),
    rank: z.nullable(z.int()),
    total: z.string(),
    /** Up to `around` players just above, the nearest last. */
    above: z.array(RankedEntry),
    /** Up to `around` players just below, the nearest first. */
    below: z.array(RankedEntry),
    /** Players on the board as of `as_of`. */
    players: z.int(),
    /** When the board's other players were last brought up to date (ISO); null before its first change. */
    as_of: z.nullable(answered.time),
    /**
     * Where the other players' standings come from: `live`, the board's head, a stream batch behind the reports
     * (the top of the board, at least its top 10,000, or all of a smaller board); `snapshot`, the whole board as
     * read at `as_of`, at most about a minute old; `cohort`, the player's league cohort (`scope=cohort`), its players'
     * totals a moment behind the reports at most.
     */
    standings: z.enum(['live', 'snapshot', 'cohort']),
  }),
);
export type PlayerRank = z.infer<typeof PlayerRank>;
