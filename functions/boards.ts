import { createGroupApp } from '../core/http/app.js';
import type { Deps } from '../core/deps.js';
import { cohortAround } from '../core/leagues/standing.js';
import { rankAround } from '../core/rankings/around.js';
import { gameRank } from '../core/rankings/boards.js';
import { addWin, reportReads } from '../core/rankings/reports.js';
import { claimReads } from '../core/rewards/claims.js';
import { boardShardsOf, setBoardShards } from '../core/rankings/shards.js';
import { leagueHandlers } from './handlers/leagues.js';
import { boardRewardHandlers } from './handlers/rewards.js';
import { boardsRoutes } from './routes/boards.js';
import { deployedDeps, lambdaHandler } from './deployed.js';

/** The boards group: score reports, the boards, a player's rank, the seasons' rewards and the leagues. Routes only translate HTTP to core/rankings, core/rewards and core/leagues. */
export const createBoardsApp = (deps: Deps) =>
  createGroupApp(
    deps,
    boardsRoutes,
    {
      addWin: ({ deps, body }) => addWin(deps, body),
      gameRank: ({ deps, query }) => gameRank(deps, query.game_code, query.limit),
      rank_around: ({ deps, query }) => (query.scope === 'cohort' ? cohortAround(deps, query) : rankAround(deps, query)),
      board_shards_set: async ({ deps, body }) => boardShardsOf(deps, body.game_code, await setBoardShards(deps, body.game_code, body.shards)),
      board_shards_get: ({ deps, query }) => boardShardsOf(deps, query.game_code),
      ...boardRewardHandlers,
      ...leagueHandlers,
    },
    { reads: { addWin: ({ body }) => reportReads.addWin(body), sign_code: ({ body }) => claimReads.sign_code(body) } },
  );

export const handler = lambdaHandler(
  createBoardsApp,
  deployedDeps('boards', {
    table: () => import('../core/platform/db.js'),
    claimKey: () => import('../core/rewards/claim-key.js'),
  }),
);
