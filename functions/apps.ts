import type { Hono } from 'hono';
import type { Deps } from '../core/deps.js';
import { createAdminConsoleApp } from './admin-console.js';
import { createBoardsApp } from './boards.js';
import { createChainApp } from './chain.js';
import { createHeroApp } from './hero.js';
import { createInnerApp } from './inner.js';
import { createMetaApp } from './meta.js';
import { createOuterApp } from './outer.js';
import { createPartnerStoreApp } from './partner-store.js';
import { createPayApp } from './pay.js';
import { createThirdPayApp } from './third-pay.js';
import { createWithoutkeyApp } from './withoutkey.js';
import { composeApps } from '../core/http/app.js';

/** Every group's app factory, for the local server and the tests (deployed, each is its own Lambda). */
export const appFactories: Record<string, (deps: Deps) => Hono> = {
  inner: createInnerApp,
  boards: createBoardsApp,
  'admin-console': createAdminConsoleApp,
  outer: createOuterApp,
  withoutkey: createWithoutkeyApp,
  chain: createChainApp,
  'third-pay': createThirdPayApp,
  pay: createPayApp,
  'partner-store': createPartnerStoreApp,
  hero: createHeroApp,
  meta: createMetaApp,
};

/** All groups in one app, as the local server serves them. */
export const createAllApps = (deps: Deps) =>
  composeApps(
    deps.stage,
    Object.values(appFactories).map((create) => create(deps)),
  );
