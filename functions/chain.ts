import { createGroupApp } from '../core/http/app.js';
import type { Deps } from '../core/deps.js';
import { reportReads, submitScores } from '../core/rankings/reports.js';
import { chainRoutes } from './routes/chain.js';
import { chainRewardHandlers } from './handlers/rewards.js';
import { deployedDeps, lambdaHandler } from './deployed.js';

/** The chain group: game results into the seasons. Routes only translate HTTP to the core domains. */
export const createChainApp = (deps: Deps) =>
  createGroupApp(
    deps,
    chainRoutes,
    {
      submitgamescore: ({ deps, body }) => submitScores(deps, body),
      // Rewards.
      ...chainRewardHandlers,
    },
    { reads: { submitgamescore: ({ body }) => reportReads.submitgamescore(body) } },
  );

export const handler = lambdaHandler(
  createChainApp,
  deployedDeps('chain', {
    table: () => import('../core/platform/db.js'),
  }),
);
