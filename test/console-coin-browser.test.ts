import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateClaimKey } from '../core/rewards/claim-key.js';
import { browserAvailable } from './support/browser.js';
import { goTo, openConsole, signIn, startConsoleStage, type ConsoleStage } from './support/console-page.js';
import { request, type LocalServer } from './support/local-server.js';

/**
 * The reward table on a stage whose claims pay another coin than SUI (its claim settings name USDC), in a real
 * browser at both widths: the console does not know that coin's decimals, so it shows and takes amounts in base
 * units alone, refuses an amount typed in the coin, and the saved table reads back exactly what was typed.
 */
const available = browserAvailable('console-coin-browser');
const USDC = '0xabc::usdc::USDC';

let stage: ConsoleStage;
let server: LocalServer;
let studio: { email: string; password: string };
const pageErrors: string[] = [];

beforeAll(async () => {
  if (!available) return;
  const key = JSON.parse(generateClaimKey()) as Record<string, unknown>;
  stage = await startConsoleStage('console-coin-browser', { CLAIM_SIGNING_KEY: JSON.stringify({ key, coin_type: USDC }) });
  ({ server, studio } = stage);
}, 180_000);

afterAll(() => stage?.stop());

describe.skipIf(!available)('console: a payout coin whose decimals the console does not know', () => {
  it.each([1280, 390])('shows and takes reward amounts in base units alone at %i px', async (width) => {
    const page = await openConsole(stage, width, pageErrors);
    await signIn(page, studio);
    await goTo(page, 'Boards and rewards');
    const amount = page.getByLabel('Reward of row 1', { exact: true });
    await amount.waitFor();
    // No unit to choose: the field says what it takes.
    expect(await page.getByLabel('Unit of reward of row 1').count()).toBe(0);
    await amount.fill('');
    await expect.poll(() => page.getByText('In base units of USDC (the console does not know its decimals)').first().isVisible()).toBe(true);

    await amount.fill('2 USDC');
    await expect.poll(() => page.getByText("the console does not know USDC's decimals: enter base units").isVisible()).toBe(true);
    const typed = width === 1280 ? '1,500,000' : '2500000';
    await amount.fill(typed);
    await expect.poll(() => page.getByText(`= ${width === 1280 ? '1,500,000' : '2,500,000'} base units of USDC`).isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Save reward table' }).click();
    await page.getByRole('status').filter({ hasText: 'Reward table saved' }).waitFor();

    const token = (await request(server.base, 'POST', '/v2-testing/merchant/login', { body: studio })).body.data.accessToken as string;
    const game = await page.getByLabel('Game', { exact: true }).inputValue();
    const table = await request(server.base, 'GET', '/v2-testing/merchant/games/rewards', { token, query: { game_code: game } });
    expect(table.body.data.coin_type).toBe(USDC);
    expect(table.body.data.rewards[0].amount_base).toBe(typed.replaceAll(',', ''));
    // The saved table (its caption names the paying board) shows the amount in base units of the coin.
    const saved = page.getByRole('table').filter({ has: page.getByText(/^Paid on the wins board/) });
    const shown = `${width === 1280 ? '1,500,000' : '2,500,000'} base units of USDC`;
    await expect.poll(() => saved.getByRole('cell', { name: shown, exact: true }).isVisible()).toBe(true);
    await page.context().close();
  });

  it('logged no page errors', () => {
    expect(pageErrors).toEqual([]);
  });
});
