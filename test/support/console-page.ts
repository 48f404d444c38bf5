import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from './browser.js';
import { demoServerEnv, killLocalServers, startLocalServer, type LocalServer } from './local-server.js';
import { startSuiGraphQL, type SuiGraphQL } from './sui-graphql.js';

/**
 * What the console's browser tests share: `npm start` with its demo studio (payments on the suite's loopback
 * Sui GraphQL service), a Chromium, and the steps every test takes (signing in, opening a section, through the
 * folded menu where the narrow layout folds it).
 */
export interface ConsoleStage {
  chain: SuiGraphQL;
  server: LocalServer;
  browser: Browser;
  /** The server's DATA_DIR: its server file names the DynamoDB and table it runs on (tools/local/server-file.ts). */
  dataDir: string;
  /** The demo studio's console account. */
  studio: { email: string; password: string };
  /** Where the file's screenshots go (test-results/<name>). */
  screenshots: string;
  /**
   * Stops the server and starts it again on the same port and data with `env` beside the stage's: its clock moved
   * on (CLOCK_OFFSET_MS), as a season that was waiting has begun. `server` is then the new one.
   */
  restart(env: Record<string, string>): Promise<void>;
  stop(): Promise<void>;
}

/** `env`: settings of the stage beside the demo's (a claim key naming another payout coin, …). */
export async function startConsoleStage(name: string, env: Record<string, string> = {}): Promise<ConsoleStage> {
  const chain = await startSuiGraphQL();
  const dataDir = join(mkdtempSync(join(tmpdir(), `${name}-`)), 'data');
  const settings = demoServerEnv(dataDir, chain.url, env);
  let server = await startLocalServer(settings);
  const studio = JSON.parse(readFileSync(join(dataDir, 'demo-credentials.json'), 'utf8')) as ConsoleStage['studio'];
  const browser = await launchBrowser();
  const screenshots = join('test-results', name);
  mkdirSync(screenshots, { recursive: true });
  const stage: ConsoleStage = {
    chain,
    server,
    dataDir,
    browser,
    studio,
    screenshots,
    async restart(more) {
      // The same port: the browser's pages and the steps' requests find it where they did.
      const port = new URL(server.base).port;
      await server.stop();
      server = await startLocalServer({ ...settings, ...more, PORT: port });
      stage.server = server;
    },
    async stop() {
      await browser.close();
      await server.stop();
      await killLocalServers();
      await chain.stop();
    },
  };
  return stage;
}

export async function signIn(page: Page, who: { email: string; password: string }) {
  await page.getByLabel('Email').fill(who.email);
  await page.getByLabel('Password').fill(who.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('navigation', { name: 'Console sections' }).waitFor();
}

/**
 * The console in a new page `width` px wide, signed out. What the page logs as an error, but the 4xx answers the
 * steps provoke on purpose, and what it throws go to `errors`. `clipboard` lets the page read and write it.
 */
export async function openConsole(stage: ConsoleStage, width: number, errors: string[], options: { clipboard?: boolean } = {}): Promise<Page> {
  const context = await stage.browser.newContext({ viewport: { width, height: 900 } });
  if (options.clipboard) await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: stage.server.base });
  const page = await context.newPage();
  page.on('console', (m) => {
    if (m.type() === 'error' && !/^Failed to load resource: the server responded with a status of 4\d\d/.test(m.text())) errors.push(m.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(`${stage.server.base}/v2-testing/console`);
  return page;
}

/** Opens a section, through the folded menu where the layout folds it. */
export async function goTo(page: Page, section: string) {
  const nav = page.getByRole('navigation', { name: 'Console sections' });
  const link = nav.getByRole('link', { name: section, exact: true });
  const menu = nav.getByRole('button', { name: /^Sections/ });
  if (!(await link.isVisible()) && (await menu.count()) > 0) await menu.click();
  await link.click();
  await page.getByRole('heading', { level: 1, name: section }).waitFor();
}
