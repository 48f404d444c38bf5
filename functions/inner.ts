import { createGroupApp } from '../core/http/app.js';
import type { Deps } from '../core/deps.js';
import { createGame, listAllGames, listMerchantGames, liveGame, liveGamesByCode, updateGame } from '../core/games/games.js';
import { createMerchant, merchantStatusOf, requireMerchant, setMerchantStatus } from '../core/merchants/merchants.js';
import { saveMerchantFile } from '../core/merchants/uploads.js';
import { gameTokenFor, registerWallet } from '../core/identity/wallet.js';
import { createProject, projectsOf, saveLevel, updateProject } from '../core/payments/projects.js';
import { innerGoodsHandlers, innerGoodsReads } from './handlers/goods.js';
import { innerAccessHandlers } from './handlers/access.js';
import { issueServerToken } from '../core/access/server-tokens.js';
import { innerStrandedHandlers, innerStrandedReads } from './handlers/stranded.js';
import { innerConsoleHandlers } from './handlers/console.js';
import { innerPlayersHandlers, innerPlayersReads } from './handlers/players.js';
import { innerRoutes } from './routes/inner.js';
import { deployedDeps, lambdaHandler } from './deployed.js';

/**
 * The inner group: merchant console, game catalogue, projects and goods, wallet sign-in, vendor wallet, token
 * revocation and stranded payments. Routes only translate HTTP to the core domains.
 */
export const createInnerApp = (deps: Deps) =>
  createGroupApp(
    deps,
    innerRoutes,
    {
      create_merchant: ({ deps, auth, body }) => createMerchant(deps, auth, body),
      get_token: async ({ deps, auth }) => {
        // Recorded under the empty name, so it is listed and revocable alone; the answer stays get_token's.
        const { accessToken, expiresAt, merchant_id } = await issueServerToken(deps, auth, '');
        return { accessToken, expiresAt, merchant_id };
      },
      get_merchant_info: ({ deps, auth }) => requireMerchant(deps, auth.sub),
      save_file: ({ deps, auth, body }) => saveMerchantFile(deps, auth.sub, body.file),
      savemerchantgame: ({ deps, auth, body }) => createGame(deps, auth, body),
      query_merchant_game: ({ deps, auth, query }) => listMerchantGames(deps, auth.sub, query.page, query.pageSize),
      gamelist: ({ deps, query }) => listAllGames(deps, query.page, query.pageSize),
      merchantStatus: ({ deps, auth, query }) => merchantStatusOf(deps, auth, query.merchant_id),
      merchantStatus_set: ({ deps, auth, body }) => setMerchantStatus(deps, body.merchant_id, body.status, { reason: body.reason, by: auth.sub }),
      game_detail: ({ deps, query }) => liveGame(deps, query.code),
      query_new_merchant: ({ deps }) => liveGamesByCode(deps),
      update_single_game: ({ deps, auth, body }) => updateGame(deps, auth, body),
      chainwallet_register: ({ deps, body, req }) => registerWallet(deps, body, req.header('authorization')),
      chainwallet_token: ({ deps, auth, query }) => gameTokenFor(deps, auth.sub, query.game_code),
      project_create: ({ deps, auth, body }) => createProject(deps, auth, body),
      project_update: ({ deps, auth, body }) => updateProject(deps, auth, body),
      project_list: ({ deps, auth }) => projectsOf(deps, auth.sub),
      level_save: ({ deps, auth, body }) => saveLevel(deps, auth, body),
      ...innerGoodsHandlers,
      // Token revocation.
      ...innerAccessHandlers,
      ...innerStrandedHandlers,
      ...innerConsoleHandlers,
      ...innerPlayersHandlers,
    },
    { reads: { ...innerGoodsReads, ...innerPlayersReads, ...innerStrandedReads } },
  );

export const handler = lambdaHandler(
  createInnerApp,
  deployedDeps('inner', {
    table: () => import('../core/platform/db.js'),
    files: () => import('../core/platform/files.js'),
    chain: () => import('../core/chain/source.js'),
  }),
);
