import { createGroupApp } from '../core/http/app.js';
import { heroToken } from '../core/heroes/auth.js';
import { bindNft, bindReads, unbindNft, unbindReads } from '../core/heroes/bindings.js';
import { heroConfig, setHeroConfig } from '../core/heroes/config.js';
import { nftDetail } from '../core/heroes/nft.js';
import { grantHero, grantReads, listHeroes } from '../core/heroes/roster.js';
import { upgradeHeroes, upgradeReads } from '../core/heroes/upgrade.js';
import type { Deps } from '../core/deps.js';
import { heroRoutes } from './routes/hero.js';
import { deployedDeps, lambdaHandler } from './deployed.js';

/** The hero game group, on the hero base (docs/api.md, "Hero game"). */
export const createHeroApp = (deps: Deps) =>
  createGroupApp(
    deps,
    heroRoutes,
    {
      auth: ({ deps, auth }) => heroToken(deps, auth.sub),
      heroes_list: ({ deps, auth, query }) => listHeroes(deps, auth.sub, query.page, query.pageSize),
      bind: ({ deps, auth, body }) => bindNft(deps, auth.sub, body.objectId),
      unbind: ({ deps, auth, body }) => unbindNft(deps, auth.sub, body.objectId),
      nft_detail: ({ deps, params }) => nftDetail(deps, params.objectId),
      upgrade: ({ deps, auth, body, req }) => upgradeHeroes(deps, auth, body, req.header('idempotency-key')),
      grant: ({ deps, auth, body }) => grantHero(deps, auth, body),
      config_get: ({ deps }) => heroConfig(deps),
      config_set: ({ deps, body }) => setHeroConfig(deps, body),
    },
    {
      reads: {
        bind: ({ body }, caller) => bindReads(caller.sub, body.objectId),
        unbind: ({ body }, caller) => unbindReads(caller.sub, body.objectId),
        upgrade: ({ body, idempotencyKey }, caller) => upgradeReads(caller, body, idempotencyKey),
        grant: ({ body }, caller) => grantReads(caller, body),
      },
    },
  );

export const handler = lambdaHandler(
  createHeroApp,
  deployedDeps('hero', {
    table: () => import('../core/platform/db.js'),
    chain: () => import('../core/chain/source.js'),
  }),
);
