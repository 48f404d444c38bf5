import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserAvailable } from './support/browser.js';
import { goTo, openConsole, signIn, startConsoleStage, type ConsoleStage } from './support/console-page.js';
import { request, type LocalServer } from './support/local-server.js';

/**
 * The console's Tokens and Account screens in a real browser (headless Debian Chromium through playwright-core)
 * against `npm start` on loopback with the demo studio, at a desktop and a phone width: a named server token is
 * issued and shown once, listed by name, revoked alone (checked on the API: refused, while the studio's other
 * token works), and the password is changed, after which the console keeps working and the new password signs in.
 */
const available = browserAvailable('console-tokens-browser');

let stage: ConsoleStage;
let server: LocalServer;
let studio: { email: string; password: string };
let SCREENSHOTS: string;
const pageErrors: string[] = [];

beforeAll(async () => {
  if (!available) return;
  stage = await startConsoleStage('console-tokens-browser');
  ({ server, studio, screenshots: SCREENSHOTS } = stage);
}, 180_000);

afterAll(() => stage?.stop());

/** A message shows next to what caused it: its box starts within `gap` px of the button's. */
async function expectNear(message: Locator, button: Locator, gap = 160) {
  const [m, b] = [await message.boundingBox(), await button.boundingBox()];
  expect(m && b, 'both are on the page').toBeTruthy();
  const distance = Math.max(0, m!.y - (b!.y + b!.height), b!.y - (m!.y + m!.height));
  expect(distance, 'the message is next to its button').toBeLessThanOrEqual(gap);
}

const noOverflow = async (page: Page) =>
  expect(await page.evaluate('document.documentElement.scrollWidth <= innerWidth'), 'the page fits its width').toBe(true);

/** A server token on a server-token read: 401 `auth.token_revoked` once revoked; otherwise past the policy (404: no such project). */
const serverCall = (token: string) =>
  request(server.base, 'GET', '/v2-testing/account/game/remainBalance', { token, query: { projectName: `none-${randomUUID()}`, userId: randomUUID() } });

describe.skipIf(!available)('console: server tokens by name and the password', () => {
  let password = '';
  beforeAll(() => {
    password = studio.password;
  });

  for (const width of [1280, 390]) {
    it(`issues, lists and revokes a named token, and changes the password, at ${width} px`, async () => {
      const page = await openConsole(stage, width, pageErrors, { clipboard: true });
      await signIn(page, { email: studio.email, password });
      await goTo(page, 'Tokens and sessions');
      const name = `w${width}-${randomUUID().slice(0, 6)}`;
      const keep = `keep-${width}-${randomUUID().slice(0, 6)}`;

      // Issue two named tokens: each is shown once, with its copy button.
      const issue = async (tokenName: string) => {
        await page.getByLabel('Name').fill(tokenName);
        await page.getByRole('button', { name: 'Issue token' }).click();
        const secret = page.getByRole('region', { name: 'The new server token' });
        await secret.getByText(`“${tokenName}”`).waitFor();
        const token = await secret.getByLabel('Server token').inputValue();
        await secret.getByRole('button', { name: 'Copy token' }).click();
        await secret.getByRole('status').getByText('Copied.').waitFor();
        expect(await page.evaluate('navigator.clipboard.readText()')).toBe(token);
        return token;
      };
      const token = await issue(name);
      const other = await issue(keep);
      expect((await serverCall(token)).status).toBe(404);

      // Listed by name, never the token itself.
      const row = page.getByRole('row', { name: new RegExp(name) });
      await row.waitFor();
      expect(await page.getByRole('table').textContent()).not.toContain(token);
      await noOverflow(page);
      await page.screenshot({ path: join(SCREENSHOTS, `tokens-${width}.png`), fullPage: true });

      // Revoke it alone, through its own button and the confirming dialog.
      await row.getByRole('button', { name: `Revoke ${name}` }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Revoke token' }).click();
      await row.getByText('Revoked').waitFor();
      await page.getByRole('status').getByText(`“${name}” is revoked`).waitFor();
      const refused = await serverCall(token);
      expect([refused.status, refused.body.error]).toEqual([401, 'auth.token_revoked']);
      expect((await serverCall(other)).status).toBe(404);
      expect(
        await page
          .getByRole('row', { name: new RegExp(keep) })
          .getByRole('button', { name: `Revoke ${keep}` })
          .count(),
      ).toBe(1);

      // A wrong current password: the message beside the form, nothing changed.
      await goTo(page, 'Account');
      const submit = page.getByRole('button', { name: 'Change password' });
      await page.getByLabel('Current password').fill('not the password');
      await page.getByLabel('New password').fill('a new password 1');
      await submit.click();
      const wrong = page.getByText('wrong password').first();
      await wrong.waitFor();
      await expectNear(wrong, submit);
      // Too short: named beside its field, nothing sent.
      await page.getByLabel('Current password').fill(password);
      await page.getByLabel('New password').fill('short');
      await submit.click();
      await page
        .getByText(/at least 8 characters/)
        .first()
        .waitFor();

      // The change: the console goes on with its new session, the new password signs in, the old one does not.
      const next = `new password ${width} ${randomUUID().slice(0, 4)}`;
      await page.getByLabel('New password').fill(next);
      await submit.click();
      const done = page.getByRole('status').getByText(/Your password is changed/);
      await done.waitFor();
      await expectNear(done, submit);
      await noOverflow(page);
      await page.screenshot({ path: join(SCREENSHOTS, `account-${width}.png`), fullPage: true });
      await goTo(page, 'Tokens and sessions');
      await page.getByRole('row', { name: new RegExp(keep) }).waitFor();
      expect((await request(server.base, 'POST', '/v2-testing/merchant/login', { body: { email: studio.email, password } })).status).toBe(401);
      password = next;

      await page.getByRole('button', { name: 'Sign out', exact: true }).click();
      await signIn(page, { email: studio.email, password });
      await page.context().close();
      expect(pageErrors).toEqual([]);
    }, 120_000);
  }
});
