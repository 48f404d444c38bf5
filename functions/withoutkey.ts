import { bearerToken } from '../core/http/auth.js';
import { createGroupApp } from '../core/http/app.js';
import type { Deps } from '../core/deps.js';
import { saveParams } from '../core/identity/params.js';
import { bindSocial, listSocialBindings, userBySocialId } from '../core/identity/social.js';
import { zkInfo } from '../core/identity/zklogin.js';
import { login } from '../core/merchants/accounts.js';
import { challengeReads } from '../core/privacy/keys.js';
import { withoutkeyRoutes } from './routes/withoutkey.js';
import { deployedDeps, lambdaHandler } from './deployed.js';

/** The withoutkey group: console sign-in, social binding, player parameters, zkLogin lookups, and players' data: export, deletion and the studios' list of deleted players. */
export const createWithoutkeyApp = (deps: Deps) =>
  createGroupApp(
    deps,
    withoutkeyRoutes,
    {
      merchant_login: ({ deps, body }) => login(deps, body.email, body.password),
      query_social_bind: async ({ deps, auth }) => {
        const bindings = await listSocialBindings(deps, auth.sub);
        return { data: bindings, totalPage: 1 };
      },
      bind_social: ({ deps, auth, body }) => bindSocial(deps, auth.sub, body.id_token),
      save_params: ({ deps, auth, body }) => saveParams(deps, auth.sub, body),
      querybysocialid: ({ deps, query }) => userBySocialId(deps, query.provider, query.socialId),
      query_zk_info: ({ deps, req }) => zkInfo(deps, bearerToken(req.header('authorization'))),
      // Players' data rights are rare calls: their modules load on first use, off the group's cold start.
      account_deletion_challenge: async ({ deps, auth }) => (await import('../core/privacy/proof.js')).deletionChallenge(deps, auth.sub),
      account_delete: async ({ deps, auth, body }) => (await import('../core/privacy/deletion.js')).deleteAccount(deps, auth.sub, body),
      account_export: async ({ deps, auth, query }) => (await import('../core/privacy/export.js')).playerExport(deps, auth.sub, query),
      player_deletions: async ({ deps, auth, query }) => (await import('../core/privacy/notices.js')).deletedPlayers(deps, auth.sub, query),
    },
    { reads: { account_deletion_challenge: (_, caller) => challengeReads(caller.sub) } },
  );

export const handler = lambdaHandler(
  createWithoutkeyApp,
  deployedDeps('withoutkey', {
    table: () => import('../core/platform/db.js'),
    oauthProviders: () => import('../core/identity/id-tokens.js'),
  }),
);
