import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserAvailable } from './support/browser.js';
import { goTo, openConsole, signIn, startConsoleStage, type ConsoleStage } from './support/console-page.js';
import { request } from './support/local-server.js';

/**
 * The league editor of the boards screen, in a real browser at both widths: rules that cannot hold are refused at
 * the field that is wrong before anything is sent, and saved rules read back as the change waiting for the next
 * season, on the page and through the API.
 */
const available = browserAvailable('console-league-browser');

let stage: ConsoleStage;
const pageErrors: string[] = [];

beforeAll(async () => {
  if (available) stage = await startConsoleStage('console-league-browser');
}, 180_000);

afterAll(() => stage?.stop());

describe.skipIf(!available)('console: a game’s league', () => {
  it.each([
    [1280, '20'],
    [390, '30'],
  ])('sets a league at %i px, refusing promotion from the top tier at its field', async (width, cohort) => {
    const page = await openConsole(stage, width, pageErrors);
    await signIn(page, stage.studio);
    await goTo(page, 'Boards and rewards');
    await page.getByRole('heading', { name: 'Set the league' }).waitFor();
    await page.getByLabel('Cohort size (10-100)').fill(cohort);
    // The form starts from the saved rules: two tiers at first, the three saved by the run before.
    if ((await page.getByLabel('Name of tier 3').count()) === 0) await page.getByRole('button', { name: 'Add a tier' }).click();
    await page.getByLabel('Name of tier 3').fill('Gold');
    await page.getByLabel('Moving up from tier 3').fill('2');
    await page.getByLabel('Moving down from tier 3').fill('3');
    await page.getByLabel('Moving down from tier 2').fill('2');
    await page.getByLabel('Moving up from tier 2').fill('2');
    await page.getByLabel('Rewards of tier 1').fill('1: 500, 2: 200');
    await page.getByRole('button', { name: 'Save league' }).click();
    await expect.poll(() => page.getByLabel('Moving up from tier 3').getAttribute('aria-invalid')).toBe('true');
    await expect.poll(() => page.getByText('the top tier promotes no one').first().isVisible()).toBe(true);

    await page.getByLabel('Moving up from tier 3').fill('0');
    await page.getByRole('button', { name: 'Save league' }).click();
    await page.getByRole('status').filter({ hasText: 'League saved' }).waitFor();
    const waiting = page.getByRole('table').filter({ has: page.getByText(/^From the next season/) });
    await expect.poll(() => waiting.getByRole('cell', { name: '3. Gold', exact: true }).isVisible()).toBe(true);
    await expect.poll(() => waiting.getByRole('cell', { name: '1: 500, 2: 200', exact: true }).isVisible()).toBe(true);

    const token = (await request(stage.server.base, 'POST', '/v2-testing/merchant/login', { body: stage.studio })).body.data.accessToken as string;
    const game = await page.getByLabel('Game', { exact: true }).inputValue();
    const league = await request(stage.server.base, 'GET', '/v2-testing/merchant/games/league', { token, query: { game_code: game } });
    expect(league.body.data.next).toMatchObject({
      cohort_size: Number(cohort),
      tiers: [{ name: 'Bronze' }, { name: 'Silver', promote: 2, demote: 2 }, { name: 'Gold', promote: 0, demote: 3 }],
    });
    expect(league.body.data.next.tiers[0].rewards).toEqual([
      { rank: 1, amount: 500, amount_base: '500' },
      { rank: 2, amount: 200, amount_base: '200' },
    ]);
    const fit = (await page.evaluate('({ scrollWidth: document.documentElement.scrollWidth, innerWidth })')) as { scrollWidth: number; innerWidth: number };
    expect(fit.scrollWidth).toBeLessThanOrEqual(fit.innerWidth);
    await page.context().close();
  });

  it('logged no page errors', () => {
    expect(pageErrors).toEqual([]);
  });
});
