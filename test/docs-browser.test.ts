import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserAvailable, launchBrowser } from './support/browser.js';
import { killLocalServers, onWorkersDynamo, request, startLocalServer, type LocalServer } from './support/local-server.js';

/**
 * The API reference in a real browser (docs/api.md "The API reference"): headless Chromium from the
 * system's packages (`/usr/bin/chromium`; .ci/run installs Debian's `chromium` when it is missing) driven by
 * playwright-core, against `npm start` on loopback. Each base's /docs must render with no request leaving the
 * server, list every operation of the base's OpenAPI document with a lock exactly on the protected ones, under
 * the document's sections in its order, and send its "try it" calls to the same server: an open read, and a
 * protected read with a bearer token typed into the page's auth form. The home pages (the host root and each
 * base) must say what the service is and link the reference, whose section a link opens, the document and the
 * console. Screenshots go to test-results/docs-browser/.
 *
 * Without /usr/bin/chromium the file is skipped with a notice, unless REQUIRE_BROWSER=1 (set by .ci/run),
 * where a missing browser fails the run.
 */
const SCREENSHOTS = join('test-results', 'docs-browser');
const available = browserAvailable('docs-browser');

let server: LocalServer;
let browser: Browser;
/** Every request a page made that did not go to the server, and every Content-Security-Policy violation. */
const outside: string[] = [];
const violations: string[] = [];

beforeAll(async () => {
  if (!available) return;
  const dataDir = mkdtempSync(join(tmpdir(), 'docs-browser-'));
  server = await startLocalServer({ DATA_DIR: dataDir, ...onWorkersDynamo(dataDir) });
  browser = await launchBrowser();
  mkdirSync(SCREENSHOTS, { recursive: true });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await killLocalServers();
});

/** Opens a base's reference (openPage's watch on what it loads) and waits until it lists its sections. */
async function openDocs(base: string): Promise<Page> {
  const page = await openPage(`${base}/docs`);
  await page.waitForSelector('.opblock-tag', { timeout: 60_000 });
  return page;
}

/**
 * Each base's reference, loaded once and shared by the tests that read it, as a reader keeps one tab open: a load
 * renders the whole document in the browser (about 6 s for the main base on an idle 2-core machine, twice that beside
 * the suite). A test opens the sections it reads through openSection, which minds one another test left open, and
 * each opens operations no other test opens (a click on an open one would close it).
 */
const docsPages = new Map<string, Promise<Page>>();
function docsPage(base: string): Promise<Page> {
  const page = docsPages.get(base) ?? openDocs(base);
  docsPages.set(base, page);
  return page;
}

/** Opens a section of the reference (they start closed) and answers it. */
async function openSection(page: Page, tag: string) {
  const heading = page.locator(`.opblock-tag[data-tag="${tag}"]`);
  const section = page.locator('.opblock-tag-section', { has: heading });
  if (!/is-open/.test((await section.getAttribute('class')) ?? '')) await heading.click();
  await section.locator('.opblock').first().waitFor({ timeout: 30_000 });
  return section;
}

interface Listed {
  key: string;
  locked: boolean;
}

/** The operations the page lists: `METHOD /path` and whether it shows a lock (a security requirement). */
async function listed(page: Page): Promise<Listed[]> {
  const shown: Listed[] = [];
  for (const tag of await page.$$eval('.opblock-tag', (headings) => headings.map((h) => h.getAttribute('data-tag')!))) {
    const section = await openSection(page, tag);
    shown.push(
      ...(await section.locator('.opblock').evaluateAll((blocks) =>
        blocks.map((block) => ({
          key: `${block.querySelector('.opblock-summary-method')?.textContent?.trim()} ${block.querySelector('.opblock-summary-path')?.getAttribute('data-path')}`,
          locked: block.querySelector('.authorization__btn') !== null,
        })),
      )),
    );
    // Closed again: one section open at a time, as a reader goes through them.
    await page.locator(`.opblock-tag[data-tag="${tag}"]`).click();
  }
  return shown;
}

/** The document's operations, as the page should list them. */
async function documented(base: string): Promise<Listed[]> {
  const doc = (await request(server.base, 'GET', `${base}/openapi.json`)).body as { paths: Record<string, Record<string, { security?: unknown[] }>> };
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => ['get', 'post', 'put', 'delete', 'patch'].includes(method))
      .map(([method, op]) => ({ key: `${method.toUpperCase()} ${path}`, locked: (op.security?.length ?? 0) > 0 })),
  );
}

const byKey = (a: Listed, b: Listed) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);

/** Opens a page of the server (a home page, a reference), watching what it loads and what its policy refuses. */
async function openPage(path: string): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.on('request', (r) => {
    if (!r.url().startsWith(server.base) && !r.url().startsWith('data:')) outside.push(r.url());
  });
  page.on('console', (m) => {
    if (m.type() === 'error' && /Content Security Policy/i.test(m.text())) violations.push(m.text());
  });
  const res = await page.goto(`${server.base}${path}`);
  expect(res?.status(), path).toBe(200);
  return page;
}

/** The links of a page, as `text -> path` (relative to the server). */
const linksOf = (page: Page) =>
  page.$$eval('a', (anchors) => anchors.map((a) => ({ text: a.textContent?.trim() ?? '', href: new URL(a.href).pathname + new URL(a.href).hash })));

/** Opens an operation, presses "Try it out" and "Execute", and answers the status and body the page shows. */
async function tryIt(page: Page, tag: string, method: string, path: string): Promise<{ status: string; body: string }> {
  await openSection(page, tag);
  const block = page
    .locator('.opblock', { has: page.locator(`.opblock-summary-path[data-path="${path}"]`) })
    .filter({ has: page.locator(`.opblock-summary-method:text-is("${method}")`) });
  await block.locator('.opblock-summary').first().click();
  await block.locator('.try-out__btn').click();
  await block.locator('.execute').click();
  const live = block.locator('.live-responses-table .response').first();
  await live.waitFor({ timeout: 30_000 });
  await live.scrollIntoViewIfNeeded();
  return {
    status: (await live.locator('.response-col_status').textContent())!.trim(),
    body: (await live.locator('.response-col_description pre').first().textContent()) ?? '',
  };
}

describe.skipIf(!available)('the API reference in a browser', () => {
  for (const [name, base] of [
    ['main', '/v2-testing'],
    ['hero', '/hero-testing'],
  ] as const) {
    it(`${base}/docs lists every operation of the base's document with its auth, loading nothing from elsewhere`, async () => {
      const page = await docsPage(base);
      const shown = (await listed(page)).sort(byKey);
      const expected = (await documented(base)).sort(byKey);
      expect(shown.length).toBeGreaterThan(name === 'main' ? 90 : 8);
      expect(shown).toEqual(expected);
      expect(shown.some((op) => op.locked) && shown.some((op) => !op.locked)).toBe(true);
      await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: false });
      expect(outside).toEqual([]);
      expect(violations).toEqual([]);
    }, 120_000);
  }

  it("lists the operations under the document's sections, in its order, each with its description", async () => {
    for (const base of ['/v2-testing', '/hero-testing']) {
      const doc = (await request(server.base, 'GET', `${base}/openapi.json`)).body as { tags: { name: string; description: string }[] };
      const page = await docsPage(base);
      const sections = await page.$$eval('.opblock-tag', (headings) =>
        headings.map((h) => ({ name: h.getAttribute('data-tag'), description: h.querySelector('small, .markdown, p')?.textContent?.trim() })),
      );
      expect(sections.map((section) => section.name)).toEqual(doc.tags.map((tag) => tag.name));
      for (const [index, tag] of doc.tags.entries()) expect(sections[index]!.description, tag.name).toBe(tag.description);
      // No section is a deployment group's.
      expect(sections.map((section) => section.name)).not.toContain('inner');
    }
    expect(outside).toEqual([]);
    expect(violations).toEqual([]);
  }, 120_000);

  it('the home pages (the host root, each base) say what the service is and link the reference, the document and the console', async () => {
    for (const [path, base] of [
      ['/', '/v2-testing'],
      ['/v2-testing', '/v2-testing'],
      ['/hero-testing', '/hero-testing'],
    ] as const) {
      const page = await openPage(path);
      const hero = base === '/hero-testing';
      expect(await page.title(), path).toBe(hero ? 'Hero game API' : 'Game platform API');
      expect(await page.locator('h1').textContent(), path).toBe(hero ? 'Hero game API' : 'Game platform API');
      expect(await page.locator('main p').first().textContent(), path).toMatch(hero ? /hero game/ : /studios .* players/i);
      const links = await linksOf(page);
      const href = (text: string) => links.find((link) => link.text === text)?.href;
      expect(href('API reference'), path).toBe(`${base}/docs`);
      expect(href('OpenAPI document'), path).toBe(`${base}/openapi.json`);
      expect(href('Operator console'), path).toBe(hero ? undefined : '/v2-testing/console');
      if (!hero) expect(href('Hero game API reference'), path).toBe('/hero-testing/docs');
      await page.screenshot({ path: join(SCREENSHOTS, `home${path === '/' ? '' : path.replace('/', '-')}.png`), fullPage: true });
      await page.close();
    }
    // The base with a trailing slash, where the reference's "try it" sends its home page, is the base.
    const slashed = await openPage('/v2-testing/');
    expect(new URL(slashed.url()).pathname).toBe('/v2-testing');
    await slashed.close();
    expect(outside).toEqual([]);
    expect(violations).toEqual([]);
  }, 120_000);

  it("a section's link on the home page opens that section of the reference, whose examples read as real values", async () => {
    const home = await openPage('/');
    await home.locator('a', { hasText: /^tickets and payments$/ }).click();
    await home.waitForSelector('.opblock', { timeout: 60_000 });
    expect(new URL(home.url()).pathname).toBe('/v2-testing/docs');
    // The reference is scrolled to the section (Swagger UI's deep link), which lists that purpose's operations.
    const heading = home.locator('.opblock-tag[data-tag="tickets and payments"]');
    await expect.poll(async () => (await heading.boundingBox())?.y ?? -1, { timeout: 30_000 }).toBeGreaterThanOrEqual(0);
    expect((await heading.boundingBox())!.y).toBeLessThan(900);
    const open = home.locator('.opblock-tag-section', { has: heading });
    expect(await open.getAttribute('class')).toMatch(/is-open/);
    const shown = await open.locator('.opblock-summary-path').evaluateAll((paths) => paths.map((p) => p.getAttribute('data-path')));
    expect(shown).toEqual(expect.arrayContaining(['/account/user/rechargeOrder', '/account/game/minus_tickets', '/merchant/projects']));
    expect(shown).not.toContain('/merchant/login');

    // An operation's request example: the values the document gives, not text made up from a pattern.
    const recharge = open.locator('.opblock', { has: home.locator('.opblock-summary-path[data-path="/account/user/rechargeOrder"]') });
    await recharge.locator('.opblock-summary').first().click();
    const example = (await recharge.locator('.opblock-section-request-body .highlight-code').first().textContent()) ?? '';
    expect(JSON.parse(example)).toMatchObject({ userId: 'd64a1c3a-1343-45ce-9f4b-5488d5cb7d5f', project: 'arena-tickets', amount: 100000000 });
    await home.screenshot({ path: join(SCREENSHOTS, 'section.png'), fullPage: false });
    await home.close();

    const studios = await docsPage('/v2-testing');
    await openSection(studios, 'studios');
    const login = studios.locator('.opblock', { has: studios.locator('.opblock-summary-path[data-path="/merchant/login"]') });
    await login.locator('.opblock-summary').first().click();
    const body = JSON.parse((await login.locator('.opblock-section-request-body .highlight-code').first().textContent()) ?? '{}') as { email?: string };
    expect(body.email).toBe('studio@example.com');
    expect(outside).toEqual([]);
    expect(violations).toEqual([]);
  }, 120_000);

  it('"try it" sends an open read and, with a bearer token typed into the auth form, a protected read to the same server', async () => {
    const credentials = /demo merchant account: (\S+) \/ (\S+)/.exec(server.output());
    expect(credentials, server.output()).not.toBeNull();
    const login = await request(server.base, 'POST', '/v2-testing/merchant/login', { body: { email: credentials![1], password: credentials![2] } });
    expect(login.status).toBe(200);
    const token = login.body.data.accessToken as string;

    const page = await docsPage('/v2-testing');
    const sent: { url: string; authorization?: string }[] = [];
    const watch = (r: Request) => sent.push({ url: r.url(), authorization: r.headers().authorization });
    page.on('request', watch);

    const health = await tryIt(page, 'platform', 'GET', '/health');
    expect(health.status).toBe('200');
    expect(JSON.parse(health.body)).toEqual({ status: 'ok', stage: 'v2-testing' });
    expect(sent.find((r) => r.url === `${server.base}/v2-testing/health`)).toBeDefined();

    await page.locator('.auth-wrapper .authorize').click();
    const modal = page.locator('.modal-ux');
    await modal.locator('input').first().fill(token);
    await modal.locator('button.authorize').click();
    await modal.locator('button.btn-done, .close-modal').first().click();

    const info = await tryIt(page, 'studios', 'GET', '/merchant/info');
    expect(info.status).toBe('200');
    const merchant = JSON.parse(info.body) as { code: number; data: { merchant_name?: string } };
    expect(merchant.code).toBe(200);
    expect(merchant.data.merchant_name).toBeTruthy();
    expect(sent.find((r) => r.url === `${server.base}/v2-testing/merchant/info`)?.authorization).toBe(`Bearer ${token}`);
    await page.screenshot({ path: join(SCREENSHOTS, 'try-it.png'), fullPage: false });
    page.off('request', watch);
    expect(outside).toEqual([]);
    expect(violations).toEqual([]);
  }, 120_000);
});
