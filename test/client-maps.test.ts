import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { createAllApps } from '../functions/apps.js';
import { call } from './support/http.js';
import { createTestDeps, itemCount, type TestDeps } from './support/deps.js';
import { merchantWithToken } from './support/merchants.js';
import { gamePayload, newCode } from './support/games.js';

/**
 * Maps from clients (docs/api.md, "Maps and lists from clients"): a game's `link` and a player's saved parameters are
 * bounded (entries, keys, values), and the keys `__proto__`, `constructor` and `prototype` are refused with a 400
 * naming them, where `constructor` was a 500 and `__proto__` vanished silently. Bodies are sent as raw JSON text, so
 * a `__proto__` key is really in them (an object literal would set the prototype instead).
 */

const base = '/v2-testing';
const RESERVED = ['__proto__', 'constructor', 'prototype'];
let deps: TestDeps;
let app: ReturnType<typeof createAllApps>;

beforeAll(async () => {
  deps = await createTestDeps();
  app = createAllApps(deps);
});

/** A JSON object's text with these entries, in order (keys written as given, `__proto__` included). */
const objectText = (entries: [string, string][]) => `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`).join(',')}}`;
/** A savemerchantgame body whose link is `linkText`. */
const gameBody = (code: string, linkText: string) => JSON.stringify({ ...gamePayload(code), link: '@' }).replace('"@"', linkText);
const links = (n: number) => Array.from({ length: n }, (_, i): [string, string] => [`p${i}`, `https://p${i}.example.com`]);
const params = (n: number) => Array.from({ length: n }, (_, i): [string, string] => [`k${i}`, `v${i}`]);

describe("a game's link map", () => {
  it.each(RESERVED)('refuses the key %s with 400 naming it, on save and on update, writing nothing', async (key) => {
    const owner = await merchantWithToken(deps);
    const code = newCode('maps');
    const before = await itemCount(deps);
    const saved = await call(app, 'POST', `${base}/merchant/games/save`, {
      token: owner.token,
      body: gameBody(
        code,
        objectText([
          ['web', 'https://a.example.com'],
          [key, 'https://b.example.com'],
        ]),
      ),
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(400);
    expect(saved.body).toEqual({
      code: 400,
      message: `body.link.${key}: a reserved name; keys may not be __proto__, constructor or prototype`,
      data: null,
      error: 'input.invalid',
    });
    expect(await itemCount(deps)).toBe(before);

    expect((await call(app, 'POST', `${base}/merchant/games/save`, { token: owner.token, body: gamePayload(code) })).status).toBe(200);
    const afterSave = await itemCount(deps);
    const updated = await call(app, 'POST', `${base}/merchant/games/update`, {
      token: owner.token,
      body: `{"code":"${code}","link":${objectText([[key, 'https://c.example.com']])}}`,
    });
    expect(updated.status).toBe(400);
    expect(updated.body.message).toBe(`body.link.${key}: a reserved name; keys may not be __proto__, constructor or prototype`);
    expect(await itemCount(deps)).toBe(afterSave);
    const detail = await call(app, 'GET', `${base}/merchant/games/detail`, { query: { code } });
    expect(detail.body.data.link).toEqual({ web: 'https://play.example.com' });
  });

  it('keeps 20 links exactly and refuses 21, or a key that is not a platform name, with 400', async () => {
    const owner = await merchantWithToken(deps);
    const code = newCode('maps');
    const twenty = links(20);
    const saved = await call(app, 'POST', `${base}/merchant/games/save`, { token: owner.token, body: gameBody(code, objectText(twenty)) });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const detail = await call(app, 'GET', `${base}/merchant/games/detail`, { query: { code } });
    expect(detail.body.data.link).toEqual(Object.fromEntries(twenty));

    const before = await itemCount(deps);
    const tooMany = await call(app, 'POST', `${base}/merchant/games/save`, { token: owner.token, body: gameBody(newCode('maps'), objectText(links(21))) });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.message).toBe('body.link: at most 20 entries, got 21');
    const badKey = await call(app, 'POST', `${base}/merchant/games/save`, {
      token: owner.token,
      body: gameBody(newCode('maps'), objectText([['no spaces', 'https://a.example.com']])),
    });
    expect(badKey.status).toBe(400);
    expect(badKey.body.message).toMatch(/^body\.link\.no spaces: not a valid key: expected a platform name/);
    expect(await itemCount(deps)).toBe(before);
  });
});

describe('save_params', () => {
  const save = async (bodyText: string) => {
    const token = (await deps.tokens.issue('platform', randomUUID())).token;
    return call(app, 'POST', `${base}/account/params`, { token, body: bodyText });
  };

  it.each(RESERVED)('refuses the key %s with 400 naming it, writing nothing', async (key) => {
    const before = await itemCount(deps);
    const res = await save(
      objectText([
        ['a', 'y'],
        [key, 'x'],
      ]),
    );
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      statusCode: 400,
      message: `body.${key}: a reserved name; keys may not be __proto__, constructor or prototype`,
      error: 'input.invalid',
    });
    expect(await itemCount(deps)).toBe(before);
  });

  it('keeps 32 parameters exactly and refuses 33 with 400', async () => {
    const ok = await save(objectText(params(32)));
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.data.params).toEqual(Object.fromEntries(params(32)));
    const before = await itemCount(deps);
    const res = await save(objectText(params(33)));
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('body: at most 32 entries, got 33');
    expect(await itemCount(deps)).toBe(before);
  });
});

describe('the OpenAPI document', () => {
  it('shows each map with its key pattern, value schema and maxProperties', async () => {
    const document = (await call(app, 'GET', `${base}/openapi.json`)).body;
    const bodyOf = (path: string) => document.paths[path].post.requestBody.content['application/json'].schema;
    expect(bodyOf('/merchant/games/save').properties.link).toMatchObject({
      type: 'object',
      propertyNames: { pattern: '^[A-Za-z0-9_-]{1,30}$' },
      additionalProperties: { type: 'string', format: 'uri' },
      maxProperties: 20,
    });
    expect(bodyOf('/account/params')).toMatchObject({
      type: 'object',
      propertyNames: { pattern: '^[A-Za-z0-9_.-]{1,64}$' },
      additionalProperties: { type: 'string', maxLength: 512 },
      maxProperties: 32,
    });
  });
});
