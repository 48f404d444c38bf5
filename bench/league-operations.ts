import { randomUUID } from 'node:crypto';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { rulesKey } from '../core/leagues/keys.js';
import { placeNewPlayers } from '../core/leagues/placement.js';
import { currentLeague } from '../core/leagues/rules.js';
import { scoreKey } from '../core/rankings/keys.js';
import { ScoreReport } from '../core/rankings/models.js';
import { submitScores } from '../core/rankings/reports.js';
import { weekOf } from '../core/rankings/seasons.js';
import { seasonShards } from '../core/rankings/shards.js';
import { rewardGame } from '../test/support/rewards.js';
import type { BenchDeps } from './fixtures.js';
import type { OperationBench } from './operation-bench.js';

const tiers = [
  { name: 'Bronze', promote: 2, demote: 0, rewards: [{ rank: 1, amount: 500 }] },
  { name: 'Silver', promote: 0, demote: 2, rewards: [{ rank: 1, amount: 2_000 }] },
];

/** A game whose weekly league runs this week (its rules stored as if set last week), with a cohort of `players`. */
async function runningLeague(deps: BenchDeps, players: number) {
  const game = await rewardGame(deps);
  const week = weekOf(deps.now());
  await deps.db.send(
    new PutCommand({
      TableName: deps.table,
      Item: {
        ...rulesKey(game.code, week.start),
        type: 'league_rules',
        game_code: game.code,
        board: 'kills',
        season_type: 1,
        cohort_size: 10,
        idle_drop: 1,
        start_tier: 1,
        tiers,
        from: week.start.toISOString(),
        updated_at: week.start.toISOString(),
      },
    }),
  );
  const ids = Array.from({ length: players }, (_, i) => `p${i}`);
  await submitScores(
    deps,
    ScoreReport.parse({
      game_code: game.code,
      result_id: randomUUID(),
      scores: ids.map((id, i) => ({ game_player_id: id, game_player_name: id, kills: i + 1, wins: 0 })),
    }),
  );
  // What the stream's consumer does a moment after the report: each new player placed.
  const shards = await seasonShards(deps, game.code, week);
  const changes = await Promise.all(
    ids.map(async (id) => ({ after: (await deps.db.send(new GetCommand({ TableName: deps.table, Key: scoreKey(game.code, week, id, shards) }))).Item })),
  );
  await placeNewPlayers(deps, changes);
  // A process reads a begun season's rules once (one Query per season kind) and keeps them: the count is of the calls after.
  await currentLeague(deps, game.code);
  return { ...game, ids };
}

/** The leagues' operations of the boards group (docs/api.md "Leagues"). */
export const leagueOperations: OperationBench[] = [
  {
    group: 'boards',
    op: 'league_set',
    minimum: 2,
    reason:
      "the league's rules read fresh (one Query of their versions: the one in force and any waiting change) + the new version's Put (a waiting change replaced: one transaction deleting it instead); the owner is checked by the authorization layer, remembered per process",
    units: { write: 1, read: 1, why: 'the versions read fresh (1) + one Put under 1 KB (1)' },
    prepare: async (deps) => {
      const game = await rewardGame(deps);
      return { token: game.owner.token, body: { game_code: game.code, cohort_size: 20, tiers } };
    },
  },
  {
    group: 'boards',
    op: 'league_get',
    minimum: 1,
    reason: "one Query of the league's rule versions, read fresh (a studio reads what it just saved)",
    units: { write: 0, read: 1, why: 'the versions read fresh (1)' },
    prepare: async (deps) => {
      const game = await runningLeague(deps, 1);
      return { token: game.owner.token, query: { game_code: game.code } };
    },
  },
  {
    group: 'boards',
    op: 'league_standing',
    minimum: 2,
    reason:
      "one BatchGet of the player's score item (tier, cohort, their current total) and their tier, read fresh + one Query of the cohort's index partition (at most the cohort size); the season's rules and shards remembered per process (a season's rules never change once it has begun)",
    units: { write: 0, read: 2.5, why: 'the score item and the tier, strongly consistent (2 × 1) + the cohort, eventually consistent: 10 small items (0.5)' },
    prepare: async (deps) => {
      const game = await runningLeague(deps, 10);
      return { token: game.server, query: { game_code: game.code, game_player_id: game.ids[3]! } };
    },
  },
];
