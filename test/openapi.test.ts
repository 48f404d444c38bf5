import { readFileSync } from 'node:fs';
import { codesOf } from '../core/http/operation-codes.js';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { open } from '../core/http/auth.js';
import { errorsOf } from '../core/http/policy-text.js';
import { errorEnvelopeOf } from '../core/http/envelopes.js';
import { openApiDocument } from '../core/http/openapi.js';
import { defineGroup, type OperationSpec } from '../core/http/operation.js';
import { referencePage } from '../core/http/reference-page.js';
import { REFERENCE_VERSION } from '../core/http/reference-assets.js';
import { routeTable } from '../functions/routes/index.js';
import { TAGS } from '../core/http/tags.js';
import { idempotencyKeyOf } from '../core/platform/idempotency-key.js';

type Json = Record<string, any>;

const methods = ['get', 'post', 'put', 'delete'];
const openApiPath = (honoPath: string) => honoPath.replace(/:(\w+)/g, '{$1}');

function operationsOf(document: Json) {
  return Object.entries(document.paths as Json).flatMap(([path, item]) =>
    Object.entries(item as Json)
      .filter(([method]) => methods.includes(method))
      .map(([method, operation]) => ({ path, method, operation: operation as Json })),
  );
}

/** Every Schema Object of the document: parameters, bodies, responses and components. */
function schemasOf(document: Json): Json[] {
  const contents = (owner: Json | undefined) => Object.values((owner?.content ?? {}) as Json).map((media) => media.schema);
  return [
    ...operationsOf(document).flatMap(({ operation }) => [
      ...(operation.parameters ?? []).map((parameter: Json) => parameter.schema),
      ...contents(operation.requestBody),
      ...Object.values(operation.responses as Json).flatMap(contents),
    ]),
  ];
}

const op = (overrides: Partial<OperationSpec>): OperationSpec => ({
  name: 'op',
  method: 'GET',
  path: '/op',
  tag: 'games',
  auth: open,
  summary: 'an operation',
  status: 200,
  envelope: 'bare',
  response: z.object({ ok: z.boolean() }),
  errors: {},
  ...overrides,
});

describe.each([
  ['main', '/v2-testing'],
  ['hero', '/hero-testing'],
] as const)('the %s base document', (base, basePath) => {
  const document = openApiDocument(routeTable, base, { basePath }) as Json;
  const operations = operationsOf(document);
  // Every operation of the base once: the home page, served at the host root and at the base, is one operation.
  const specs = [
    ...new Set(routeTable.filter((group) => group.base === base || (base === 'main' && group.base === 'root')).flatMap((group) => Object.values(group.ops))),
  ].map((spec) => ({ group: spec.tag, spec }));

  it('is valid OpenAPI 3.1, with every schema valid JSON Schema 2020-12', async () => {
    expect(await new Validator().validate(structuredClone(document))).toEqual({ valid: true });
    expect(document.openapi).toMatch(/^3\.1\./);
    const ajv = new Ajv2020();
    for (const schema of schemasOf(document)) expect(ajv.validateSchema(schema), JSON.stringify(schema)).toBe(true);
    expect(JSON.stringify(document)).not.toContain('"$schema"');
  });

  it('serves paths relative to the base path, with the bearer scheme and the token kinds described', () => {
    expect(document.servers).toEqual([expect.objectContaining({ url: basePath })]);
    expect(document.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' });
    expect(document.info).toMatchObject({ title: expect.any(String), version: expect.any(String) });
    const kinds = new Set(specs.flatMap(({ spec }) => (spec.auth === 'open' ? [] : spec.auth.tokens)));
    for (const kind of kinds) expect(document.info.description).toContain(kind);
    expect(document.info.description).toContain(kinds.size > 0 ? 'x-token-kinds' : 'open');
  });

  it('has every operation of the base exactly once, and nothing else', () => {
    expect(operations).toHaveLength(specs.length);
    for (const { group, spec } of specs) {
      const found = operations.filter(({ path, method }) => path === openApiPath(spec.path) && method === spec.method.toLowerCase());
      expect(found, `${spec.method} ${spec.path}`).toHaveLength(1);
      expect(found[0]!.operation).toMatchObject({ summary: spec.summary, tags: [group] });
    }
    const ids = operations.map(({ operation }) => operation.operationId as string);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9_]+$/);
  });

  it.each(specs.map(({ spec }) => [spec.name, spec] as const))('%s: statuses, body, security and envelopes', (_name, spec) => {
    const { operation } = operations.find(({ path, method }) => path === openApiPath(spec.path) && method === spec.method.toLowerCase())!;

    // The route table's errors and those its policy adds (a suspended merchant, a project of another merchant…).
    const errors = errorsOf(spec);
    for (const status of Object.keys(spec.errors)) expect(errors).toHaveProperty(status);
    expect(Object.keys(operation.responses).sort()).toEqual([String(spec.status), ...(spec.redirect ? ['302'] : []), ...Object.keys(errors)].sort());
    // OAuth endpoints answer RFC 6749's error body whatever their path (OperationSpec errorEnvelope).
    const envelope = spec.errorEnvelope ?? errorEnvelopeOf(base, spec.path);
    const codeField = envelope === 'oauth' ? 'error_code' : 'error';
    for (const [status, cause] of Object.entries(errors)) {
      const media = operation.responses[status].content['application/json'];
      expect(operation.responses[status].description).toBe(cause);
      const data = spec.errorData?.[Number(status) as keyof OperationSpec['errors']];
      // Exactly the codes the operation can answer with the status (core/http/operation-codes.ts), the example's first.
      const codes = codesOf(spec).get(Number(status));
      expect(media.schema.properties[codeField].enum, `${spec.name} ${status}`).toEqual(codes);
      expect(media.example[codeField]).toBe(codes![0]);
      if (data === undefined) {
        expect(media.schema.required).toEqual(envelope === 'oauth' ? ['error', 'error_description', 'error_code'] : Object.keys(media.example));
      } else {
        // A declared error `data`: the merchant envelope around the success record's schema, and the value in the example.
        expect(media.schema.required).toEqual(['code', 'message', 'data', 'error']);
        expect(media.schema.properties.data).toEqual(operation.responses[spec.status].content['application/json'].schema.properties.data);
        expect(media.example).toEqual({ code: Number(status), message: cause, data, error: codes![0] });
      }
      expect(envelope === 'oauth' ? media.example.error_description : media.example.message).toBe(cause);
    }
    // Every JSON-body operation documents the platform's 413 and 415 (core/http/json-body.ts).
    const jsonBody = spec.body !== undefined && spec.body !== 'multipart';
    for (const status of ['413', '415']) if (jsonBody) expect(operation.responses, `${spec.name} ${status}`).toHaveProperty(status);

    expect('requestBody' in operation).toBe(spec.body !== undefined);
    const mediaType = spec.body === 'multipart' ? 'multipart/form-data' : spec.bodyType === 'form' ? 'application/x-www-form-urlencoded' : 'application/json';
    if (spec.body) expect(Object.keys(operation.requestBody.content)).toEqual([mediaType]);

    if (spec.auth === 'open') {
      expect(operation.security).toEqual([]);
      expect(operation['x-token-kinds']).toBeUndefined();
    } else {
      expect(operation.security).toEqual([{ bearer: [] }]);
      expect(operation['x-token-kinds']).toEqual(spec.auth.tokens);
      expect(operation.description).toContain(spec.auth.tokens[0]);
    }

    if (spec.raw || spec.page) return;
    const properties = Object.keys(operation.responses[spec.status].content['application/json'].schema.properties ?? {});
    if (spec.envelope === 'merchant') expect(properties).toEqual(['code', 'message', 'data']);
    if (spec.envelope === 'paged') expect(properties).toEqual(['data', 'statusCode', 'message', 'totalPage']);
  });
});

describe('the sections of the reference (tags)', () => {
  const documents = (['main', 'hero'] as const).map((base) => ({
    base,
    document: openApiDocument(routeTable, base, { basePath: base === 'hero' ? '/hero-testing' : '/v2-testing' }) as Json,
  }));
  const names = TAGS.map((tag) => tag.name);

  it('are these, in this order, each with a description of one or two sentences', () => {
    expect(names).toEqual([
      'studios',
      'games',
      'players',
      'tickets and payments',
      'boards and rewards',
      'leagues',
      'sponsored claims',
      'app stores',
      'partner store',
      'hero game',
      'platform',
    ]);
    for (const { description } of TAGS) expect(description).toMatch(/^[A-Z].*\.$/s);
    for (const { description } of TAGS) expect(description.split(/\.\s/).length, description).toBeLessThanOrEqual(2);
  });

  it.each(documents.map(({ base, document }) => [base, document] as const))(
    '%s document: one section per operation, listed in reading order with its description',
    (base, document) => {
      const used = new Set(operationsOf(document).map(({ operation }) => (operation.tags as string[]).join('|')));
      for (const tag of used) expect(names, tag).toContain(tag);
      expect(document.tags).toEqual(TAGS.filter((tag) => used.has(tag.name)).map(({ name, description }) => ({ name, description })));
      expect(document.tags.map((tag: Json) => tag.name)).toEqual(base === 'hero' ? ['hero game', 'platform'] : names.filter((name) => name !== 'hero game'));
    },
  );

  it('every section lists operations, and the deployment groups do not show', () => {
    const groups = new Set(routeTable.map((group) => group.group));
    for (const { document } of documents) {
      for (const { operation } of operationsOf(document)) expect(groups.has(operation.tags[0]), operation.operationId).toBe(false);
    }
    // A sample of where operations are listed, whichever group serves them.
    const main = documents[0]!.document;
    const tagOf = (path: string, method = 'get') => main.paths[path][method].tags[0];
    expect(tagOf('/merchant/create', 'post')).toBe('studios');
    expect(tagOf('/merchant/games/list')).toBe('games');
    expect(tagOf('/account/login/zk', 'post')).toBe('players');
    expect(tagOf('/account/user/rechargeOrder', 'post')).toBe('tickets and payments');
    expect(tagOf('/merchant/games/rank')).toBe('boards and rewards');
    expect(tagOf('/pay/apple/verify', 'post')).toBe('app stores');
    expect(tagOf('/store/oauth/token', 'post')).toBe('partner store');
    expect(tagOf('/')).toBe('platform');
    expect(documents[1]!.document.paths['/heroes/upgrade-level'].post.tags).toEqual(['hero game']);
  });
});

describe('details of the main document', () => {
  const document = openApiDocument(routeTable, 'main', { basePath: '/v2-testing' }) as Json;
  const find = (name: string) => operationsOf(document).find(({ operation }) => (operation['x-catalogue-name'] ?? operation.operationId) === name)!.operation;

  it('makes catalogue names into identifiers and keeps the original', () => {
    expect(find('merchantStatus (set)')).toMatchObject({ operationId: 'merchantStatus_set', 'x-role': 'admin' });
    expect(find('merchantStatus (set)').description).toContain('admin');
    expect(find('query merchant game').operationId).toBe('query_merchant_game');
  });

  it('derives parameters and body requirements from the schemas', () => {
    expect(find('game_detail').parameters).toEqual([{ name: 'code', in: 'query', required: true, schema: expect.objectContaining({ type: 'string' }) }]);
    expect(find('gamelist').parameters).toEqual([
      expect.objectContaining({ name: 'page', in: 'query', required: false, schema: expect.objectContaining({ type: 'integer', default: 0 }) }),
      expect.objectContaining({ name: 'pageSize', in: 'query', required: false }),
    ]);
    expect(find('create_merchant').requestBody.required).toBe(true);
    // Strict integer parameters (core/shared/fields.ts intParam) are documented as integers with their range.
    expect(find('get_sign').parameters).toEqual([
      { name: 'id', in: 'query', required: true, schema: { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER } },
    ]);
    expect(find('gamelist').parameters[1].schema).toEqual({ type: 'integer', minimum: 1, maximum: 100, default: 20 });
    expect(find('customGoods').parameters[0]).toEqual({
      name: 'goodsId',
      in: 'path',
      required: true,
      schema: { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER },
    });
    expect(find('save_file').requestBody.content['multipart/form-data'].schema).toMatchObject({ required: ['file'], properties: { file: { type: 'string' } } });
  });

  it('wraps records in their envelope, and errors in the envelope of their path', () => {
    const info = find('get_merchant_info').responses['200'].content['application/json'].schema;
    expect(info.properties.code).toEqual({ type: 'integer', const: 200 });
    expect(info.properties.data.required).toContain('merchant_name');
    expect(find('get_merchant_info').responses['401'].content['application/json'].example).toEqual({
      code: 401,
      message: expect.any(String),
      data: null,
      error: 'auth.token_expired',
    });
    const updated = find('update_single_game').responses['201'].content['application/json'].schema;
    expect(Object.keys(updated.properties)).toEqual(['response', 'status', 'message', 'name']);
    expect(find('get_merchant_info').responses['404'].content['application/json'].schema.required).toEqual(['code', 'message', 'data', 'error']);
  });

  it("documents gamelist's 401 as the compatibility contract fixes it: an empty page, not data: null", () => {
    const unauthorized = find('gamelist').responses['401'].content['application/json'];
    expect(unauthorized.example).toEqual({ code: 401, message: expect.any(String), data: { total: '0', games: [] }, error: 'auth.token_expired' });
    expect(unauthorized.schema.properties.code).toEqual({ type: 'integer', const: 401 });
    expect(unauthorized.schema.properties.data.required).toEqual(['total', 'games']);
  });

  it('documents the JSON body limits on every JSON-body operation, and not on the multipart upload', () => {
    expect(find('create_merchant').responses['413'].description).toMatch(/256 KiB/);
    expect(find('create_merchant').responses['415'].description).toMatch(/application\/json/);
    expect(find('save_file').responses['413'].description).not.toMatch(/256 KiB/);
    expect(document.info.description).toMatch(/256 KiB/);
    expect(document.info.description).toMatch(/nests arrays and objects at most 64 levels deep \(else 400\)/);
  });

  it('describes the raw meta responses by their media type', () => {
    expect(Object.keys(find('openapi').responses['200'].content)).toEqual(['application/json']);
    expect(Object.keys(find('docs').responses['200'].content)).toEqual(['text/html']);
    expect(Object.keys(find('home').responses['200'].content)).toEqual(['text/html']);
  });

  it('documents the home page once, at the host root and at the stage base', () => {
    expect(document.paths['/'].servers).toEqual([
      { url: '/', description: expect.any(String) },
      { url: '/v2-testing', description: expect.any(String) },
    ]);
    expect(find('home')).toMatchObject({ security: [], tags: ['platform'] });
  });
});

describe('the Idempotency-Key header: the documents take exactly the forms the service takes', () => {
  /** Every operation of both documents that declares the header, with the parameter as served. */
  const declaring = (['main', 'hero'] as const).flatMap((base) =>
    operationsOf(openApiDocument(routeTable, base, { basePath: base === 'hero' ? '/hero-testing' : '/v2-testing' }) as Json).flatMap(
      ({ path, method, operation }) =>
        ((operation.parameters ?? []) as Json[])
          .filter((parameter) => parameter.in === 'header' && parameter.name === 'Idempotency-Key')
          .map((parameter) => ({ label: `${method.toUpperCase()} ${path}`, parameter })),
    ),
  );
  const serviceTakes = (value: string) => {
    try {
      idempotencyKeyOf(value);
      return true;
    } catch {
      return false;
    }
  };
  const taken = ['x', '"x"', 'order-77.retry:2_B', 'x'.repeat(128), `"${'x'.repeat(128)}"`];
  const refused = ['', '""', '"', '"x', 'x"', '""x""', "'x'", 'a b', '"a b"', 'a/b', 'a,b', 'é', '"\\"x"', 'x'.repeat(129), `"${'x'.repeat(129)}"`];

  it('is declared with a schema on every operation whose route reads it', () => {
    const reading = routeTable.flatMap((group) => Object.values(group.ops)).filter((spec) => spec.headers?.['Idempotency-Key']);
    expect(reading.length).toBeGreaterThanOrEqual(5);
    expect(declaring).toHaveLength(reading.length);
  });

  it.each(declaring.map(({ label, parameter }) => [label, parameter] as const))(
    '%s: its pattern takes the bare and the quoted key and refuses what the service refuses',
    (_label, parameter) => {
      const validate = new Ajv2020({ strict: false }).compile(parameter.schema);
      for (const value of taken) expect(validate(value), value).toBe(true);
      for (const value of refused) expect(validate(value), value).toBe(false);
      // The document and the service agree on every one of them.
      for (const value of [...taken, ...refused]) expect(validate(value), value).toBe(serviceTakes(value));
      expect(parameter.description).toMatch(/a quoted key is the same key as the bare one/);
    },
  );
});

describe('generation from a route table', () => {
  it('converts path parameters, typing them from params where given', () => {
    const group = defineGroup('hero', 'hero', {
      item: op({
        path: '/heroes/:heroId/items/:itemId',
        params: z.object({ heroId: z.coerce.number().check(z.int()) }),
        errors: { 404: 'no such item' },
        codes: ['game.not_found'],
      }),
    });
    const document = openApiDocument([group], 'hero', { basePath: '/hero-testing' }) as Json;
    const operation = document.paths['/heroes/{heroId}/items/{itemId}'].get;
    expect(operation.parameters).toEqual([
      { name: 'heroId', in: 'path', required: true, schema: expect.objectContaining({ type: 'integer' }) },
      { name: 'itemId', in: 'path', required: true, schema: { type: 'string' } },
    ]);
    expect(operation.responses['404'].content['application/json'].example).toEqual({ message: 'no such item', statusCode: 404, error: 'game.not_found' });
    expect(operation.responses['404'].content['application/json'].schema.properties.error.enum).toEqual(['game.not_found']);
  });

  it('skips groups of the other base and keeps operationIds unique', () => {
    const main = defineGroup('inner', 'main', { a: op({ name: 'a b', path: '/a' }), b: op({ name: 'a_b', path: '/b' }) });
    const hero = defineGroup('hero', 'hero', { c: op({ name: 'c', path: '/c' }) });
    const document = openApiDocument([main, hero], 'main', { basePath: '/v2-testing' }) as Json;
    expect(Object.keys(document.paths)).toEqual(['/a', '/b']);
    expect([document.paths['/a'].get.operationId, document.paths['/b'].get.operationId]).toEqual(['a_b', 'a_b_2']);
    expect(document.tags).toEqual([{ name: 'games', description: expect.stringMatching(/catalogue/) }]);
  });

  it('lists the sections in reading order, whatever order the groups come in', () => {
    const later = defineGroup('hero', 'hero', { a: op({ name: 'a', path: '/a', tag: 'platform' }), b: op({ name: 'b', path: '/b', tag: 'hero game' }) });
    const document = openApiDocument([later], 'hero', { basePath: '/hero-testing' }) as Json;
    expect(document.tags.map((tag: Json) => tag.name)).toEqual(['hero game', 'platform']);
  });

  it('documents an operation served at the base and at the host root once, at both; refuses a path split between them', () => {
    const home = op({ name: 'home', path: '/' });
    const document = openApiDocument([defineGroup('meta', 'main', { home }), defineGroup('meta', 'root', { home })], 'main', {
      basePath: '/v2-testing',
    }) as Json;
    expect(Object.keys(document.paths)).toEqual(['/']);
    expect(document.paths['/'].servers.map((server: Json) => server.url)).toEqual(['/', '/v2-testing']);
    expect(document.paths['/'].get.operationId).toBe('home');

    const other = op({ name: 'other', path: '/' });
    expect(() =>
      openApiDocument([defineGroup('meta', 'main', { home }), defineGroup('meta', 'root', { home: other })], 'main', { basePath: '/v2-testing' }),
    ).toThrow(/GET \/ is defined by two operations/);
    const split = [defineGroup('meta', 'main', { home }), defineGroup('meta', 'root', { post: op({ name: 'post', path: '/', method: 'POST' }) })];
    expect(() => openApiDocument(split, 'main', { basePath: '/v2-testing' })).toThrow(/\/ has operations at the host root and others at the stage base/);
  });

  it('refuses what it cannot describe: one route twice, or a schema needing references', () => {
    const twice = defineGroup('inner', 'main', { a: op({ name: 'a' }), b: op({ name: 'b' }) });
    expect(() => openApiDocument([twice], 'main', { basePath: '/v2-testing' })).toThrow(/GET \/op is defined by two operations/);

    const Node: z.ZodMiniType = z.object({
      get children() {
        return z.array(Node);
      },
    });
    const recursive = defineGroup('inner', 'main', { tree: op({ name: 'tree', response: Node }) });
    expect(() => openApiDocument([recursive], 'main', { basePath: '/v2-testing' })).toThrow(/tree response: recursive/);

    // A declared error data must be a valid response record, and only merchant paths carry one.
    const wrongData = defineGroup('inner', 'main', {
      a: op({ name: 'a', path: '/merchant/a', envelope: 'merchant', errors: { 401: 'no token' }, errorData: { 401: { ok: 'yes' } } }),
    });
    expect(() => openApiDocument([wrongData], 'main', { basePath: '/v2-testing' })).toThrow(/errorData for 401 is not a valid response record/);
    const notMerchant = defineGroup('inner', 'main', {
      a: op({ name: 'a', path: '/account/a', errors: { 401: 'no token' }, errorData: { 401: { ok: false } } }),
    });
    expect(() => openApiDocument([notMerchant], 'main', { basePath: '/v2-testing' })).toThrow(/errorData is for merchant-path operations only/);
  });
});

describe('the reference page', () => {
  it('loads the document URL from an escaped attribute', () => {
    const hostile = '/v2-testing/openapi.json?x="><script>alert(1)</script>&y=\'';
    const html = referencePage(hostile, '/v2-testing/docs/assets', 'API <b>&</b>');
    const attribute = html.match(/data-openapi-url="([^"]*)"/)![1]!;
    const unescaped = attribute.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)));
    expect(unescaped).toBe(hostile);
    expect(attribute).not.toMatch(/[<>"']/);
    expect(html.match(/<script/g)).toHaveLength(2);
    expect(html).toContain('<title>API &#60;b&#62;&#38;&#60;/b&#62;</title>');
  });

  it("loads only the service's own files, versioned with the Swagger UI that package-lock.json pins, and no inline script", () => {
    const lock = JSON.parse(readFileSync('package-lock.json', 'utf8')) as { packages: Record<string, { version: string }> };
    const pinned = lock.packages['node_modules/swagger-ui-dist']!.version;
    expect(REFERENCE_VERSION).toBe(pinned);
    const html = referencePage('/v2-testing/openapi.json', '/v2-testing/docs/assets', 'Game platform API');
    const loaded = [...html.matchAll(/<(?:script src|link rel="stylesheet" href)="([^"]+)"/g)].map((m) => m[1]);
    expect(loaded).toEqual([
      `/v2-testing/docs/assets/swagger-ui.css?v=${pinned}`,
      `/v2-testing/docs/assets/swagger-ui-bundle.js?v=${pinned}`,
      `/v2-testing/docs/assets/reference.js?v=${pinned}`,
    ]);
    expect(html).not.toMatch(/<script>/);
    expect(html).not.toMatch(/https?:\/\//);
    expect(html).toContain('data-openapi-url="/v2-testing/openapi.json"');
  });
});
