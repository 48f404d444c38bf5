import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildConsole } from '../console/build.js';
import { createMetaApp } from '../functions/meta.js';
import { createTestDeps } from './support/deps.js';

/**
 * The operator console's page and files as the meta function serves them (docs/console.md): the page's
 * Content-Security-Policy, the files versioned by their content and kept for a year, gzip, and 503
 * `console.unbuilt` when the process has no build. Its behaviour in a browser: test/console-browser.test.ts.
 */
let app: ReturnType<typeof createMetaApp>;
const saved = process.env.CONSOLE_ASSETS_DIR;

beforeAll(async () => {
  app = createMetaApp(await createTestDeps());
});

afterAll(() => {
  if (saved === undefined) delete process.env.CONSOLE_ASSETS_DIR;
  else process.env.CONSOLE_ASSETS_DIR = saved;
});

describe('the console unbuilt', () => {
  it('answers 503 console.unbuilt for the page and its files, in the path envelope', async () => {
    delete process.env.CONSOLE_ASSETS_DIR;
    for (const path of ['/v2-testing/console', '/v2-testing/console/assets/console.js']) {
      const res = await app.request(path);
      expect(res.status, path).toBe(503);
      expect(res.headers.get('x-content-type-options'), path).toBe('nosniff');
      expect(await res.json(), path).toEqual({ statusCode: 503, message: 'the console was not built for this deployment', error: 'console.unbuilt' });
    }
  });
});

describe('the console built', () => {
  beforeAll(async () => {
    process.env.CONSOLE_ASSETS_DIR = mkdtempSync(join(tmpdir(), 'console-site-'));
    await buildConsole(process.env.CONSOLE_ASSETS_DIR);
  }, 60_000);

  it('serves the page with its CSP, naming the API base and each file by its version', async () => {
    const res = await app.request('/v2-testing/console');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).toBe(
      "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' blob: data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    );
    const html = await res.text();
    expect(html).toContain('data-api-base="/v2-testing"');
    // Without the hero API's URL (npm start), the hero base is on the page's own origin.
    expect(html).toContain('data-hero-base="/hero-testing"');
    const script = /src="(\/v2-testing\/console\/assets\/console\.js\?v=[0-9a-f]{16})"/.exec(html)?.[1];
    const style = /href="(\/v2-testing\/console\/assets\/console\.css\?v=[0-9a-f]{16})"/.exec(html)?.[1];
    expect(script && style, html).toBeTruthy();
    for (const [url, type] of [
      [script!, 'text/javascript; charset=utf-8'],
      [style!, 'text/css; charset=utf-8'],
    ] as const) {
      const plain = await app.request(url);
      expect(plain.status).toBe(200);
      expect(plain.headers.get('content-type')).toBe(type);
      expect(plain.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      // Used only as what it is served as: a script as a script, a stylesheet as a stylesheet.
      expect(plain.headers.get('x-content-type-options')).toBe('nosniff');
      const body = new Uint8Array(await plain.arrayBuffer());
      const zipped = await app.request(url, { headers: { 'accept-encoding': 'gzip, br' } });
      expect(zipped.headers.get('content-encoding')).toBe('gzip');
      expect(zipped.headers.get('x-content-type-options')).toBe('nosniff');
      expect(new Uint8Array(gunzipSync(new Uint8Array(await zipped.arrayBuffer())))).toEqual(body);
    }
  });

  it("names the hero API's origin in the policy when the hero base is on another host, and nothing else", async () => {
    const hero = 'https://hero123.execute-api.eu-west-1.amazonaws.com';
    process.env.HERO_API_URL = `${hero}/hero-testing`;
    try {
      const res = await app.request('/v2-testing/console');
      expect(res.status).toBe(200);
      expect(res.headers.get('content-security-policy')).toContain(`; connect-src 'self' ${hero}; `);
      expect(await res.text()).toContain(`data-hero-base="${hero}/hero-testing"`);
    } finally {
      delete process.env.HERO_API_URL;
    }
  });

  it("refuses a file that is not the console's with 400 naming it", async () => {
    const res = await app.request('/v2-testing/console/assets/secret.json');
    expect(res.status).toBe(400);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await res.json()).toMatchObject({ statusCode: 400, error: 'input.invalid', message: expect.stringMatching(/^path\.file: /) });
  });

  it('is not on the hero base', async () => {
    const res = await app.request('/hero-testing/console');
    expect([res.status, res.headers.get('x-content-type-options')]).toEqual([404, 'nosniff']);
  });
});
