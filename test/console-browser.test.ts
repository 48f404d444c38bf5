import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { signInWithSuiWallet, unwrap } from '@game-platform/client';
import { Ed25519Keypair } from '@mysten/sui/keypairs/ed25519';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatAmount, SUI } from '../console/src/ui/amount.js';
import { browserAvailable, launchBrowser } from './support/browser.js';
import { signIn } from './support/console-page.js';
import { demoServerEnv, killLocalServers, request, startLocalServer, type LocalServer } from './support/local-server.js';
import { payThroughKit } from './support/payment-kit.js';
import { randomDigest } from './support/sui-node.js';
import { startSuiGraphQL, type SuiGraphQL } from './support/sui-graphql.js';

/**
 * The operator console (docs/console.md) in a real browser: headless Debian Chromium driven by playwright-core
 * against `npm start` on loopback, with the demo data (an active studio) and an admin account. Every step is
 * driven by roles and labels, as a screen reader user would find them, and checked on the API afterwards. Every
 * request any page makes must go to the server, no page may log an error or a Content-Security-Policy
 * violation. Screenshots of each screen go to test-results/console-browser/.
 */
const SCREENSHOTS = join('test-results', 'console-browser');
const available = browserAvailable('console-browser');
const ADMIN = { email: 'console-admin@example.com', password: 'console admin password 1' };
// A 1×1 PNG: the service recognises images by their content.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

let chain: SuiGraphQL;
let server: LocalServer;
let browser: Browser;
let studio: { email: string; password: string };
const outside: string[] = [];
const pageErrors: string[] = [];

beforeAll(async () => {
  if (!available) return;
  chain = await startSuiGraphQL();
  const dataDir = join(mkdtempSync(join(tmpdir(), 'console-browser-')), 'data');
  // The first start loads the demo data (an active studio and its games); the second adds an admin account.
  const first = await startLocalServer(demoServerEnv(dataDir, chain.url));
  await first.stop();
  server = await startLocalServer(demoServerEnv(dataDir, chain.url, { SEED_ADMIN_EMAIL: ADMIN.email, SEED_ADMIN_PASSWORD: ADMIN.password }));
  studio = JSON.parse(readFileSync(join(dataDir, 'demo-credentials.json'), 'utf8')) as typeof studio;
  browser = await launchBrowser();
  mkdirSync(SCREENSHOTS, { recursive: true });
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await killLocalServers();
  await chain?.stop();
});

const consoleUrl = () => `${server.base}/v2-testing/console`;

/** A new browser context (its own sessionStorage) whose every request and error is watched. */
async function openConsole(options: { timezoneId?: string; locale?: string } = {}): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, ...options });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.base });
  const page = await context.newPage();
  page.on('request', (r) => {
    if (!r.url().startsWith(server.base) && !r.url().startsWith('blob:') && !r.url().startsWith('data:')) outside.push(r.url());
  });
  page.on('console', (m) => {
    // Chromium logs every 4xx and 5xx a fetch receives; the 4xx and the 503 of an unconfigured App Store are the
    // service's answers the console shows, which the steps below provoke on purpose. Any other error counts.
    if (m.type() === 'error' && !/^Failed to load resource: the server responded with a status of (4\d\d|503)/.test(m.text())) pageErrors.push(m.text());
  });
  page.on('pageerror', (error) => pageErrors.push(error.message));
  await page.goto(consoleUrl());
  return { context, page };
}

const goTo = (page: Page, section: string) => page.getByRole('navigation', { name: 'Console sections' }).getByRole('link', { name: section }).click();

/** A message shows next to what caused it: its box starts within `gap` px below (or beside) the button's. */
async function expectNear(message: Locator, button: Locator, gap = 120) {
  const [m, b] = [await message.boundingBox(), await button.boundingBox()];
  expect(m && b, 'both are on the page').toBeTruthy();
  const distance = Math.max(0, m!.y - (b!.y + b!.height), b!.y - (m!.y + m!.height));
  expect(distance, 'the message is next to its button').toBeLessThanOrEqual(gap);
}

/** How the page fits its viewport: the page's own width against the window's, and where Sign out is. */
async function layoutOf(page: Page) {
  const fit = (await page.evaluate('({ scrollWidth: document.documentElement.scrollWidth, innerWidth, innerHeight })')) as {
    scrollWidth: number;
    innerWidth: number;
    innerHeight: number;
  };
  const signOut = await page.getByRole('button', { name: 'Sign out', exact: true }).boundingBox();
  const inView = !!signOut && signOut.x >= 0 && signOut.y >= 0 && signOut.x + signOut.width <= fit.innerWidth && signOut.y + signOut.height <= fit.innerHeight;
  return { overflow: fit.scrollWidth > fit.innerWidth ? `${fit.scrollWidth} > ${fit.innerWidth}` : 'none', signOutInView: inView };
}

const shot = (page: Page, name: string) => page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });

/** The browser's globals a function run in the page reads (the suite is typed for Node, without the DOM's types). */
type BrowserGlobals = { sessionStorage: Storage; localStorage: Storage; navigator: { clipboard: { readText(): Promise<string> } } };
interface Storage {
  length: number;
  key(index: number): string | null;
}

/** What the page keeps in the browser: both storages and the cookies. */
const kept = async (context: BrowserContext, page: Page) => ({
  session: await page.evaluate(() => Object.keys({ ...(globalThis as unknown as BrowserGlobals).sessionStorage })),
  local: await page.evaluate(() => Object.keys({ ...(globalThis as unknown as BrowserGlobals).localStorage })),
  cookies: (await context.cookies()).length,
});

const api = (method: string, path: string, token?: string, query?: Record<string, string>) =>
  request(server.base, method, `/v2-testing${path}`, { ...(token ? { token } : {}), ...(query ? { query } : {}) });

describe.skipIf(!available)('the operator console in a browser', () => {
  it('is served with a strict Content-Security-Policy and no inline script', async () => {
    const page = await fetch(consoleUrl());
    expect(page.status).toBe(200);
    const csp = page.headers.get('content-security-policy')!;
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("style-src 'self'");
    expect(csp).toContain("connect-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe');
    const html = await page.text();
    expect(html).not.toMatch(/<script>|<script [^>]*>[^<]/);
    expect(html).not.toMatch(/https?:\/\//);
  });

  it('lets a studio sign in with the keyboard, create a game with an image and set a price level', async () => {
    const { context, page } = await openConsole();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    await shot(page, 'sign-in');
    // The keyboard alone: Tab to each field, Enter submits.
    await page.keyboard.press('Tab');
    await page.keyboard.type(studio.email);
    await page.keyboard.press('Tab');
    await page.keyboard.type(studio.password);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Demo Studio' }).waitFor();
    await page.getByRole('main').getByText('active').waitFor();
    // A studio has no admin screens.
    expect(await page.getByRole('navigation', { name: 'Console sections' }).getByRole('link', { name: 'Stage' }).count()).toBe(0);
    await shot(page, 'merchant');

    await goTo(page, 'Games');
    await page.getByRole('table').getByText('demo-arena').waitFor();
    // The schema the service uses checks the form first: a bad code is shown beside the field, nothing sent.
    await page.getByLabel('Code').fill('no spaces allowed');
    await page.getByLabel('Name', { exact: true }).fill('Console Quest');
    await page.getByRole('button', { name: 'Create game' }).click();
    const codeError = page.getByLabel('Code');
    await expect.poll(() => codeError.getAttribute('aria-invalid')).toBe('true');
    const code = `console-${Date.now().toString(36)}`;
    await page.getByLabel('Code').fill(code);
    await page.getByLabel('Logo image').setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: PNG });
    await page.getByText(/^Logo stored as /).waitFor();
    await page.getByRole('img', { name: /Preview of the chosen logo image/ }).waitFor();
    await page.getByRole('button', { name: 'Create game' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `Game ${code} created.` })
      .waitFor();
    await page.getByRole('table').getByText(code).waitFor();
    // Where the game stands: public (its merchant is active), no on-chain ids yet.
    const row = page.getByRole('row').filter({ hasText: code });
    await row.getByRole('cell', { name: 'Public', exact: true }).waitFor();
    await row.getByRole('cell', { name: 'Not set', exact: true }).waitFor();
    await shot(page, 'games');
    // Public as the console says: game_detail, which answers only live games, answers it.
    const detail = await api('GET', '/merchant/games/detail', undefined, { code });
    expect(detail.status).toBe(200);
    expect(detail.body.data).toMatchObject({ code, gameName: 'Console Quest', logo: expect.stringMatching(/\.png$/) });

    // The service's own 4xx beside the form: the same code again is taken.
    await page.getByLabel('Code').fill(code);
    await page.getByLabel('Name', { exact: true }).fill('Console Quest again');
    await page.getByRole('button', { name: 'Create game' }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: /taken|exists/i })
      .waitFor();

    // The list shows the stored logo itself: a thumbnail the browser loaded from the files route.
    const thumbnail = row.getByRole('img', { name: 'Logo of Console Quest' });
    await expect.poll(() => thumbnail.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth)).toBeGreaterThan(0);
    expect(await thumbnail.getAttribute('src')).toMatch(/^\/v2-testing\/files\/|\/v2-testing\/files\//);
    // Every field is editable after creation: the URL, a link, the tags; the message shows beside the form's button.
    await row.getByRole('button', { name: 'Edit Console Quest' }).click();
    const editor = page.getByRole('region', { name: `Edit ${code}` });
    await editor.getByLabel('Game URL').fill('https://example.com/console-quest');
    await editor.getByLabel('Tags').fill('arena, pvp');
    await editor.getByRole('button', { name: 'Add a link' }).click();
    await editor.getByLabel('Platform of link 1').fill('web');
    await editor.getByLabel('URL of link 1').fill('https://example.com/play');
    await editor.getByRole('button', { name: 'Save game' }).click();
    const saved = editor.getByRole('status').filter({ hasText: `Game ${code} saved.` });
    await saved.waitFor();
    await expectNear(saved, editor.getByRole('button', { name: 'Save game' }));
    const edited = await api('GET', '/merchant/games/detail', undefined, { code });
    expect(edited.body.data).toMatchObject({
      game_url: 'https://example.com/console-quest',
      tags: ['arena', 'pvp'],
      link: { web: 'https://example.com/play' },
    });
    await shot(page, 'games-edit');
    await editor.getByRole('button', { name: 'Close the editor' }).click();

    await goTo(page, 'Projects and prices');
    const project = `console-${Date.now().toString(36)}`;
    await page.getByLabel('Project name').fill(project);
    await page.getByLabel('Receiving address').fill(`0x${'cd'.repeat(32)}`);
    await page.getByRole('button', { name: 'Create project' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `Project ${project} created.` })
      .waitFor();
    await page.getByLabel('Project', { exact: true }).selectOption(project);
    // An amount in the coin's units (the project's 9 decimals): too many decimals are refused beside the field.
    await page.getByLabel('Price', { exact: true }).fill('0.0000000001');
    await page.getByText('SUI has 9 decimals: at most 9 digits after the point').waitFor();
    await page.getByLabel('Price', { exact: true }).fill('0.1');
    await page.getByText('= 0.1 SUI (100,000,000 MIST)').waitFor();
    await page.getByLabel('Tickets').fill('25');
    await page.getByLabel('App Store product id').fill('com.example.tickets25');
    await page.getByRole('button', { name: 'Save price level' }).click();
    const levelSaved = page.getByRole('status').filter({ hasText: `Level 1 of ${project} saved.` });
    await levelSaved.waitFor();
    await expectNear(levelSaved, page.getByRole('button', { name: 'Save price level' }));
    await page.getByRole('cell', { name: 'com.example.tickets25' }).waitFor();
    await page.getByRole('cell', { name: '0.1 SUI (100,000,000 MIST)' }).waitFor();
    await shot(page, 'projects');
    const levels = await api('GET', '/account/user/project/level', undefined, { project });
    expect(levels.body.data).toEqual([expect.objectContaining({ level: 1, amount_base: '100000000', tickets: 25, apple_product_id: 'com.example.tickets25' })]);
    await context.close();
  }, 120_000);

  it("lets a studio create goods, set a game's reward table and read its boards, past seasons and stranded payments", async () => {
    const token = (await request(server.base, 'POST', '/v2-testing/merchant/login', { body: studio })).body.data.accessToken as string;
    const project = `goods-${Date.now().toString(36)}`;
    const post = (path: string, body: unknown) => request(server.base, 'POST', `/v2-testing${path}`, { token, body });
    expect(
      (await post('/merchant/projects', { project_name: project, receive_address: `0x${'ef'.repeat(32)}`, coin_type: '0x2::sui::SUI', precison: 9 })).status,
    ).toBe(200);
    expect((await post('/merchant/projects/levels', { project_name: project, level: 1, amount: 1_000, tickets: 10 })).status).toBe(200);

    const { context, page } = await openConsole();
    await signIn(page, studio);
    await goTo(page, 'Goods');
    await page.getByLabel('Goods name').fill('Golden sword');
    // The project and its price level are chosen from lists of the studio's own.
    await page.getByLabel('Project', { exact: true }).selectOption(project);
    await expect.poll(() => page.getByLabel('Price level').inputValue()).toBe('1');
    await page.getByLabel('Price in tickets').fill('0');
    await page.getByRole('button', { name: 'Create goods' }).click();
    // The schema's message beside the price: it must be positive.
    await expect.poll(() => page.getByLabel('Price in tickets').getAttribute('aria-invalid')).toBe('true');
    await page.getByLabel('Price in tickets').fill('3');
    await page.getByRole('button', { name: 'Create goods' }).click();
    const goodsCreated = page.getByRole('status').filter({ hasText: /Goods \d+ \(Golden sword\) created\./ });
    await goodsCreated.waitFor();
    await expectNear(goodsCreated, page.getByRole('button', { name: 'Create goods' }));
    await page.getByRole('cell', { name: 'Golden sword' }).waitFor();
    await shot(page, 'goods');
    const listed = await api('GET', '/merchant/goods', token, { page: '0', pageSize: '100' });
    expect(listed.body.data.goods).toContainEqual(expect.objectContaining({ name: 'Golden sword', projectName: project, level: 1, price: 3 }));

    await goTo(page, 'Boards and rewards');
    await page.getByLabel('Game', { exact: true }).selectOption('demo-arena');
    await page.getByRole('table', { name: 'Kills this week' }).waitFor();
    // The reward table is rows of rank and amount: one in SUI, one in MIST; a saved table's rows come first.
    await page.getByRole('table', { name: 'The reward of each rank' }).waitFor();
    while ((await page.getByRole('button', { name: 'Remove row 2' }).count()) > 0) await page.getByRole('button', { name: 'Remove row 2' }).click();
    await page.getByLabel('Rank of row 1').fill('1');
    await page.getByLabel('Reward of row 1', { exact: true }).fill('0.1');
    await page.getByRole('button', { name: 'Add a rank' }).click();
    expect(await page.getByLabel('Rank of row 2').inputValue()).toBe('2');
    await page.getByLabel('Unit of reward of row 2').selectOption('base');
    await page.getByLabel('Reward of row 2', { exact: true }).fill('250');
    await page.getByRole('button', { name: 'Save reward table' }).click();
    const tableSaved = page.getByRole('status').filter({ hasText: 'Reward table saved' });
    await tableSaved.waitFor();
    await expectNear(tableSaved, page.getByRole('button', { name: 'Save reward table' }));
    await page.getByRole('cell', { name: '0.1 SUI (100,000,000 MIST)', exact: true }).waitFor();
    await page.getByRole('cell', { name: '0.00000025 SUI (250 MIST)', exact: true }).waitFor();
    const table = await api('GET', '/merchant/games/rewards', token, { game_code: 'demo-arena' });
    expect(table.body.data.rewards.map((row: { rank: number; amount_base: string }) => [row.rank, row.amount_base])).toEqual([
      [1, '100000000'],
      [2, '250'],
    ]);
    await page.getByLabel('Season type').selectOption('2');
    await page.getByText('Nothing was paid for this season.').waitFor();
    await shot(page, 'boards');

    await goTo(page, 'Orders and payments');
    await page.getByLabel('Project', { exact: true }).selectOption(project);
    await page.getByRole('heading', { name: 'Stranded payments' }).waitFor();
    await page.getByText('None.').waitFor();
    await shot(page, 'orders');
    await context.close();
  }, 120_000);

  it('shows a studio a paid order once a player has paid it on the (loopback) chain', async () => {
    const token = (await request(server.base, 'POST', '/v2-testing/merchant/login', { body: studio })).body.data.accessToken as string;
    const project = `paid-${Date.now().toString(36)}`;
    const receiver = Ed25519Keypair.generate().toSuiAddress();
    const post = (path: string, body: unknown) => request(server.base, 'POST', `/v2-testing${path}`, { token, body });
    expect((await post('/merchant/projects', { project_name: project, receive_address: receiver, coin_type: '0x2::sui::SUI', precison: 9 })).status).toBe(200);
    const level = await post('/merchant/projects/levels', { project_name: project, level: 1, amount: 100_000_000, tickets: 100 });

    const { context, page } = await openConsole();
    await signIn(page, studio);
    await goTo(page, 'Orders and payments');
    await page.getByLabel('Of the project').selectOption(project);
    await page.getByText('No orders on this page.').waitFor();

    // A player of the demo game signs in with a Sui wallet and buys the level; the wallet pays on chain.
    const wallet = Ed25519Keypair.generate();
    const player = await signInWithSuiWallet({ baseUrl: `${server.base}/v2-testing`, signer: wallet, gameCode: 'demo-arena' });
    const order = await unwrap(
      player.api.POST('/account/user/rechargeOrder', {
        body: { userId: player.userId, project, priceId: level.body.data.priceId, prevId: -1, level: 1, amount: 100_000_000 },
      }),
    );
    await page.getByRole('button', { name: 'Refresh orders' }).click();
    const row = page.getByRole('row').filter({ hasText: order.bill_no });
    await row.getByRole('cell', { name: 'pending' }).waitFor();
    const paid = payThroughKit(chain.script, {
      nonce: order.bill_no,
      amount: order.amount_base,
      receiver,
      sender: wallet.toSuiAddress(),
      registry: 'ephemeral',
    });
    await unwrap(player.api.POST('/account/user/orderComplete', { body: { orderId: order.id, transactionId: paid.txDigest } }));
    await page.getByLabel('Orders shown').selectOption('paid');
    await row.getByRole('cell', { name: 'paid', exact: true }).waitFor();
    await shot(page, 'orders-paid');

    // The wallet pays the same order again: the indexer keeps the payment as stranded (its order is paid), and
    // the studio records the refund it paid back on chain, after a confirmation.
    const twice = payThroughKit(chain.script, {
      nonce: order.bill_no,
      amount: order.amount_base,
      receiver,
      sender: wallet.toSuiAddress(),
      registry: 'ephemeral',
    });
    const refundDigest = randomDigest();
    chain.script.changes(
      refundDigest,
      { owner: receiver, coinType: '0x2::sui::SUI', amount: `-${order.amount_base}` },
      { owner: wallet.toSuiAddress(), coinType: '0x2::sui::SUI', amount: order.amount_base },
    );
    const stranded = page.getByRole('article', { name: `Payment ${order.bill_no} of ${formatAmount(order.amount_base, SUI)}` });
    await page.getByRole('combobox', { name: 'Project', exact: true }).selectOption(project);
    // The indexer runs every 200 ms here; the list is read again until it has the payment.
    await expect
      .poll(
        async () => {
          await page.getByRole('button', { name: 'Refresh stranded payments' }).click();
          return stranded.count();
        },
        { timeout: 30_000 },
      )
      .toBe(1);
    await stranded.getByLabel(`Refund transaction of bill ${order.bill_no}`).fill(refundDigest);
    await stranded.getByRole('button', { name: 'Record refund' }).click();
    await page.getByRole('dialog', { name: 'Record refund?' }).getByRole('button', { name: 'Record refund' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `Bill ${order.bill_no} recorded as refunded.` })
      .waitFor();
    await shot(page, 'orders-stranded');
    const listed = await api('GET', '/merchant/payments/stranded', token, { project, status: '2' });
    expect(listed.body.data.payments).toEqual([
      expect.objectContaining({ bill_no: order.bill_no, refund_digest: refundDigest, cursor: { txDigest: twice.txDigest, eventSeq: String(twice.eventSeq) } }),
    ]);
    await context.close();
  }, 120_000);

  it('issues a server token shown once, revokes it after a confirmation (the API then refuses it), and signs out leaving nothing stored', async () => {
    const { context, page } = await openConsole();
    await signIn(page, studio);
    await goTo(page, 'Tokens and sessions');
    await page.getByLabel('Name').fill('browser-check');
    await page.getByRole('button', { name: 'Issue token' }).click();
    const shown = page.getByRole('region', { name: 'The new server token' });
    const token = await shown.getByLabel('Server token').inputValue();
    await shown.getByRole('button', { name: 'Copy token' }).click();
    expect(await page.evaluate(() => (globalThis as unknown as BrowserGlobals).navigator.clipboard.readText())).toBe(token);
    await shot(page, 'tokens');
    const remain = (t: string) => api('GET', '/account/game/remainBalance', t, { projectName: 'none-such', userId: randomUUID() });
    expect((await remain(token)).body.error).not.toMatch(/^auth\./);

    await page.getByRole('button', { name: 'Revoke all server tokens' }).click();
    const dialog = page.getByRole('dialog', { name: 'Revoke all server tokens?' });
    await dialog.waitFor();
    await shot(page, 'tokens-confirm');
    await dialog.getByRole('button', { name: 'Revoke server tokens' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: /is revoked/ })
      .waitFor();
    // The token is not shown again once revoked.
    expect(await shown.count()).toBe(0);
    const refused = await remain(token);
    expect([refused.status, refused.body.error]).toEqual([401, 'auth.token_revoked']);

    await page.getByRole('button', { name: 'Sign out', exact: true }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    expect(await kept(context, page)).toEqual({ session: [], local: [], cookies: 0 });
    // Signed in again at once, within the second of the sign-out's revocation: the new session works.
    await signIn(page, studio);
    await page.getByRole('heading', { name: 'Demo Studio' }).waitFor();
    await context.close();
  }, 120_000);

  it('lets an admin suspend and reactivate a merchant, each confirmed and reflected by the API', async () => {
    const studioToken = (await request(server.base, 'POST', '/v2-testing/merchant/login', { body: studio })).body.data.accessToken as string;
    const merchantId = (await api('GET', '/merchant/info', studioToken)).body.data.id as number;
    const adminToken = (await request(server.base, 'POST', '/v2-testing/merchant/login', { body: ADMIN })).body.data.accessToken as string;
    const statusOf = async () => (await api('GET', '/merchant/status', adminToken, { merchant_id: String(merchantId) })).body.data.status;

    // A merchant waiting for review: the admin account's own, created through the API.
    const created = await request(server.base, 'POST', '/v2-testing/merchant/create', { token: adminToken, body: { merchant_name: 'Studio waiting' } });
    const pending = created.body.data.id as number;

    const { context, page } = await openConsole();
    await signIn(page, ADMIN);
    // An admin lands on the merchants, and has no studio screens.
    await page.getByRole('heading', { level: 1, name: 'Merchants' }).waitFor();
    expect(await page.getByRole('navigation', { name: 'Console sections' }).getByRole('link', { name: 'Games' }).count()).toBe(0);
    await goTo(page, 'Merchants');
    await page.getByRole('button', { name: 'Review Studio waiting' }).click();
    await page
      .getByRole('region', { name: `Merchant ${pending}` })
      .getByRole('button', { name: 'Approve merchant' })
      .click();
    await page.getByRole('dialog', { name: 'Approve merchant?' }).getByRole('button', { name: 'Approve' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `Merchant ${pending} approved.` })
      .waitFor();
    expect((await api('GET', '/merchant/status', adminToken, { merchant_id: String(pending) })).body.data.status).toBe(1);
    // Approved, it leaves the list of those waiting.
    await expect.poll(() => page.getByRole('button', { name: 'Review Studio waiting' }).count()).toBe(0);

    await page.getByLabel('Merchant id').fill(String(merchantId));
    await page.getByRole('button', { name: 'Look up' }).click();
    const merchant = page.getByRole('region', { name: `Merchant ${merchantId}` });
    await merchant.getByText('active').waitFor();
    await merchant.getByLabel('Reason (shown to the merchant)').fill('Chargebacks under investigation');
    await merchant.getByRole('button', { name: 'Suspend merchant' }).click();
    await page.getByRole('dialog', { name: 'Suspend merchant?' }).getByRole('button', { name: 'Suspend' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `Merchant ${merchantId} suspended.` })
      .waitFor();
    expect(await statusOf()).toBe(2);
    expect((await api('GET', '/merchant/info', studioToken)).body.data).toMatchObject({ status: 2, status_reason: 'Chargebacks under investigation' });
    // The studio's console shows its games hidden, as the catalogue has them while the merchant is suspended.
    const studioSide = await openConsole();
    await signIn(studioSide.page, studio);
    await goTo(studioSide.page, 'Games');
    const arena = studioSide.page.getByRole('row').filter({ hasText: 'demo-arena' });
    await arena.getByRole('cell', { name: 'Hidden: merchant suspended', exact: true }).waitFor();
    expect((await api('GET', '/merchant/games/detail', undefined, { code: 'demo-arena' })).status).toBe(404);
    await studioSide.context.close();
    await shot(page, 'admin-merchants');
    await merchant.getByRole('button', { name: 'Reactivate merchant' }).click();
    await page.getByRole('dialog', { name: 'Reactivate merchant?' }).getByRole('button', { name: 'Reactivate' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `Merchant ${merchantId} reactivated.` })
      .waitFor();
    expect(await statusOf()).toBe(1);

    // The stage overview: today's row of the money figures, and the scheduled jobs (the local server's loops stand
    // in for them and record their runs).
    await goTo(page, 'Stage');
    await page.getByRole('rowheader', { name: new Date().toISOString().slice(0, 10) }).waitFor();
    // The local indexer loop runs every 200 ms here: its last run is shown, and it went well.
    const indexerRow = page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'Chain indexer' }) });
    await indexerRow.getByRole('cell', { name: 'ok', exact: true }).waitFor();
    expect(await indexerRow.getByRole('cell', { name: 'never', exact: true }).count()).toBe(0);
    // A stage with no App Store settings: the service's 503 is shown for the form.
    await page.getByRole('button', { name: 'Send a test notification' }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: /App Store/i })
      .waitFor();
    await shot(page, 'admin-stage');

    // A partner store client: the schema's message for a missing scope, then registered with its secret shown once.
    await goTo(page, 'Store clients');
    await page.getByLabel('Client name').fill('Console partner backend');
    await page.getByLabel('Client type').selectOption('confidential');
    await page.getByLabel('Redirect URIs, one per line').fill('https://partner.example/callback');
    await page.getByRole('button', { name: 'Register client' }).click();
    await page
      .getByRole('group', { name: 'Scopes' })
      .getByText(/expected|Too small|at least/i)
      .waitFor();
    await page.getByRole('checkbox', { name: 'grants' }).check();
    await page.getByRole('button', { name: 'Register client' }).click();
    const registered = page.getByRole('region', { name: 'The new client' });
    const secret = await registered.getByLabel('Client secret').inputValue();
    expect(secret.length).toBeGreaterThan(30);
    const clientId = /Client (\S+) registered\./.exec((await registered.getByRole('status').textContent()) ?? '')?.[1];
    await page.getByRole('cell', { name: clientId! }).waitFor();
    await shot(page, 'admin-store-clients');
    const clients = await api('GET', '/merchant/admin/store/clients', adminToken, { region: 'default' });
    expect(clients.body.data.clients).toContainEqual(expect.objectContaining({ client_id: clientId, type: 'confidential', scopes: ['grants'] }));
    expect(JSON.stringify(clients.body)).not.toContain(secret);
    await page.getByRole('button', { name: 'Sign out', exact: true }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    expect(await kept(context, page)).toEqual({ session: [], local: [], cookies: 0 });
    await context.close();
  }, 120_000);

  it("lets an admin set the hero game's configuration on the hero base, with the service's message beside a field", async () => {
    const studioToken = (await request(server.base, 'POST', '/v2-testing/merchant/login', { body: studio })).body.data.accessToken as string;
    const project = `heroes-${Date.now().toString(36)}`;
    const post = (path: string, body: unknown) => request(server.base, 'POST', `/v2-testing${path}`, { token: studioToken, body });
    expect(
      (await post('/merchant/projects', { project_name: project, receive_address: `0x${'ab'.repeat(32)}`, coin_type: '0x2::sui::SUI', precison: 9 })).status,
    ).toBe(200);
    expect((await post('/merchant/projects/levels', { project_name: project, level: 1, amount: 1_000, tickets: 10 })).status).toBe(200);
    const heroConfig = () => request(server.base, 'GET', '/hero-testing/heroes/config');
    expect((await heroConfig()).status).toBe(503);

    const { context, page } = await openConsole();
    const heroCalls: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/heroes/config')) heroCalls.push(`${r.method()} ${new URL(r.url()).pathname}`);
    });
    await signIn(page, ADMIN);
    await goTo(page, 'Hero game');
    await page.getByText('The hero game is not configured on this stage').waitFor();
    await page.getByLabel('Hero NFT type').fill('0xabc::hero::Hero');
    await page.getByLabel('Maximum level').fill('3');
    await page.getByLabel('Project whose tickets pay upgrades').fill('no-such-project');
    // The schema first: levels without a cost are refused before anything is sent.
    await page.getByRole('button', { name: 'Save the configuration' }).click();
    await expect.poll(() => page.getByLabel('Tickets for level 2').getAttribute('aria-invalid')).toBe('true');
    await expect.poll(() => page.getByLabel('Price level for level 3').getAttribute('aria-invalid')).toBe('true');
    await page.getByRole('group', { name: 'Level costs' }).getByText('Some costs are not valid').waitFor();
    expect(heroCalls.filter((call) => call.startsWith('PUT'))).toEqual([]);
    await page.getByLabel('Price level for every level').fill('1');
    await page.getByLabel('Tickets for every level').fill('5');
    await page.getByRole('button', { name: 'Give every level this cost' }).click();
    expect(await page.getByLabel('Tickets for level 3').inputValue()).toBe('5');
    await page.getByLabel('Tickets for level 3').fill('8');
    // The service's 404 for a project it does not have, beside the field it names.
    await page.getByRole('button', { name: 'Save the configuration' }).click();
    const projectField = page.getByLabel('Project whose tickets pay upgrades');
    await expect.poll(() => projectField.getAttribute('aria-invalid')).toBe('true');
    await page.getByText('no project no-such-project').waitFor();
    await projectField.fill(project);
    await page.getByRole('button', { name: 'Save the configuration' }).click();
    await page.getByRole('status').filter({ hasText: 'The hero game configuration is saved.' }).waitFor();
    await page.getByRole('table', { name: 'What reaching each level costs' }).getByRole('rowheader', { name: '3' }).waitFor();
    await shot(page, 'admin-hero');

    const saved = await heroConfig();
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({
      heroType: expect.stringMatching(/::hero::Hero$/),
      maxLevel: 3,
      projectName: project,
      levelCosts: [
        { level: 2, ticketLevel: 1, amount: 5 },
        { level: 3, ticketLevel: 1, amount: 8 },
      ],
    });
    // Locally the hero base is on the console's own origin.
    expect(heroCalls).toEqual([
      'GET /hero-testing/heroes/config',
      'PUT /hero-testing/heroes/config',
      'PUT /hero-testing/heroes/config',
      'GET /hero-testing/heroes/config',
    ]);
    await context.close();
  }, 120_000);

  it("fits every screen a studio or an admin sees at 1280 and 390 px, Sign out always on screen, times in the viewer's zone", async () => {
    const widths = [
      { width: 1280, height: 900 },
      { width: 390, height: 844 },
    ];
    // A zone far from UTC, so a time shown as the service answered it would not pass for local.
    const zone = 'Pacific/Auckland';
    for (const who of [studio, ADMIN]) {
      const { context, page } = await openConsole({ timezoneId: zone, locale: 'en-US' });
      await signIn(page, who);
      const nav = page.getByRole('navigation', { name: 'Console sections' });
      const sections = await nav.getByRole('link').allTextContents();
      expect(sections.length).toBeGreaterThan(3);
      for (const [index, section] of sections.entries()) {
        // Half the screens are reached through the narrow layout's folded menu, half through the wide one's list.
        const narrowFirst = index % 2 === 1;
        await page.setViewportSize(widths[narrowFirst ? 1 : 0]!);
        if (narrowFirst) {
          await nav.getByRole('button', { name: /^Sections/ }).click();
          expect(await nav.getByRole('button', { name: /^Sections/ }).getAttribute('aria-expanded')).toBe('true');
        }
        await nav.getByRole('link', { name: section, exact: true }).click();
        await page.getByRole('heading', { level: 1, name: section }).waitFor();
        await expect.poll(() => page.locator('main .loading').count(), { timeout: 15_000 }).toBe(0);
        for (const size of narrowFirst ? [...widths].reverse() : widths) {
          await page.setViewportSize(size);
          const slug = `${who === ADMIN ? 'admin' : 'studio'}-${section.replace(/\W+/g, '-').toLowerCase()}-${size.width}`;
          expect(await layoutOf(page), slug).toEqual({ overflow: 'none', signOutInView: true });
          // Scrolled to the end of a long screen, Sign out is still in reach.
          await page.evaluate('window.scrollTo(0, document.documentElement.scrollHeight)');
          expect(await layoutOf(page), `${slug}, scrolled`).toEqual({ overflow: 'none', signOutInView: true });
          await page.evaluate('window.scrollTo(0, 0)');
          await shot(page, `layout-${slug}`);
        }
      }
      if (who === studio) {
        // Times are the viewer's: the games' creation times in the browser's zone, the service's ISO value kept.
        await page.setViewportSize(widths[0]!);
        await goTo(page, 'Games');
        const created = page.getByRole('table').locator('time').first();
        await created.waitFor();
        const iso = (await created.getAttribute('datetime'))!;
        expect(iso).toMatch(/^\d{4}-\d\d-\d\dT/);
        expect(await created.getAttribute('title')).toBe(iso);
        const local = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short', timeZone: zone }).format(new Date(iso));
        const spaced = (text: string | null) => (text ?? '').replace(/\s/g, ' ');
        expect(spaced(await created.textContent())).toBe(spaced(local));
      }
      await context.close();
    }
  }, 180_000);

  it('made no request outside the server, and no page logged an error or a CSP violation', () => {
    expect(outside).toEqual([]);
    expect(pageErrors).toEqual([]);
  });
});
