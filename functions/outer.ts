import { createGroupApp } from '../core/http/app.js';
import type { Deps } from '../core/deps.js';
import { issueNonce } from '../core/identity/wallet.js';
import { loginZk } from '../core/identity/zklogin.js';
import { outerRoutes } from './routes/outer.js';
import { deployedDeps, lambdaHandler } from './deployed.js';

/** The outer group: player sign-in (the wallet's nonce, zkLogin). */
export const createOuterApp = (deps: Deps) =>
  createGroupApp(deps, outerRoutes, {
    getNonce: ({ deps, query }) => issueNonce(deps, query.address),
    login_zk: ({ deps, body }) => loginZk(deps, body.id_token, body.game_code),
  });

export const handler = lambdaHandler(
  createOuterApp,
  deployedDeps('outer', {
    table: () => import('../core/platform/db.js'),
    oauthProviders: () => import('../core/identity/id-tokens.js'),
  }),
);
