import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { createAllApps } from '../functions/apps.js';
import { JSON_BODY_LIMIT, JSON_NESTING_LIMIT } from '../core/http/json-body.js';
import { call } from './support/http.js';
import { documentErrors, servedDocument } from './support/openapi-check.js';
import { scanAll } from './support/table-snapshot.js';
import { createTestDeps, itemCount as countItems, type TestDeps } from './support/deps.js';
import { merchantWithToken } from './support/merchants.js';
import { playerWithTokens, projectWithLevel } from './support/payments.js';

/**
 * Input limits through the HTTP API (docs/api.md, "Bases, envelopes, errors"): a JSON body's Content-Type (415) and
 * size (413), checked before the body is parsed, in the envelope of the path, writing nothing; strict integer
 * parameters; a project update that changes nothing.
 */
let deps: TestDeps;
let app: ReturnType<typeof createAllApps>;
const base = '/v2-testing';
const itemCount = () => countItems(deps);

beforeAll(async () => {
  deps = await createTestDeps();
  app = createAllApps(deps);
});

/** A raw request: the body as bytes (so fetch adds no Content-Type of its own) and exactly the headers given. */
async function raw(method: string, path: string, headers: Record<string, string>, body?: RequestInit['body'], init: Record<string, unknown> = {}) {
  const response = await app.request(`${base}${path}`, { method, headers, body, ...init });
  const text = await response.text();
  return { status: response.status, body: JSON.parse(text) as Record<string, unknown> };
}

const bytes = (text: string) => new TextEncoder().encode(text);

/** A JSON text of exactly `size` bytes: `fields` with the text field `pad` padded to fill it. */
function jsonOfSize(fields: Record<string, unknown>, pad: string, size: number): string {
  const empty = JSON.stringify({ ...fields, [pad]: '' });
  const text = JSON.stringify({ ...fields, [pad]: 'x'.repeat(size - Buffer.byteLength(empty)) });
  expect(Buffer.byteLength(text)).toBe(size);
  return text;
}

interface Case {
  label: string;
  path: string;
  envelope: 'merchant' | 'account';
  /** A bounded text field of the body, padded to make a large body that is still valid JSON. */
  pad: string;
  /** A valid request: its token and body (the same body with application/json is written). */
  setup: () => Promise<{ token: string; body: Record<string, unknown> }>;
}

const cases: Case[] = [
  {
    label: 'merchant path: project update',
    path: '/merchant/projects/update',
    envelope: 'merchant',
    pad: 'description',
    setup: async () => {
      const shop = await projectWithLevel(deps);
      return { token: shop.owner.token, body: { project_name: shop.project.project_name, description: 'new words' } };
    },
  },
  {
    label: 'account path: save_params',
    path: '/account/params',
    envelope: 'account',
    pad: 'ref',
    setup: async () => ({ token: (await playerWithTokens(deps)).platform, body: { ref: 'friend-1' } }),
  },
  {
    label: 'wallet path: vendor_reward',
    path: '/wallet/vendor/reward',
    envelope: 'account',
    pad: 'billNo',
    setup: async () => {
      const shop = await projectWithLevel(deps);
      const player = await playerWithTokens(deps);
      return { token: shop.server, body: { billNo: `R-${randomUUID()}`, userId: player.uid, projectName: shop.project.project_name, level: 1, amount: 3 } };
    },
  },
];

const envelopeOf = (kind: Case['envelope'], status: number, message: RegExp, error: string) =>
  kind === 'merchant'
    ? { code: status, message: expect.stringMatching(message), data: null, error }
    : { statusCode: status, message: expect.stringMatching(message), error };

describe('JSON bodies: 415 for another Content-Type, 413 past 256 KiB, before parsing, nothing written', () => {
  it('the limit is 256 KiB', () => {
    expect(JSON_BODY_LIMIT).toBe(262_144);
  });

  it.each(cases.map((c) => [c.label, c] as const))('%s', async (_label, c) => {
    const { token, body } = await c.setup();
    const auth = { authorization: `Bearer ${token}` };
    const before = await itemCount();

    // Another media type, even with a JSON text in it: 415.
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/jsonp', 'application/merge-patch+json']) {
      const res = await raw('POST', c.path, { ...auth, 'content-type': type }, bytes(JSON.stringify(body)));
      expect(res.status, type).toBe(415);
      expect(res.body).toEqual(
        envelopeOf(c.envelope, 415, new RegExp(`^body: Content-Type must be application/json, not ${type.replace('+', '\\+')}$`), 'body.unsupported_type'),
      );
    }
    // A body without a Content-Type: 415.
    const untyped = await raw('POST', c.path, auth, bytes(JSON.stringify(body)));
    expect(untyped.status).toBe(415);
    expect(untyped.body).toEqual(envelopeOf(c.envelope, 415, /^body: a body needs Content-Type: application\/json$/, 'body.unsupported_type'));

    // One byte past the limit, as valid JSON: 413 (by its Content-Length, then by the stream without one).
    const big = jsonOfSize(body, c.pad, JSON_BODY_LIMIT + 1);
    const tooLarge = envelopeOf(c.envelope, 413, /^body: larger than the 256 KiB/, 'body.too_large');
    const sized = await raw('POST', c.path, { ...auth, 'content-type': 'application/json', 'content-length': String(JSON_BODY_LIMIT + 1) }, bytes(big));
    expect(sized.status).toBe(413);
    expect(sized.body).toEqual(tooLarge);
    const streamed = await raw('POST', c.path, { ...auth, 'content-type': 'application/json' }, streamOf(big), { duplex: 'half' });
    expect(streamed.status).toBe(413);
    expect(streamed.body).toEqual(tooLarge);
    // A Content-Length past the limit is refused before a byte of the body is read.
    const declared = await raw('POST', c.path, { ...auth, 'content-type': 'application/json', 'content-length': String(10 * 1024 * 1024) }, streamOf(''), {
      duplex: 'half',
    });
    expect(declared.status).toBe(413);

    expect(await itemCount()).toBe(before);

    // Exactly at the limit the body is read: only the field rules refuse it (the padded field is too long).
    const atLimit = await raw('POST', c.path, { ...auth, 'content-type': 'application/json' }, bytes(jsonOfSize(body, c.pad, JSON_BODY_LIMIT)));
    expect(atLimit.status).toBe(400);
    expect(atLimit.body).toEqual(envelopeOf(c.envelope, 400, new RegExp(`^body\\.${c.pad}`), 'input.invalid'));
    expect(await itemCount()).toBe(before);

    // The same body as application/json (any letter case, with a charset) is taken.
    const taken = await raw('POST', c.path, { ...auth, 'content-type': 'Application/JSON; charset=utf-8' }, bytes(JSON.stringify(body)));
    expect(taken.status).toBe(200);
  });

  it('are checked before the token: no token with a wrong type is 415, with a large body 413', async () => {
    const before = await itemCount();
    const typed = await raw('POST', '/merchant/create', { 'content-type': 'text/plain' }, bytes('{}'));
    expect(typed).toEqual({
      status: 415,
      body: { code: 415, message: expect.stringMatching(/^body: Content-Type/), data: null, error: 'body.unsupported_type' },
    });
    const large = await raw('POST', '/account/user/rechargeOrder', { 'content-type': 'application/json' }, streamOf(`"${'x'.repeat(JSON_BODY_LIMIT)}"`), {
      duplex: 'half',
    });
    expect(large).toEqual({ status: 413, body: { statusCode: 413, message: expect.stringMatching(/^body: larger than/), error: 'body.too_large' } });
    expect(await itemCount()).toBe(before);
  });

  it('a request without a body needs no Content-Type: it is read as {} (save_params: an all-optional body)', async () => {
    const player = await playerWithTokens(deps);
    const res = await raw('POST', '/account/params', { authorization: `Bearer ${player.platform}` });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ params: {} });
    // An operation whose body has required fields answers 400 naming them, not 415.
    const owner = await merchantWithToken(deps);
    const required = await raw('POST', '/merchant/projects/update', { authorization: `Bearer ${owner.token}` });
    expect(required).toEqual({ status: 400, body: { code: 400, message: expect.stringMatching(/^body\.project_name/), data: null, error: 'input.invalid' } });
  });

  it('the multipart upload keeps its own rules (no JSON 415 on its multipart body)', async () => {
    const owner = await merchantWithToken(deps);
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])], { type: 'image/png' }), 'a.png');
    const res = await call(app, 'POST', `${base}/merchant/file`, { token: owner.token, body: form });
    expect(res.status).not.toBe(415);
  });
});

describe(`JSON bodies nested deeper than ${JSON_NESTING_LIMIT} levels: 400 naming the limit, as documented, nothing written`, () => {
  const document = servedDocument(base);
  /** Arrays or objects nested `levels` deep, the outermost counted as level 1. */
  const nested = {
    arrays: (levels: number) => '['.repeat(levels) + ']'.repeat(levels),
    objects: (levels: number) => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`,
  };
  const tooDeep = new RegExp(`^body: nested deeper than the ${JSON_NESTING_LIMIT} levels of arrays and objects a JSON body may have$`);

  it('the limit is 64 levels', () => {
    expect(JSON_NESTING_LIMIT).toBe(64);
  });

  it.each(cases.map((c) => [c.label, c] as const))('%s', async (_label, c) => {
    const { token, body } = await c.setup();
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const send = async (text: string) => {
      const res = await raw('POST', c.path, headers, bytes(text));
      expect(documentErrors(document, c.path, 'post', res.status, res.body), text.slice(0, 40)).toEqual([]);
      return res;
    };
    /** The valid body with the padded field replaced by `value`: the body's own object adds a level. */
    const inField = (value: string) => JSON.stringify({ ...body, [c.pad]: 0 }).replace(`"${c.pad}":0`, `"${c.pad}":${value}`);
    const before = await scanAll(deps);

    for (const [shape, of] of Object.entries(nested)) {
      // 10,000 levels (valid JSON, past where the parser's recursion used to run out of stack) and one level past the limit.
      for (const levels of [10_000, JSON_NESTING_LIMIT + 1]) {
        for (const [where, text] of [
          ['the whole body', of(levels)],
          [`body.${c.pad}`, inField(of(levels - 1))],
        ] as const) {
          const res = await send(text);
          expect(res, `${shape} ${levels} deep, ${where}`).toEqual({ status: 400, body: envelopeOf(c.envelope, 400, tooDeep, 'body.malformed') });
        }
      }
      // At the limit the body is parsed: the field rules answer.
      const atLimit = await send(inField(of(JSON_NESTING_LIMIT - 1)));
      expect(atLimit, `${shape} at the limit`).toEqual({ status: 400, body: envelopeOf(c.envelope, 400, new RegExp(`^body\\.${c.pad}: `), 'input.invalid') });
    }
    // Deep and not JSON (never closed) is still invalid JSON.
    expect(await send('['.repeat(10_000))).toEqual({ status: 400, body: envelopeOf(c.envelope, 400, /^body: must be valid JSON$/, 'body.malformed') });
    // Brackets inside a string are text, not nesting: a string is not the object the body must be.
    const text = await send(JSON.stringify('['.repeat(10_000)));
    expect(text.status).toBe(400);
    expect(text.body.message).toMatch(/^body: /);
    expect(text.body.message).not.toMatch(/nested|valid JSON/);

    expect(await scanAll(deps)).toEqual(before);
  });
});

describe('strict integer parameters', () => {
  it('take canonical decimal integers at the ends of their range', async () => {
    const owner = await merchantWithToken(deps);
    for (const query of [
      { page: '0', pageSize: '1' },
      { page: '12', pageSize: '100' },
    ]) {
      const res = await call(app, 'GET', `${base}/merchant/games/list`, { token: owner.token, query });
      expect(res.status, JSON.stringify(query)).toBe(200);
    }
  });
});

describe('project update with nothing to change', () => {
  it('is 400 naming the body, and the project is left as it was', async () => {
    const shop = await projectWithLevel(deps);
    const list = async () => (await call(app, 'GET', `${base}/merchant/projects`, { token: shop.owner.token })).body.data;
    const before = await list();
    const count = await itemCount();
    const res = await call(app, 'POST', `${base}/merchant/projects/update`, { token: shop.owner.token, body: { project_name: shop.project.project_name } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      code: 400,
      message: 'body: nothing to change: give at least one of description, receive_address, status',
      data: null,
      error: 'input.invalid',
    });
    expect(await list()).toEqual(before);
    expect(await itemCount()).toBe(count);

    const changed = await call(app, 'POST', `${base}/merchant/projects/update`, {
      token: shop.owner.token,
      body: { project_name: shop.project.project_name, status: 0 },
    });
    expect(changed.status).toBe(200);
    expect(changed.body.data.status).toBe(0);
  });
});

function streamOf(text: string): ReadableStream<Uint8Array> {
  const data = bytes(text);
  const chunk = 16 * 1024;
  let offset = 0;
  return new ReadableStream({
    pull(controller) {
      if (offset >= data.length) return controller.close();
      controller.enqueue(data.subarray(offset, offset + chunk));
      offset += chunk;
    },
  });
}
