import type { Handlers, RouteGroup } from '../../core/http/operation.js';
import { gameChainIds } from '../../core/games/chain-ids.js';
import { rewardError } from '../../core/rewards/errors.js';
import { claimSignature, signClaim } from '../../core/rewards/claims.js';
import { rewardHistory, seasonHistory } from '../../core/rewards/history.js';
import { seasonNamed } from '../../core/rankings/season-named.js';
import { settleEndedSeason } from '../../core/rewards/settlement.js';
import { rewardTableOf, setRewardTable } from '../../core/rewards/table.js';
import type { chainRewardOps, boardRewardOps } from '../routes/rewards.js';

/** Reward operations of the boards group, spread into its handlers. Routes only translate HTTP to core/rewards. */
export const boardRewardHandlers: Handlers<RouteGroup<typeof boardRewardOps>> = {
  reward_table_set: ({ deps, body }) => setRewardTable(deps, body),
  reward_table_get: ({ deps, query }) => rewardTableOf(deps, query.game_code),
  history_rank: ({ deps, query }) => seasonHistory(deps, query.game_code, seasonNamed(query.season_type, query.season_range, 'query.season_range')),
  history_test: async ({ deps, body }) => {
    if (deps.production) throw rewardError('season.test_on_production', 'history/test is refused on production stages');
    return settleEndedSeason(deps, body.game_code, seasonNamed(body.season_type, body.season_range, 'body.season_range'));
  },
  sign_code: ({ deps, auth, body }) => signClaim(deps, auth, body.id),
  get_sign: ({ deps, auth, query }) => claimSignature(deps, auth, query.id),
};

/** Reward operations of the chain group, spread into its handlers. */
export const chainRewardHandlers: Handlers<RouteGroup<typeof chainRewardOps>> = {
  gameCode: ({ deps }) => gameChainIds(deps),
  rewrad_history: ({ deps, auth, query }) => rewardHistory(deps, auth.sub, query.page, query.pageSize),
};
