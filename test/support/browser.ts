import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/**
 * Debian's Chromium, driven by playwright-core (no browser download), for the tests that need a real browser.
 * Without it a file's browser checks are skipped with a notice, unless REQUIRE_BROWSER=1 (set by .ci/run), where
 * a missing browser fails the run. The flags keep a headless Chromium from calling out to the network.
 */
const CHROMIUM = '/usr/bin/chromium';
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** Whether Chromium is here; `who` names the test file in the notice. */
export function browserAvailable(who: string): boolean {
  const available = existsSync(CHROMIUM);
  if (!available && process.env.REQUIRE_BROWSER === '1')
    throw new Error(`${CHROMIUM} is missing: install Debian's chromium package (apt-get install chromium)`);
  if (!available) console.warn(`${who}: ${CHROMIUM} is missing, the browser checks are skipped (apt-get install chromium)`);
  return available;
}

export const launchBrowser = (): Promise<Browser> => chromium.launch({ executablePath: CHROMIUM, args: FLAGS });
