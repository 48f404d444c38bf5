import { randomUUID } from 'node:crypto';
import { Ed25519Keypair } from '@mysten/sui/keypairs/ed25519';
import { ScoreReport } from '../core/rankings/models.js';
import { submitScores } from '../core/rankings/reports.js';
import type { Board } from '../core/rankings/keys.js';
import { applyHeadChanges } from '../core/rankings/rank-head.js';
import { boardStandings, readSeasonScores } from '../core/rankings/season-scores.js';
import { monthOf, weekOf } from '../core/rankings/seasons.js';
import { signClaim } from '../core/rewards/claims.js';
import { seasonHistory } from '../core/rewards/history.js';
import { settleSeason } from '../core/rewards/settlement.js';
import { claimableGame, pastWeek, rewardGame, scoresInPastWeek } from '../test/support/rewards.js';
import { accountWithToken, playerWithTokens, type BenchDeps } from './fixtures.js';
import type { OperationBench } from './operation-bench.js';
import { ownerOf } from '../core/access/owners.js';
import { shardsSince } from '../test/support/rankings.js';

type Game = Awaited<ReturnType<typeof rewardGame>>;

const wallet = () => Ed25519Keypair.generate().toSuiAddress();
const line = (id: string, kills: number, wins: number) => ({ game_player_id: id, game_player_name: `Player ${id}`, kills, wins });
const report = (game: Game, lines = [line('p1', 3, 1), line('p2', 1, 2), line('p3', 2, 0)]) =>
  ScoreReport.parse({ game_code: game.code, result_id: `match-${randomUUID()}`, scores: lines });

/**
 * A game this process has reported scores of already (a match of three players). That is the steady
 * state of addWin, submitgamescore and gameRank: the game's owner is remembered (core/access/owners.ts, as the
 * authorization layer reads it for a report), so is its board shard setting (core/rankings/shards.ts, for a
 * minute), and the open-season records of the current week and month are written (core/rankings/known.ts). A process's first report of a game makes one more GetItem (the owner), as
 * does its first gameRank of the game.
 */
async function reportedGame(deps: BenchDeps) {
  const game = await rewardGame(deps);
  await ownerOf(deps, 'game', game.code);
  await submitScores(deps, report(game));
  return game;
}

/**
 * The four boards' live heads of a game's current week and month as the stream's consumer leaves them after its
 * reports (core/rankings/rank-head.ts): each board's standings, from its score items, put in the head at once.
 */
async function keptHeads(deps: BenchDeps, game: string) {
  for (const season of [weekOf(deps.now()), monthOf(deps.now())]) {
    const scores = await readSeasonScores(deps, game, season, true);
    for (const board of ['kills', 'wins'] as Board[]) {
      const changes = boardStandings(board, scores).map((after) => ({ id: after.id, after }));
      if (changes.length > 0) await applyHeadChanges(deps, { board, game, season }, changes);
    }
  }
}

/** A game paying ranks 1-3 whose past week (ended) has four players, reported with their wallets. */
async function endedWeek(deps: BenchDeps, first = { id: `p-${randomUUID()}`, wallet: wallet() }) {
  // A game with its on-chain object: a claim names the object that may pay it.
  const game = await claimableGame(deps, [
    { rank: 1, amount: 500 },
    { rank: 2, amount: 200 },
    { rank: 3, amount: 100 },
  ]);
  const rivals = [3, 2, 1].map((wins) => ({ id: `p-${randomUUID()}`, wallet: wallet(), wins }));
  await scoresInPastWeek(deps, game, [{ ...first, wins: 9 }, ...rivals]);
  return game;
}

const seasonBody = (game: Game) => ({ game_code: game.code, season_type: 1, season_range: pastWeek().range });

/** A player with a wallet account and a platform token, first of a settled week: their entry pays 500. */
async function playerReward(deps: BenchDeps) {
  const player = await playerWithTokens(deps);
  const game = await endedWeek(deps, { id: player.uid, wallet: player.address });
  await settleSeason(deps, game.code, pastWeek());
  const [entry] = await seasonHistory(deps, game.code, pastWeek());
  return { player, game, id: entry!.id };
}

async function signedReward(deps: BenchDeps) {
  const reward = await playerReward(deps);
  await signClaim(deps, await deps.tokens.verify(reward.player.platform, ['platform']), reward.id);
  return reward;
}

/** Scores of the current seasons (addWin, submitgamescore, gameRank), reward tables, settlement, history and claims. */
export const rankingOperations: OperationBench[] = [
  {
    group: 'boards',
    op: 'addWin',
    minimum: 2,
    reason:
      "the account state and the player's gone mark read fresh in one BatchGet (it moves value: suspension, revocation; a deleted player is not written) + one transaction (the player's week and month scores); the game's owner and its board shard setting are remembered per process (its first report of the game: +1 GetItem each; the setting read again each minute)",
    units: {
      write: 4,
      read: 3,
      why: "the account state and the gone mark read fresh (3 × 1); one transaction: the player's week and month score items, under 1 KB each (2 × 2). No gone-mark check in the transaction (a write unit pair a player; a deletion racing the read is swept). No index orders the score items: the ranks are kept from the table's stream (core/rankings/rank-head.ts), outside the report",
    },
    prepare: async (deps) => {
      const game = await reportedGame(deps);
      return { token: game.server, body: { ...line('p1', 1, 1), game_code: game.code } };
    },
  },
  {
    group: 'chain',
    op: 'submitgamescore',
    minimum: 2,
    reason:
      "the account state and the players' gone marks read fresh in one BatchGet (it moves value; deleted players are skipped) + one transaction (result record on condition, week and month scores of each player); the game's owner and board shard setting remembered per process",
    units: {
      write: 14,
      read: 5,
      why: "the account state and 3 gone marks read fresh (5 × 1); one transaction: the result record (2), each player's week and month score items, under 1 KB each (6 × 2); no index entry (the ranks are kept from the stream)",
    },
    prepare: async (deps) => {
      const game = await reportedGame(deps);
      return { token: game.server, body: report(game) };
    },
  },
  {
    group: 'chain',
    op: 'submitgamescore',
    label: 'submitgamescore (same result_id again)',
    minimum: 2,
    reason:
      "the account state and the players' gone marks read fresh (one BatchGet) + one transaction refused on the result record, whose cancellation can carry the stored record (ReturnValuesOnConditionCheckFailure) to compare and answer",
    units: {
      write: 0,
      read: 6,
      why: 'the account state and 3 gone marks read fresh (5) + the stored result, strongly consistent (it decides the answer: 1); nothing is written. Measured: the transaction refused on the result record, charged as if its items were written (bench/capacity.ts)',
    },
    prepare: async (deps) => {
      const game = await reportedGame(deps);
      const body = report(game);
      await submitScores(deps, body);
      return { token: game.server, body };
    },
  },
  {
    group: 'boards',
    op: 'gameRank',
    minimum: 1,
    reason:
      "one BatchGetItem of the four boards' top items (kills and wins of the week and the month: each board's first 100, kept from the stream, core/rankings/rank-head.ts); the game's existence remembered per process (first time: +1 GetItem)",
    units: {
      write: 0,
      read: 2,
      why: 'the four top items, eventually consistent (the top is a stream batch behind already), each under 4 KB (100 standings deflated: 4 × 0.5)',
    },
    prepare: async (deps) => {
      const game = await reportedGame(deps);
      await keptHeads(deps, game.code);
      return { query: { game_code: game.code } };
    },
  },
  {
    group: 'boards',
    op: 'gameRank',
    label: 'gameRank (a game of 16 shards)',
    minimum: 1,
    reason:
      "one BatchGetItem of the four boards' top items, whatever the game's shards (a board's head holds all its shards together); the game's existence remembered per process",
    units: { write: 0, read: 2, why: 'the four top items, eventually consistent, each under 4 KB (4 × 0.5): the shards change nothing' },
    prepare: async (deps) => {
      const game = await rewardGame(deps);
      await shardsSince(deps, game.code, 16);
      await ownerOf(deps, 'game', game.code);
      await submitScores(deps, report(game));
      await keptHeads(deps, game.code);
      return { query: { game_code: game.code } };
    },
  },
  {
    group: 'boards',
    op: 'rank_around',
    minimum: 2,
    reason:
      "one BatchGet of the player's score item, the board's head directory and its snapshot directory (which of the two ranks the player is known only with the player's standing), one of the player's rank page and the pages beside it, from the head or the snapshot (core/rankings/around.ts); the player's own platform token: no account state; the game's existence and shard setting remembered per process",
    units: {
      write: 0,
      read: 4,
      why: "the player's score item (their own latest total) with both directories, strongly consistent in one BatchGet (3 × 1: the head's directory moves with every stream batch, and a page read must match it) + the pages' BatchGet (1 here, one head page of a small board; on a large board 3 pages: head pages of up to 200 players, under 4 KB each, or snapshot pages of up to 1,000, up to about 12 KB)",
    },
    prepare: async (deps) => {
      const game = await reportedGame(deps);
      await keptHeads(deps, game.code);
      const token = (await deps.tokens.issue('platform', 'p2')).token;
      return { token, query: { game_code: game.code, board: 'kills', season_type: 1, game_player_id: 'p2' } };
    },
  },
  {
    group: 'boards',
    op: 'board_shards_set',
    minimum: 4,
    reason:
      "a new game, whose current week and month have no score yet, so the change applies to them too (a launch): the setting read fresh (GetItem), each current season's emptiness under its K (one Query of one item per shard, both seasons side by side), and one UpdateItem writing the changes on condition they are as read: 3 round trips; the owner is checked by the authorization layer, remembered per process",
    units: {
      write: 4,
      read: 3,
      why: "the setting and the two seasons' first score read strongly consistent, since the change decides on them (3 × 1) + one UpdateItem writing the changes (1) and the game's three index entries rewritten (3)",
    },
    prepare: async (deps) => {
      const game = await rewardGame(deps);
      return { token: game.owner.token, body: { game_code: game.code, shards: 8 } };
    },
  },
  {
    group: 'boards',
    op: 'board_shards_get',
    minimum: 1,
    reason: "the game item's setting, read fresh (GetItem)",
    units: { write: 0, read: 1, why: 'the setting read fresh (1)' },
    prepare: async (deps) => {
      const game = await rewardGame(deps);
      return { token: game.owner.token, query: { game_code: game.code } };
    },
  },
  {
    group: 'boards',
    op: 'reward_table_set',
    minimum: 1,
    reason: "table Put (the game's owner is checked by the authorization layer, remembered per process)",
    units: { write: 1, read: 0, why: 'table Put, under 1 KB' },
    prepare: async (deps) => {
      const game = await rewardGame(deps);
      return {
        token: game.owner.token,
        body: {
          game_code: game.code,
          rewards: [
            { rank: 1, amount: 500 },
            { rank: 2, amount: 200 },
          ],
        },
      };
    },
  },
  {
    group: 'boards',
    op: 'reward_table_get',
    minimum: 1,
    reason: "table GetItem (the game's owner is remembered per process)",
    units: { write: 0, read: 0.5, why: 'table GetItem, only shown: eventually consistent' },
    prepare: async (deps) => {
      const game = await rewardGame(deps, [{ rank: 1, amount: 500 }]);
      return { token: game.owner.token, query: { game_code: game.code } };
    },
  },
  {
    group: 'boards',
    op: 'history_test',
    label: 'history test (settles the season)',
    minimum: 5,
    reason:
      "the game's GetItem (404 for an unknown game) + one BatchGet (reward table, settled marker) + board Query + history id counter + one transaction (marker, entries, season item deleted); players reported with wallets (else +1 BatchGet of accounts)",
    units: {
      write: 17,
      read: 2.5,
      why: "the game (0.5) + reward table, settled marker and season item, eventually consistent as the marker's condition decides (1.5) + the board Query (0.5); history id counter (1) + one transaction: the marker (2), each entry (2) and its two index entries (2; 3 entries here), the season item deleted (2)",
    },
    prepare: async (deps) => ({ token: (await accountWithToken(deps, 'admin')).token, body: seasonBody(await endedWeek(deps)) }),
  },
  {
    group: 'boards',
    op: 'history_test',
    label: 'history test (settled already)',
    minimum: 2,
    reason:
      "the game's GetItem (an unknown game is 404: no marker for it) + one BatchGet (reward table, settled marker, the season item): a leftover season item is deleted only when there",
    units: { write: 0, read: 2, why: 'the game (0.5) + reward table, marker and season item, eventually consistent (1.5)' },
    prepare: async (deps) => {
      const game = await endedWeek(deps);
      await settleSeason(deps, game.code, pastWeek());
      return { token: (await accountWithToken(deps, 'admin')).token, body: seasonBody(game) };
    },
  },
  {
    group: 'boards',
    op: 'history_rank',
    minimum: 1,
    reason: "Query of the season's history index, by rank",
    units: { write: 0, read: 0.5, why: "one Query of the season's history" },
    prepare: async (deps) => ({ query: seasonBody((await playerReward(deps)).game) }),
  },
  {
    group: 'boards',
    op: 'sign_code',
    label: 'sign_code (first time)',
    minimum: 3,
    reason:
      "whether the caller deleted their account (fresh on a write) with the entry (owner, amount, wallet: the signed message is made from it) in one BatchGet + the game's GetItem (its on-chain object, which the claim names) + conditional UpdateItem storing the claim",
    units: {
      write: 1,
      read: 2,
      why: "the gone mark read fresh (1) + the entry and the game, eventually consistent as the claim's condition decides (1); the claim stored once on condition, under 1 KB (1): the entry's index entries need not carry it",
    },
    prepare: async (deps) => {
      const { player, id } = await playerReward(deps);
      return { token: player.platform, body: { id } };
    },
  },
  {
    group: 'boards',
    op: 'sign_code',
    label: 'sign_code (signed already)',
    minimum: 1,
    reason: 'whether the caller deleted their account (fresh on a write) with the entry (the stored claim answers) in one BatchGet',
    units: { write: 0, read: 1.5, why: 'the gone mark read fresh (1) + the entry, eventually consistent (0.5)' },
    prepare: async (deps) => {
      const { player, id } = await signedReward(deps);
      return { token: player.platform, body: { id } };
    },
  },
  {
    group: 'boards',
    op: 'get_sign',
    minimum: 1,
    reason: 'the entry (the stored claim), one BatchGet',
    units: { write: 0, read: 0.5, why: 'the entry, only shown: eventually consistent' },
    prepare: async (deps) => {
      const { player, id } = await signedReward(deps);
      return { token: player.platform, query: { id } };
    },
  },
  {
    group: 'chain',
    op: 'gameCode',
    minimum: 1,
    reason:
      'Query of the all-games index, projected to code and chain ids; read once a minute per process (core/games/chain-ids.ts), and this is the first call since a game was created',
    units: {
      write: 0,
      read: 0.5,
      why: "the answer is each game's code and chain ids: an index projecting only those reads about 60 B a game (61 games here: 0.5); the all-games index reads every attribute, once a minute per process, and a warm call reads nothing",
    },
    prepare: async (deps) => {
      await rewardGame(deps);
      return {};
    },
  },
  {
    group: 'chain',
    op: 'rewrad_history',
    minimum: 1,
    reason: "Query of the player's rewards index, newest first",
    units: { write: 0, read: 0.5, why: "one Query of the player's rewards" },
    prepare: async (deps) => ({ token: (await playerReward(deps)).player.platform }),
  },
];
