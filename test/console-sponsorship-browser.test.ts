import { Ed25519Keypair } from '@mysten/sui/keypairs/ed25519';
import type { Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDocumentClient } from '../core/platform/db.js';
import { chargeDays } from '../core/sponsorship/days.js';
import { runningServer } from '../tools/local/server-file.js';
import { browserAvailable } from './support/browser.js';
import { goTo, openConsole, signIn, startConsoleStage, type ConsoleStage } from './support/console-page.js';
import { request } from './support/local-server.js';

/**
 * Sponsored claims in the console, in a real browser against `npm start` with a gas sponsor: a studio sees what
 * its game's claims used today, sets the claim function and lower limits and reads them back, on the page and
 * through the API, and a limit above the stage's is refused beside its field with the service's message. An admin
 * sees each game's sponsored claims and gas of the day on the stage screen, most gas first, in SUI exactly.
 */
const available = browserAvailable('console-sponsorship-browser');
const ADMIN = { email: 'sponsorship-admin@example.com', password: 'sponsorship admin password 1' };
const TARGET = `0x${'c1'.repeat(32)}::verifier::redeem`;
const today = () => new Date().toISOString().slice(0, 10);

let stage: ConsoleStage;
const pageErrors: string[] = [];

beforeAll(async () => {
  if (available)
    stage = await startConsoleStage('console-sponsorship-browser', { SPONSOR_KEY: JSON.stringify({ key: Ed25519Keypair.generate().getSecretKey() }) });
}, 180_000);

afterAll(() => stage?.stop());

/** Records sponsored claims of `gas` MIST each for `game` today, as claim_sponsor charges them, in the server's table. */
async function chargeToday(game: string, claims: number, gas: bigint) {
  const running = runningServer(stage.dataDir);
  if (!running) throw new Error('the local server wrote no server file');
  const deps = { db: createDocumentClient(running.dynamodb), table: running.table, now: () => new Date() };
  const roomy = { count: 1_000, gas: 100_000_000_000n };
  for (let i = 0; i < claims; i++) await chargeDays(deps, { uid: `sponsored-player-${i}`, game, gas }, { player: roomy, game: roomy });
}

/** The text of each body row's header and cells. */
const rowsOf = async (table: Locator) => Promise.all((await table.locator('tbody tr').all()).map((row) => row.locator('th, td').allTextContents()));

describe.skipIf(!available)('console: sponsored claims', () => {
  it('a studio sees today’s use, sets the claim function and lower limits, and a limit above the stage’s is refused at its field', async () => {
    await chargeToday('demo-arena', 1, 1_234_567_891n);
    const page = await openConsole(stage, 390, pageErrors);
    await signIn(page, stage.studio);
    await goTo(page, 'Sponsored claims');
    await page.getByLabel('Game', { exact: true }).selectOption('demo-arena');
    const section = page.getByRole('region', { name: 'Sponsorship of demo-arena' });
    await section.getByText('not sponsored', { exact: true }).waitFor();
    await section.getByText('1 claim sponsored, 1.234567891 SUI of gas budgets').waitFor();
    const limits = section.getByRole('table', { name: /^Daily limits/ });
    expect(await rowsOf(limits)).toEqual([
      ['Claims a day', '1000', '1000'],
      ['Gas a day', '10.000000000 SUI', '10.000000000 SUI'],
      ['Gas of one claim', '0.010000000 SUI', '0.010000000 SUI'],
    ]);

    await section.getByLabel('Claim function', { exact: true }).fill(TARGET);
    await section.getByLabel('Claims a day', { exact: true }).fill('10');
    await section.getByLabel('Gas a day', { exact: true }).fill('2.5');
    await section.getByRole('button', { name: 'Save sponsorship' }).click();
    await section.getByRole('status').filter({ hasText: 'Sponsorship saved' }).waitFor();
    await section.getByText(TARGET, { exact: true }).waitFor();
    await expect
      .poll(() => rowsOf(limits))
      .toEqual([
        ['Claims a day', '10', '1000'],
        ['Gas a day', '2.500000000 SUI', '10.000000000 SUI'],
        ['Gas of one claim', '0.010000000 SUI', '0.010000000 SUI'],
      ]);
    const token = (await request(stage.server.base, 'POST', '/v2-testing/merchant/login', { body: stage.studio })).body.data.accessToken as string;
    const saved = await request(stage.server.base, 'GET', '/v2-testing/merchant/games/sponsorship', { token, query: { game_code: 'demo-arena' } });
    expect(saved.body.data).toMatchObject({ target: TARGET, daily_count: 10, daily_gas: '2500000000', today: { count: 1, gas: '1234567891' } });

    // Within the schema's range, above the stage's: the service's 400 names the field, and its message goes there.
    await section.getByLabel('Claims a day', { exact: true }).fill('5000');
    await section.getByRole('button', { name: 'Save sponsorship' }).click();
    await expect.poll(() => section.getByLabel('Claims a day', { exact: true }).getAttribute('aria-invalid')).toBe('true');
    await section.getByText("at most the stage's 1000").waitFor();
    const unchanged = await request(stage.server.base, 'GET', '/v2-testing/merchant/games/sponsorship', { token, query: { game_code: 'demo-arena' } });
    expect(unchanged.body.data.daily_count).toBe(10);

    await page.screenshot({ path: `${stage.screenshots}/sponsorship-390.png`, fullPage: true });
    const fit = (await page.evaluate('({ scrollWidth: document.documentElement.scrollWidth, innerWidth })')) as { scrollWidth: number; innerWidth: number };
    expect(fit.scrollWidth).toBeLessThanOrEqual(fit.innerWidth);
    await page.context().close();
  }, 120_000);

  it('an admin sees each game’s sponsored claims and gas of the day on the stage screen, most gas first, and another day', async () => {
    // The demo data is loaded on a start without an admin; a start with one adds it.
    await stage.restart({ SEED_ADMIN_EMAIL: ADMIN.email, SEED_ADMIN_PASSWORD: ADMIN.password });
    await chargeToday('demo-puzzle', 2, 300_000_000n);
    const page = await openConsole(stage, 1280, pageErrors);
    await signIn(page, ADMIN);
    await goTo(page, 'Stage');
    const section = page.getByRole('region', { name: 'Sponsored gas' });
    const table = section.getByRole('table', { name: new RegExp(`^Sponsored claims of ${today()}, most gas first`) });
    await table.waitFor();
    expect(await rowsOf(table)).toEqual([
      ['demo-arena', '1', '1.234567891 SUI', '0.000000000 SUI'],
      ['demo-puzzle', '2', '0.600000000 SUI', '0.000000000 SUI'],
    ]);

    await section.getByLabel('Day (UTC)').fill('2020-01-01');
    await section.getByText('No claims were sponsored on 2020-01-01.').waitFor();
    await page.screenshot({ path: `${stage.screenshots}/stage-1280.png`, fullPage: true });
    await page.context().close();
  }, 120_000);

  it('logged no page errors', () => {
    expect(pageErrors).toEqual([]);
  });
});
