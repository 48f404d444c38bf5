import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserAvailable } from './support/browser.js';
import { goTo, openConsole, signIn, startConsoleStage, type ConsoleStage } from './support/console-page.js';
import { request } from './support/local-server.js';

/**
 * The league editor of the boards screen, in a real browser at both widths: rules that cannot hold are refused at
 * the field that is wrong before anything is sent, and saved rules read back as the change waiting for the next
 * season, on the page and through the API. Then a player's standing: none while the league waits for its season;
 * with the server's clock a week on, the cohort's board the stream's placement put the player in.
 */
const available = browserAvailable('console-league-browser');
const DAY_MS = 86_400_000;

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

  // After the tests above: it reads the league they saved, which begins with the next week.
  it('shows a player’s standing: no league this week, then a week on the cohort’s board with the player marked and what each rank pays', async () => {
    const first = await openConsole(stage, 1280, pageErrors);
    await signIn(first, stage.studio);
    await goTo(first, 'Boards and rewards');
    const game = await first.getByLabel('Game', { exact: true }).inputValue();
    await askStanding(first, 'nobody-yet');
    await first.getByText(`${game} runs no league this season`).waitFor();
    await first.context().close();

    // The server's clock a week on: the league saved above runs, and the stream's loop places each first score.
    await stage.restart({ CLOCK_OFFSET_MS: String(8 * DAY_MS) });
    const base = stage.server.base;
    const token = (await request(base, 'POST', '/v2-testing/merchant/login', { body: stage.studio })).body.data.accessToken as string;
    const server = (await request(base, 'GET', '/v2-testing/merchant/token', { token })).body.data.accessToken as string;
    const suffix = Date.now().toString(36);
    const [ada, bo, cy] = ['Ada', 'Bo', 'Cy'].map((name) => ({ id: `${name.toLowerCase()}-${suffix}`, name }));
    const reported = await request(base, 'POST', '/v2-testing/chain/game/score', {
      token: server,
      body: {
        game_code: game,
        result_id: `league-${suffix}`,
        scores: [
          { game_player_id: ada!.id, game_player_name: ada!.name, kills: 0, wins: 5 },
          { game_player_id: bo!.id, game_player_name: bo!.name, kills: 0, wins: 3 },
          { game_player_id: cy!.id, game_player_name: cy!.name, kills: 0, wins: 1 },
        ],
      },
    });
    expect(reported.status, JSON.stringify(reported.body)).toBe(200);
    const standingOf = (player: string) =>
      request(base, 'GET', '/v2-testing/merchant/games/league/standing', { token, query: { game_code: game, game_player_id: player } });
    await expect.poll(async () => (await standingOf(bo!.id)).body.data?.players.length, { timeout: 30_000 }).toBe(3);

    const page = await openConsole(stage, 390, pageErrors);
    await signIn(page, stage.studio);
    await goTo(page, 'Boards and rewards');
    await page.getByLabel('Game', { exact: true }).selectOption(game);
    await askStanding(page, 'nobody-yet');
    await page.getByText('Not placed yet').waitFor();
    await askStanding(page, bo!.id);
    const board = page.getByRole('table', { name: /^Cohort board on wins/ });
    await board.waitFor();
    expect(await cellsOf(board)).toEqual([
      ['1', 'Ada', '5'],
      ['2', 'Bo (this player)', '3'],
      ['3', 'Cy', '1'],
    ]);
    expect(await board.locator('tr[aria-current="true"]').getByRole('cell').allTextContents()).toEqual(['2', 'Bo (this player)', '3']);
    const details = page.getByRole('region', { name: "A player's standing" });
    await expect.poll(() => details.getByText('1. Bronze').isVisible()).toBe(true);
    await expect.poll(() => details.getByText(/^yes, rank 2 with 3$/).isVisible()).toBe(true);
    const pays = await cellsOf(page.getByRole('table', { name: 'What each rank of a Bronze cohort pays' }));
    expect(pays).toEqual([
      ['1', expect.stringMatching(/\b500\b/)],
      ['2', expect.stringMatching(/\b200\b/)],
    ]);
    await page.screenshot({ path: `${stage.screenshots}/standing-390.png`, fullPage: true });
    const fit = (await page.evaluate('({ scrollWidth: document.documentElement.scrollWidth, innerWidth })')) as { scrollWidth: number; innerWidth: number };
    expect(fit.scrollWidth).toBeLessThanOrEqual(fit.innerWidth);
    await page.context().close();
  }, 180_000);

  it('logged no page errors', () => {
    expect(pageErrors).toEqual([]);
  });
});

/** The text of each body row's cells. */
const cellsOf = async (table: Locator) => Promise.all((await table.locator('tbody tr').all()).map((row) => row.getByRole('cell').allTextContents()));

/** Asks the league section for a player's standing. */
async function askStanding(page: Page, player: string) {
  const section = page.getByRole('region', { name: "A player's standing" });
  await section.getByLabel('Player id').fill(player);
  await section.getByRole('button', { name: 'Show standing' }).click();
}
