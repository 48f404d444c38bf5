import { join } from 'node:path';
import { signInWithSuiWallet } from '@game-platform/client';
import { Ed25519Keypair } from '@mysten/sui/keypairs/ed25519';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserAvailable } from './support/browser.js';
import { goTo, signIn, startConsoleStage, type ConsoleStage } from './support/console-page.js';
import { request, type LocalServer } from './support/local-server.js';

/**
 * The console's Players screen (docs/console.md "Players") in a real browser against `npm start` with the demo
 * data, at a desktop's and a phone's width: a studio looks a player up by address, sees their balance, grants
 * tickets with a reason, sees the ledger entry and the new balance, and takes some back; the API agrees.
 */
const available = browserAvailable('console-players-browser');

let stage: ConsoleStage;
let server: LocalServer;
let browser: Browser;
let studio: { email: string; password: string };
let SCREENSHOTS: string;
const pageErrors: string[] = [];

beforeAll(async () => {
  if (!available) return;
  stage = await startConsoleStage('console-players-browser');
  ({ server, browser, studio, screenshots: SCREENSHOTS } = stage);
}, 180_000);

afterAll(() => stage?.stop());

describe.skipIf(!available)('the Players screen in a browser', () => {
  for (const width of [1280, 390]) {
    it(`looks a player up, grants tickets with a reason and takes some back (${width} px)`, async () => {
      const token = (await request(server.base, 'POST', '/v2-testing/merchant/login', { body: studio })).body.data.accessToken as string;
      const post = (path: string, body: unknown) => request(server.base, 'POST', `/v2-testing${path}`, { token, body });
      const project = `players-${width}-${Date.now().toString(36)}`;
      const receiver = Ed25519Keypair.generate().toSuiAddress();
      expect((await post('/merchant/projects', { project_name: project, receive_address: receiver, coin_type: '0x2::sui::SUI', precison: 9 })).status).toBe(
        200,
      );
      expect((await post('/merchant/projects/levels', { project_name: project, level: 1, amount: 100_000_000, tickets: 100 })).status).toBe(200);
      const wallet = Ed25519Keypair.generate();
      const player = await signInWithSuiWallet({ baseUrl: `${server.base}/v2-testing`, signer: wallet, gameCode: 'demo-arena' });
      // The grant needs its Idempotency-Key header, which the shared request helper does not send.
      const seeded = await fetch(`${server.base}/v2-testing/merchant/players/tickets`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'idempotency-key': `seed-${width}` },
        body: JSON.stringify({ userId: player.userId, projectName: project, level: 1, amount: 5, reason: 'welcome gift' }),
      });
      expect(seeded.status, await seeded.clone().text()).toBe(200);

      const context = await browser.newContext({ viewport: { width, height: 900 } });
      const page = await context.newPage();
      page.on('pageerror', (error) => pageErrors.push(error.message));
      await page.goto(`${server.base}/v2-testing/console`);
      await signIn(page, studio);
      await goTo(page, 'Players');
      await page.getByLabel('User id or Sui address').fill(wallet.toSuiAddress());
      await page.getByRole('button', { name: 'Look up' }).click();
      await page.getByRole('heading', { name: `Player ${player.userId}` }).waitFor();
      const balances = page.getByRole('table', { name: 'Ticket balances per project and level' });
      await balances.getByRole('row').filter({ hasText: project }).getByRole('cell', { name: '5', exact: true }).waitFor();

      await page.getByLabel('Project', { exact: true }).selectOption(project);
      await page.getByLabel('Level', { exact: true }).selectOption('1');
      await page.getByLabel('Tickets', { exact: true }).fill('12');
      await page.getByLabel('Reason').fill('compensation for a lost match');
      await page.getByRole('button', { name: 'Grant tickets' }).click();
      await page.getByText(`Granted 12 tickets of ${project} level 1.`).waitFor();
      await balances.getByRole('row').filter({ hasText: project }).getByRole('cell', { name: '17', exact: true }).waitFor();
      const ledger = page.getByRole('table', { name: "Changes of the player's balances" });
      await ledger.getByRole('row').filter({ hasText: 'compensation for a lost match' }).getByRole('cell', { name: '+12' }).waitFor();
      await page.screenshot({ path: join(SCREENSHOTS, `granted-${width}.png`), fullPage: true });

      await page.getByLabel('Change').selectOption('take');
      await page.getByLabel('Tickets', { exact: true }).fill('7');
      await page.getByLabel('Reason').fill('granted twice by mistake');
      await page.getByRole('button', { name: 'Take tickets back' }).click();
      await page.getByText(`Took back 7 tickets of ${project} level 1.`).waitFor();
      await balances.getByRole('row').filter({ hasText: project }).getByRole('cell', { name: '10', exact: true }).waitFor();
      await ledger.getByRole('row').filter({ hasText: 'granted twice by mistake' }).getByRole('cell', { name: '-7' }).waitFor();

      const fit = (await page.evaluate('({ scrollWidth: document.documentElement.scrollWidth, innerWidth })')) as { scrollWidth: number; innerWidth: number };
      expect(fit.scrollWidth, 'the page fits its width').toBeLessThanOrEqual(fit.innerWidth);
      const view = await request(server.base, 'GET', '/v2-testing/merchant/players/view', { token, query: { user_id: player.userId } });
      expect(view.body.data.balances).toEqual([{ project_name: project, level: 1, balance: 10 }]);
      expect(view.body.data.ledger.items.map((line: { change: number }) => line.change).sort()).toEqual([-7, 12, 5].sort());
      expect(pageErrors).toEqual([]);
      await context.close();
    }, 120_000);
  }
});
