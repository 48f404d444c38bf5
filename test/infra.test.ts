import { crossOrigin } from '../core/http/cross-origin.js';
import { resolve } from 'node:path';
import { existsSync, readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { appFactories } from '../functions/apps.js';
import { routeTable } from '../functions/routes/index.js';
import { routePathOf } from '../core/http/operation.js';
import { heroBasePath, isProductionStage, mainBasePath } from '../core/platform/stages.js';
import { createTableInput, tableDefinition } from '../core/platform/table.js';
import { marshall } from '@aws-sdk/util-dynamodb';
import { headDirectoryKey, headPageKey, headTopKey, resultKey, scoreKey, snapshotDirectoryKey, snapshotPageKey } from '../core/rankings/keys.js';
import { weekOf } from '../core/rankings/seasons.js';
import { passesMoneyFilter } from '../core/payments/day-figures.js';
import { orderKey } from '../core/payments/order-keys.js';
import { balanceKey, ledgerKey } from '../core/tickets/balances.js';
import { PACKAGE_FILES, referenceAssetsDir } from '../core/http/reference-assets.js';
import { CONSOLE_FILES, consoleAssetsDir } from '../core/http/console-assets.js';
import { filesPlace, heroApiPlace } from '../core/http/console-page.js';
import { createTestDeps } from './support/deps.js';
import {
  deployWithStandins,
  dynamoTableArgs,
  resolvedOf,
  type ApiGatewayV2Args,
  type BucketArgs,
  type MetricAlarmArgs,
  type TopicSubscriptionArgs,
  type Component,
  type Deployment,
  type DynamoArgs,
  type DynamoSubscriptionArgs,
  type CronV2Args,
  type FunctionArgs,
  type Route,
  type StandinOutput,
} from './support/sst-standins.js';
import type { JWK } from 'jose';
import type { DeployedFunction } from '../functions/deployed.js';

/**
 * The deployment wiring (sst.config.ts and infra/), run against recording stand-ins of SST's globals: API Gateway
 * routes every operation the Hono apps serve to its group's function and nothing else, the functions are built
 * and linked as README's "Deploy a stage" says, and production stages keep their data.
 */
const STAGE = 'v2-testing';

const ofType = <A>(deployment: Deployment, type: string) => deployment.components.filter((c) => c.type === type) as Component<A>[];
const only = <A>(deployment: Deployment, type: string) => {
  const found = ofType<A>(deployment, type);
  expect(found, type).toHaveLength(1);
  return found[0]!;
};

/** `GET /v2-testing/x/{id}` (API Gateway) and `GET /v2-testing/x/:id{[0-9]+}` (Hono) both become `GET /v2-testing/x/:id`. */
const gatewayKey = (route: Route) => `${route.method} ${route.path.replace(/\{(\w+)\}/g, ':$1')}`;
const honoKey = (route: { method: string; path: string }) => `${route.method} ${route.path.replace(/(:\w+)\{[^}]*\}/g, '$1')}`;

/** The routes of operations (every route but the catch-all `$default`). */
const operationRoutes = (deployment: Deployment) => deployment.routes.filter((r) => r.method !== '$default');

const groupsWithOps = [...new Set(routeTable.filter((g) => Object.keys(g.ops).length > 0).map((g) => g.group))];

let dev: Deployment;
/** Group -> its function's component, for the dev deployment. */
let functionOf: Map<string, Component<FunctionArgs>>;

beforeAll(async () => {
  dev = await deployWithStandins(STAGE);
  functionOf = new Map();
  for (const fn of ofType<FunctionArgs>(dev, 'sst.aws.Function')) {
    const group = /^functions\/([^/]+)\.handler$/.exec(fn.args.handler)?.[1];
    expect(group, `handler of ${fn.name}`).toBeDefined();
    functionOf.set(group!, fn);
  }
});

const arnOf = (fn: Component<FunctionArgs> | undefined) => (fn?.instance as { arn?: string } | undefined)?.arn;

describe('API Gateway routes = Hono routes', () => {
  it('every group app has exactly the routes infra sends to its function', async () => {
    const deps = await createTestDeps({ stage: STAGE });
    expect(Object.keys(appFactories).sort()).toEqual([...new Set(routeTable.map((g) => g.group))].sort());

    for (const [group, create] of Object.entries(appFactories)) {
      const app = create(deps);
      // Hono lists middleware as method ALL; operations are registered with their own method.
      const served = app.routes.filter((r) => r.method !== 'ALL').map(honoKey);
      expect(new Set(served).size, `${group} registers a route twice`).toBe(served.length);
      const arn = arnOf(functionOf.get(group));
      const routed = operationRoutes(dev)
        .filter((r) => arn !== undefined && r.handler === arn)
        .map(gatewayKey);
      expect(routed.sort(), `routes of ${group}`).toEqual(served.sort());
    }
  });

  it('no infra route lacks an app route: every route targets a group function that serves it', () => {
    const arns = new Map([...functionOf].map(([group, fn]) => [arnOf(fn), group]));
    expect(dev.routes.length).toBeGreaterThan(0);
    for (const route of dev.routes) {
      // A handler path or function args here would make SST create a separate function for the route.
      expect(typeof route.handler, gatewayKey(route)).toBe('string');
      expect(arns.has(route.handler as string), `${gatewayKey(route)} targets no group function`).toBe(true);
    }
    const opCount = routeTable.reduce((n, g) => n + Object.keys(g.ops).length, 0);
    expect(operationRoutes(dev)).toHaveLength(opCount);
  });

  it('the hero API routes only hero-base operations and the main API only main-base ones', () => {
    const apis = ofType(dev, 'sst.aws.ApiGatewayV2')
      .map((a) => a.name)
      .sort();
    expect(apis).toEqual(['Api', 'HeroApi']);
    const basePathOf = { Api: mainBasePath(STAGE), HeroApi: heroBasePath(STAGE) } as Record<string, string>;
    expect(basePathOf.Api).toBe('/v2-testing');
    expect(basePathOf.HeroApi).toBe('/hero-testing');

    // Root operations (paths a standard fixes at the host root: RFC 8414 §3.1 discovery) are on the main API.
    const rootPaths = routeTable.filter((g) => g.base === 'root').flatMap((g) => Object.values(g.ops).map((op) => `${op.method} ${op.path}`));
    expect(rootPaths.length).toBeGreaterThan(0);
    for (const base of ['main', 'hero'] as const) {
      const api = base === 'main' ? 'Api' : 'HeroApi';
      const expected = routeTable
        .filter((g) => g.base === base)
        .flatMap((g) => Object.values(g.ops).map((op) => `${op.method} ${routePathOf(basePathOf[api]!, op.path)}`))
        .concat(base === 'main' ? rootPaths : []);
      const routed = operationRoutes(dev)
        .filter((r) => r.api === api)
        .map(gatewayKey);
      expect(routed.sort(), api).toEqual(expected.map((key) => key.replace(/(:\w+)\{[^}]*\}/g, '$1')).sort());
      for (const route of operationRoutes(dev).filter((r) => r.api === api)) {
        const atRoot = rootPaths.includes(gatewayKey(route).replace(/\{(\w+)\}/g, ':$1'));
        // The base itself is a route too (its home page), and so is the host root.
        if (!atRoot) expect(route.path === basePathOf[api] || route.path.startsWith(`${basePathOf[api]}/`), gatewayKey(route)).toBe(true);
        else expect(route.path === '/' || route.path.startsWith('/.well-known/'), gatewayKey(route)).toBe(true);
      }
    }
    // The meta function answers on both bases.
    const meta = arnOf(functionOf.get('meta'));
    expect(new Set(dev.routes.filter((r) => r.handler === meta).map((r) => r.api))).toEqual(new Set(['Api', 'HeroApi']));
  });

  it('routes the host root and each base itself to the meta function, which answers them its home page', async () => {
    const meta = arnOf(functionOf.get('meta'));
    const homes = dev.routes.filter((r) => r.method === 'GET' && ['/', mainBasePath(STAGE), heroBasePath(STAGE)].includes(r.path));
    expect(homes.map(({ api, path, handler }) => ({ api, path, handler })).sort((a, b) => a.path.localeCompare(b.path))).toEqual([
      { api: 'Api', path: '/', handler: meta },
      { api: 'HeroApi', path: '/hero-testing', handler: meta },
      { api: 'Api', path: '/v2-testing', handler: meta },
    ]);
    const app = appFactories.meta!(await createTestDeps({ stage: STAGE }));
    for (const path of ['/', '/v2-testing', '/hero-testing']) {
      const res = await app.request(path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-type'), path).toBe('text/html; charset=utf-8');
      expect(await res.text(), path).toContain(`${path === '/hero-testing' ? path : '/v2-testing'}/docs`);
    }
    // A base with a trailing slash (where a reference's "try it" sends its home page) is the base.
    for (const base of ['/v2-testing', '/hero-testing']) {
      const res = await app.request(`${base}/`);
      expect(res.status, base).toBe(308);
      expect(res.headers.get('location'), base).toBe(base);
    }
  });

  it("sends every other path of each API ($default) to the meta function, which answers 404 in the path's envelope", async () => {
    const meta = arnOf(functionOf.get('meta'));
    expect(meta).toBeDefined();
    const catchAll = dev.routes.filter((r) => r.method === '$default');
    expect(catchAll.map((r) => ({ api: r.api, handler: r.handler }))).toEqual([
      { api: 'Api', handler: meta },
      { api: 'HeroApi', handler: meta },
    ]);
    // What the meta function answers them (its app, as deployed): the envelope of the path's base and kind.
    const app = appFactories.meta!(await createTestDeps({ stage: STAGE }));
    const unknown = [
      ['/v2-testing/merchant/nope', { code: 404, message: expect.any(String), data: null, error: 'route.not_found' }],
      ['/v2-testing/account/nope', { statusCode: 404, message: expect.any(String), error: 'route.not_found' }],
      ['/hero-testing/nope', { statusCode: 404, message: expect.any(String), error: 'route.not_found' }],
      ['/elsewhere', { statusCode: 404, message: expect.any(String), error: 'route.not_found' }],
    ] as const;
    for (const [path, body] of unknown) {
      const res = await app.request(path);
      expect(res.status, path).toBe(404);
      expect(await res.json(), path).toEqual(body);
    }
  });

  it("copies the API reference's and the built console's files into the meta function's package and tells its code where they are", async () => {
    const meta = functionOf.get('meta')!.args;
    // The console calls the hero API for the hero game's configuration: the meta function is told its URL.
    const heroApi = ofType<ApiGatewayV2Args>(dev, 'sst.aws.ApiGatewayV2').find((c) => c.name === 'HeroApi');
    // It shows stored images from the Files bucket's public URL: told it too.
    const bucket = ofType(dev, 'sst.aws.Bucket').find((c) => c.name === 'Files');
    expect(meta.environment).toEqual({
      REFERENCE_ASSETS_DIR: 'reference',
      CONSOLE_ASSETS_DIR: 'console',
      HERO_API_URL: `${(heroApi!.instance as { url: string }).url}${heroBasePath(STAGE)}`,
      FILES_URL: `https://${(bucket!.instance as { domain: string }).domain}`,
    });
    expect(heroApiPlace(meta.environment!.HERO_API_URL, '/unused').origin).toBe((heroApi!.instance as { url: string }).url);
    expect(filesPlace(meta.environment!.FILES_URL, '/unused').origin).toBe(`https://${(bucket!.instance as { domain: string }).domain}`);
    expect(meta.copyFiles).toEqual([
      ...Object.keys(PACKAGE_FILES).map((file) => ({ from: `node_modules/swagger-ui-dist/${file}`, to: `reference/${file}` })),
      ...Object.keys(CONSOLE_FILES).map((file) => ({ from: `console/dist/${file}`, to: `console/${file}` })),
    ]);
    // The console was built as the deploy imported infra: every file to copy exists.
    for (const { from } of meta.copyFiles!) expect(existsSync(from), from).toBe(true);
    // The function's code reads them from there (Lambda's working folder is the package's root).
    expect(referenceAssetsDir({ REFERENCE_ASSETS_DIR: 'reference' })).toBe('reference');
    expect(consoleAssetsDir({ CONSOLE_ASSETS_DIR: 'console' })).toBe('console');
    for (const [group, fn] of functionOf) if (group !== 'meta') expect(fn.args.copyFiles, group).toBeUndefined();
  });

  it('maps Hono path parameters to API Gateway ones and routes each group on its own base (synthetic route table)', async () => {
    const op = (method: string, path: string) => ({ method, path });
    vi.doMock('../functions/routes/index.js', () => ({
      routeTable: [
        { group: 'inner', base: 'main', ops: { a: op('GET', '/account/goods/:goodsId'), b: op('DELETE', '/x/:id{[0-9]+}/y'), d: op('GET', '/') } },
        { group: 'hero', base: 'hero', ops: { c: op('PUT', '/heroes/:heroId') } },
        { group: 'inner', base: 'root', ops: { e: op('GET', '/') } },
        { group: 'pay', base: 'main', ops: {} },
      ],
    }));
    try {
      const deployment = await deployWithStandins(STAGE);
      const fns = ofType<FunctionArgs>(deployment, 'sst.aws.Function');
      expect(fns.map((f) => f.args.handler).sort()).toEqual(['functions/hero.handler', 'functions/inner.handler']);
      const arnOfGroup = (group: string) => arnOf(fns.find((f) => f.args.handler === `functions/${group}.handler`));
      expect(deployment.routes).toEqual([
        { api: 'Api', method: 'GET', path: '/v2-testing/account/goods/{goodsId}', handler: arnOfGroup('inner') },
        { api: 'Api', method: 'DELETE', path: '/v2-testing/x/{id}/y', handler: arnOfGroup('inner') },
        // The path `/` is the base itself, and the host root at the root.
        { api: 'Api', method: 'GET', path: '/v2-testing', handler: arnOfGroup('inner') },
        { api: 'HeroApi', method: 'PUT', path: '/hero-testing/heroes/{heroId}', handler: arnOfGroup('hero') },
        { api: 'Api', method: 'GET', path: '/', handler: arnOfGroup('inner') },
      ]);
    } finally {
      vi.doUnmock('../functions/routes/index.js');
    }
  });

  it('outputs the deployed base URLs and the files bucket', () => {
    expect(dev.outputs).toEqual({
      api: 'https://api.execute-api.standin.amazonaws.com/v2-testing',
      heroApi: 'https://heroapi.execute-api.standin.amazonaws.com/hero-testing',
      filesBucket: (only(dev, 'sst.aws.Bucket').instance as { name: string }).name,
      filesDomain: (only(dev, 'sst.aws.Bucket').instance as { domain: string }).domain,
    });
  });
});

describe('functions', () => {
  // A group without routes gets no function: the synthetic route table above shows it (its `pay` group).
  it('one per group with at least one route', () => {
    expect([...functionOf.keys()].sort()).toEqual([...groupsWithOps].sort());
  });

  it('are arm64, on a Node LTS runtime, bundled as minified ESM, from a handler that exists', () => {
    for (const [group, fn] of functionOf) {
      const { architecture, runtime, nodejs, handler } = fn.args;
      expect(architecture, group).toBe('arm64');
      const major = Number(/^nodejs(\d+)\.x$/.exec(runtime ?? '')?.[1]);
      // LTS lines are the even majors; 22 and 24 are the ones Lambda runs today.
      expect(major % 2 === 0 && major >= 22, `${group} runtime ${runtime}`).toBe(true);
      expect(nodejs, group).toEqual({ format: 'esm', minify: true, splitting: true });
      const file = `${handler.replace(/\.handler$/, '')}.ts`;
      expect(existsSync(file), file).toBe(true);
      expect(readFileSync(file, 'utf8'), file).toMatch(/export (const|async function|function) handler\b/);
    }
  });

  it('the files bucket is publicly readable', () => {
    expect(only<BucketArgs>(dev, 'sst.aws.Bucket').args.access).toBe('public');
  });
});

describe('table', () => {
  it('has the fields, keys, indexes and TTL of tableDefinition', () => {
    const { args } = only<DynamoArgs>(dev, 'sst.aws.Dynamo');
    const { partitionKey, sortKey, ttlAttribute, indexes } = tableDefinition;
    const keyAttributes = [partitionKey, sortKey, ...Object.values(indexes).flat()];
    expect(args.fields).toEqual(Object.fromEntries(keyAttributes.map((a) => [a, tableDefinition.numberAttributes.includes(a as never) ? 'number' : 'string'])));
    expect(args.primaryIndex).toEqual({ hashKey: partitionKey, rangeKey: sortKey });
    expect(args.globalIndexes).toEqual(
      Object.fromEntries(
        Object.entries(indexes).map(([name, [hashKey, rangeKey]]) => [
          name,
          name === 'gsi6' ? { hashKey, rangeKey, projection: 'keys-only' } : { hashKey, rangeKey },
        ]),
      ),
    );
    expect(args.ttl).toBe(ttlAttribute);
  });

  it("has a stream of each item before and after its change, as DynamoDB Local's table has (core/platform/table.ts)", () => {
    const { args } = only<DynamoArgs>(dev, 'sst.aws.Dynamo');
    // Both images: the day figures tell the ledger entries a write of a balance added by what it held before.
    expect(args.stream).toBe('new-and-old-images');
    // What SST makes of it is what the local table is created with.
    expect(dynamoTableArgs(args)).toMatchObject({ streamEnabled: true, streamViewType: 'NEW_AND_OLD_IMAGES' });
    expect(createTableInput('any').StreamSpecification).toEqual({ StreamEnabled: true, StreamViewType: 'NEW_AND_OLD_IMAGES' });
  });
});

/**
 * Lambda's event filtering, for the rules infra writes (exact values and `prefix`): every key of the pattern must
 * be in the record and match, and a list matches when any of its rules does. Any other rule fails the test, so a
 * filter this cannot read is never taken as matching.
 */
function matchesFilter(pattern: unknown, value: unknown): boolean {
  if (Array.isArray(pattern)) return pattern.some((rule) => matchesRule(rule, value));
  if (typeof pattern !== 'object' || pattern === null) throw new Error(`not a filter pattern: ${JSON.stringify(pattern)}`);
  if (typeof value !== 'object' || value === null) return false;
  return Object.entries(pattern).every(([key, inner]) => key in value && matchesFilter(inner, (value as Record<string, unknown>)[key]));
}

function matchesRule(rule: unknown, value: unknown): boolean {
  if (typeof rule === 'string' || typeof rule === 'number' || typeof rule === 'boolean') return value === rule;
  if (typeof rule === 'object' && rule !== null && Object.keys(rule).join() === 'prefix') {
    return typeof value === 'string' && value.startsWith((rule as { prefix: string }).prefix);
  }
  throw new Error(`a filter rule this test does not read: ${JSON.stringify(rule)}`);
}

/** The table's stream subscription SST names `<table>Subscriber<name>`. */
const subscriptionOf = (deployment: Deployment, name: string) => {
  const found = ofType<DynamoSubscriptionArgs>(deployment, 'sst.aws.DynamoLambdaSubscriber').filter((c) => c.name === `TableSubscriber${name}`);
  expect(found, name).toHaveLength(1);
  return found[0]!;
};

it('the table has two stream subscriptions, each reading on its own: the live heads and the day figures', () => {
  expect(
    ofType(dev, 'sst.aws.DynamoLambdaSubscriber')
      .map((c) => c.name)
      .sort(),
  ).toEqual(['TableSubscriberDayFigures', 'TableSubscriberRankPages']);
});

describe("the rank pages' stream subscription (infra/rank-pages.ts)", () => {
  const subscription = () => subscriptionOf(dev, 'RankPages');
  const queueArn = () => (dev.components.find((c) => c.name === 'JobFailures')!.instance as { arn: string }).arn;

  it('subscribes one function to the table: functions/jobs/rank-pages.handler, built like the others, linked to the table only', () => {
    const { name, args } = subscription();
    // SST names it <table>Subscriber<name>.
    expect(name).toBe('TableSubscriberRankPages');
    const fn = args.subscriber as FunctionArgs;
    expect(fn.handler).toBe('functions/jobs/rank-pages.handler');
    expect(readFileSync('functions/jobs/rank-pages.ts', 'utf8')).toMatch(/export (const|async function|function) handler\b/);
    expect([fn.architecture, fn.runtime, fn.nodejs]).toEqual(['arm64', 'nodejs24.x', { format: 'esm', minify: true, splitting: true }]);
    expect(fn.link!.map((linked) => dev.components.find((c) => c.instance === linked)?.name)).toEqual(['Table']);
    expect(fn.timeout).toBe('60 seconds');
  });

  it("is given score items only: a score key passes the filter, the boards' own head and snapshot keys do not", () => {
    const { filters } = subscription().args;
    expect(filters).toEqual([{ dynamodb: { Keys: { pk: { S: [{ prefix: 'SCORE#' }] } } } }]);
    // As Lambda gets it: SST sends each filter as JSON.
    const patterns = filters!.map((filter) => JSON.parse(JSON.stringify(filter)) as unknown);
    const season = weekOf(new Date('2026-11-18T12:00:00Z'));
    // A record as Lambda delivers it: the keys in DynamoDB's wire form, whatever the change (a removal has no new image).
    const delivered = (key: Record<string, unknown>, eventName: string) =>
      patterns.some((pattern) => matchesFilter(pattern, { eventName, dynamodb: { Keys: marshall(key) } }));
    for (const eventName of ['INSERT', 'MODIFY', 'REMOVE']) {
      expect(delivered(scoreKey('g1', season, 'p1', 1), eventName), `score item, ${eventName}`).toBe(true);
      expect(delivered(scoreKey('g1', season, 'p1', 4), eventName), `sharded score item, ${eventName}`).toBe(true);
      expect(delivered(headDirectoryKey('kills', 'g1', season), eventName), `head directory, ${eventName}`).toBe(false);
      expect(delivered(headPageKey('wins', 'g1', season, 3), eventName), `head page, ${eventName}`).toBe(false);
      expect(delivered(headTopKey('wins', 'g1', season), eventName), `head top, ${eventName}`).toBe(false);
      expect(delivered(snapshotDirectoryKey('kills', 'g1', season), eventName), `snapshot directory, ${eventName}`).toBe(false);
      expect(delivered(snapshotPageKey('wins', 'g1', season, 3), eventName), `snapshot page, ${eventName}`).toBe(false);
      // A prefix, not a part anywhere in the key: the rank directory of a game named SCORE stays out too.
      expect(delivered(headDirectoryKey('kills', 'SCORE', season), eventName), `head directory of game SCORE, ${eventName}`).toBe(false);
      expect(delivered(resultKey('g1', 'r1'), eventName), `reported result, ${eventName}`).toBe(false);
    }
  });

  it('reads from the latest record, in batches of up to 1,000 gathered for up to a second', () => {
    expect(subscription().args.transform?.eventSourceMapping).toMatchObject({
      startingPosition: 'TRIM_HORIZON',
      batchSize: 1_000,
      maximumBatchingWindowInSeconds: 1,
    });
  });

  it("retries a failing batch, split in halves, until it succeeds (-1: no limit); one whose records leave the stream first goes to the jobs' dead-letter queue", () => {
    const { args } = subscription();
    // A dropped batch would leave a board's live head wrong until each player's next change: never dropped for failing.
    expect(args.transform?.eventSourceMapping).toMatchObject({
      bisectBatchOnFunctionError: true,
      maximumRetryAttempts: -1,
      destinationConfig: { onFailure: { destinationArn: queueArn() } },
    });
    // Lambda sends the failed batch's record with the function's role.
    expect((args.subscriber as FunctionArgs).permissions).toEqual([{ actions: ['sqs:SendMessage'], resources: [queueArn()] }]);
    // Nothing else is set on the mapping.
    expect(Object.keys(args.transform?.eventSourceMapping ?? {}).sort()).toEqual([
      'batchSize',
      'bisectBatchOnFunctionError',
      'destinationConfig',
      'maximumBatchingWindowInSeconds',
      'maximumRetryAttempts',
      'startingPosition',
    ]);
  });
});

describe("the day figures' stream subscription (infra/day-figures.ts)", () => {
  const subscription = () => subscriptionOf(dev, 'DayFigures');
  const queueArn = () => (dev.components.find((c) => c.name === 'JobFailures')!.instance as { arn: string }).arn;

  it('subscribes functions/jobs/day-figures.handler, built like the others, linked to the table only', () => {
    const fn = subscription().args.subscriber as FunctionArgs;
    expect(fn.handler).toBe('functions/jobs/day-figures.handler');
    expect(readFileSync('functions/jobs/day-figures.ts', 'utf8')).toMatch(/export (const|async function|function) handler\b/);
    expect([fn.architecture, fn.runtime, fn.nodejs]).toEqual(['arm64', 'nodejs24.x', { format: 'esm', minify: true, splitting: true }]);
    expect(fn.link!.map((linked) => dev.components.find((c) => c.instance === linked)?.name)).toEqual(['Table']);
    expect(fn.permissions).toEqual([{ actions: ['sqs:SendMessage'], resources: [queueArn()] }]);
  });

  it("is given pay orders' records, ledger entries' inserts and balances' inserts and changes only, as the local reader's rule says", () => {
    const patterns = subscription().args.filters!.map((filter) => JSON.parse(JSON.stringify(filter)) as unknown);
    const delivered = (key: Record<string, unknown>, eventName: string) => {
      const record = { eventName, dynamodb: { Keys: marshall(key) } };
      const byLambda = patterns.some((pattern) => matchesFilter(pattern, record));
      expect(passesMoneyFilter(record as Parameters<typeof passesMoneyFilter>[0]), `the local rule agrees on ${JSON.stringify(key)} ${eventName}`).toBe(
        byLambda,
      );
      return byLambda;
    };
    for (const eventName of ['INSERT', 'MODIFY', 'REMOVE']) {
      expect(delivered(orderKey(42), eventName), `order, ${eventName}`).toBe(true);
      expect(delivered(ledgerKey('u1', 'minus#x'), eventName), `ledger entry, ${eventName}`).toBe(eventName === 'INSERT');
      expect(delivered(ledgerKey('u1', 'page#minus#x'), eventName), `page of held entries, ${eventName}`).toBe(eventName === 'INSERT');
      // A balance holds the ledger entries of deductions without a key: the changes that add them are counted.
      expect(delivered(balanceKey({ uid: 'u1', projectName: 'p', level: 1 }), eventName), `balance, ${eventName}`).toBe(eventName !== 'REMOVE');
      expect(delivered({ pk: 'USER#u1', sk: 'ACCOUNT' }, eventName), `a player's account, ${eventName}`).toBe(false);
      expect(delivered({ pk: 'ORDER#42', sk: 'OTHER' }, eventName), `another item of an order's partition, ${eventName}`).toBe(false);
      expect(delivered(scoreKey('g1', weekOf(new Date('2026-11-18T12:00:00Z')), 'p1', 1), eventName), `score item, ${eventName}`).toBe(false);
    }
  });

  it("retries a failing batch whole up to 10 times, then sends it to the jobs' dead-letter queue", () => {
    expect(subscription().args.transform?.eventSourceMapping).toEqual({
      startingPosition: 'TRIM_HORIZON',
      batchSize: 1_000,
      maximumBatchingWindowInSeconds: 5,
      maximumRetryAttempts: 10,
      destinationConfig: { onFailure: { destinationArn: queueArn() } },
    });
  });
});

describe('stages', () => {
  const effective = (deployment: Deployment) => {
    const table = dynamoTableArgs(only<DynamoArgs>(deployment, 'sst.aws.Dynamo').args);
    return {
      removal: deployment.app.removal,
      protect: deployment.app.protect,
      deletionProtection: table.deletionProtectionEnabled,
      pointInTimeRecovery: (table.pointInTimeRecovery as { enabled?: boolean } | undefined)?.enabled,
    };
  };

  it.each(['production', 'prod', 'v2-prod'])('%s retains and protects its data', async (stage) => {
    expect(isProductionStage(stage)).toBe(true);
    const deployment = await deployWithStandins(stage);
    expect(effective(deployment)).toEqual({ removal: 'retain', protect: true, deletionProtection: true, pointInTimeRecovery: true });
    expect(deployment.outputs.api).toBe(`https://api.execute-api.standin.amazonaws.com/${stage}`);
  });

  it.each([STAGE, 'dev', 'pr-12'])('%s is disposable: removed with the stage, no deletion protection or PITR', async (stage) => {
    expect(isProductionStage(stage)).toBe(false);
    const deployment = stage === STAGE ? dev : await deployWithStandins(stage);
    expect(effective(deployment)).toEqual({ removal: 'remove', protect: false, deletionProtection: false, pointInTimeRecovery: false });
  });

  it('every stage names its app game-platform on AWS', () => {
    expect(dev.app).toMatchObject({ name: 'game-platform', home: 'aws' });
  });
});

describe('secrets and permissions: each function is linked to what its code reads, and nothing else', () => {
  /** The expected links, by component name: a table a reviewer can check against the code. */
  const expectedLinks: Record<string, string[]> = {
    // Issues tokens (sign-in, server tokens), stores files, signs vendor payment requests, checks stranded payment
    // refunds on chain, seals the cursors of a studio's orders and of the merchants under review.
    inner: ['Table', 'Files', 'TokenSigningKey', 'VendorSigningKey', 'ChainConfig', 'CursorKey'],
    // Verifies tokens, signs reward claims.
    boards: ['Table', 'TokenPublicKeys', 'ClaimSigningKey'],
    // Verifies admins' tokens: the stage overview and the partner store's clients (cursor-paged).
    'admin-console': ['Table', 'TokenPublicKeys', 'CursorKey'],
    // Issue tokens from wallet signatures and OAuth id_tokens.
    outer: ['Table', 'TokenSigningKey', 'OAuthProviders'],
    // The same, and a player's export and a studio's deleted players, which are cursor-paged.
    withoutkey: ['Table', 'TokenSigningKey', 'OAuthProviders', 'CursorKey'],
    // Only verify tokens: the public keys, never the private ring.
    chain: ['Table', 'TokenPublicKeys'],
    // Reads the chain (payments, the sponsor's gas coins) and signs sponsored claims' gas.
    pay: ['Table', 'TokenPublicKeys', 'ChainConfig', 'SponsorKey'],
    // App Store and Google Play purchases: their settings, verifying platform tokens.
    'third-pay': ['Table', 'TokenPublicKeys', 'AppleConfig', 'GoogleConfig'],
    // The hero game: issues hero tokens, reads hero NFTs from the chain.
    hero: ['Table', 'TokenSigningKey', 'ChainConfig'],
    // The partner store's authorization servers: their region keys, no platform token key.
    'partner-store': ['Table', 'StoreKeys'],
    // JWKS and the reference: the public keys alone; no table, no bucket.
    meta: ['TokenPublicKeys'],
  };
  const namesOf = (link: unknown[] | undefined) =>
    (link ?? []).map((linked) => dev.components.find((c) => c.instance === linked)?.name ?? 'an unknown component').sort();

  it('links each group function to its own resources, under the names functions/deployed.ts reads', () => {
    expect([...functionOf.keys()].sort()).toEqual(Object.keys(expectedLinks).sort());
    for (const [group, fn] of functionOf) expect(namesOf(fn.args.link), group).toEqual([...expectedLinks[group]!].sort());
  });

  it('links the scheduled jobs to theirs: the indexer to the table and the chain, settlement, deletions and the rank snapshots to the table', () => {
    const cron = (name: string) => (dev.components.find((c) => c.name === name)!.args as CronV2Args).function as FunctionArgs;
    expect(namesOf(cron('Indexer').link)).toEqual(['ChainConfig', 'Table']);
    expect(namesOf(cron('Settlement').link)).toEqual(['Table']);
    expect(namesOf(cron('Deletions').link)).toEqual(['Table']);
    expect(namesOf(cron('RankSnapshots').link)).toEqual(['Table']);
  });

  it('gives the private token keys only to functions that issue tokens, the files bucket only to inner, no secret to meta', () => {
    const holders = (name: string) =>
      [...functionOf]
        .filter(([, fn]) => namesOf(fn.args.link).includes(name))
        .map(([group]) => group)
        .sort();
    expect(holders('TokenSigningKey')).toEqual(['hero', 'inner', 'outer', 'withoutkey']);
    expect(holders('VendorSigningKey')).toEqual(['inner']);
    expect(holders('ClaimSigningKey')).toEqual(['boards']);
    expect(holders('SponsorKey')).toEqual(['pay']);
    expect(holders('Files')).toEqual(['inner']);
    expect(holders('ChainConfig')).toEqual(['hero', 'inner', 'pay']);
    expect(holders('AppleConfig')).toEqual(['third-pay']);
    expect(holders('GoogleConfig')).toEqual(['third-pay']);
    expect(namesOf(functionOf.get('meta')!.args.link).filter((name) => ofType(dev, 'sst.Secret').some((c) => c.name === name))).toEqual([]);
    expect(holders('StoreKeys')).toEqual(['partner-store']);
    expect(holders('CursorKey')).toEqual(['admin-console', 'inner', 'withoutkey']);
    // Every function that takes platform tokens verifies them with either the ring or its public keys, never both;
    // the partner store takes only its own regions' tokens.
    for (const [group, fn] of functionOf) {
      const names = namesOf(fn.args.link);
      expect(
        names.filter((n) => n === 'TokenSigningKey' || n === 'TokenPublicKeys'),
        group,
      ).toHaveLength(group === 'partner-store' ? 0 : 1);
    }
  });

  it('declares for every function exactly what its bundle reads of Deps (derived from the code, tree-shaken)', async () => {
    const { build } = await import('esbuild');
    const { entryOf, functionNeeds } = await import('../functions/deployed.js');
    const reads: Record<string, RegExp> = {
      table: /\bdeps\.(db|table)\b/,
      files: /\bdeps\.files\b/,
      issueTokens: /\bdeps\.tokens\.issue\b/,
      verifyTokens: /\bdeps\.tokens\.(verify|jwks)\b/,
      vendorKey: /\bdeps\.tokens\.(vendor|signBytes)\b/,
      oauthProviders: /\bdeps\.idTokens\b/,
      chain: /\bdeps\.chain\b/,
      claimKey: /\bdeps\.claims\b/,
      sponsorKey: /\bdeps\.sponsor\b/,
      appStore: /\bdeps\.appStore\b/,
      googlePlay: /\bdeps\.googlePlay\b/,
      storeKeys: /\bdeps\.storeKeys\b/,
      cursorKey: /\bdeps\.cursorKey\b/,
    };
    // A group none of whose routes takes a platform token (open, or the partner store's own tokens) never reaches
    // the token service: authenticate returns before it, or hands the token to the app's own verifier.
    const openOnly = (group: string) =>
      routeTable.filter((g) => g.group === group).every((g) => Object.values(g.ops).every((op) => op.auth === 'open' || op.auth.store !== undefined));
    const deployed = [...functionOf.keys(), 'indexer', 'settlement', 'deletions', 'rank-snapshots', 'rank-pages', 'day-figures'];
    for (const name of deployed) {
      // functions/deployed.ts builds Deps from the links, so it is left out. A group taking no platform token never
      // runs the platform's part of the authorization layer, so that is left out too.
      // Matched on the resolved path (imports are relative: `./auth.js` from core/http).
      const external = openOnly(name) ? /\/functions\/deployed\.js$|\/core\/http\/(auth|policy)\.js$|\/core\/access\// : /\/functions\/deployed\.js$/;
      const out = await build({
        entryPoints: [`${entryOf(name as DeployedFunction)}.ts`],
        bundle: true,
        write: false,
        platform: 'node',
        format: 'esm',
        packages: 'external',
        treeShaking: true,
        logLevel: 'silent',
        plugins: [
          {
            name: 'leave-out',
            setup: (b) =>
              b.onResolve({ filter: /\.js$/ }, (a) => (external.test(resolve(a.resolveDir, a.path)) ? { path: a.path, external: true } : undefined)),
          },
        ],
      });
      const text = out.outputFiles.map((f) => f.text).join('\n');
      const derived = Object.keys(reads).filter((need) => reads[need]!.test(text));
      // Issuing needs the private ring, which verifies as well.
      const needed = derived.includes('issueTokens') ? derived.filter((n) => n !== 'verifyTokens') : derived;
      expect([...(functionNeeds as Record<string, readonly string[]>)[name]!].sort(), `functionNeeds.${name} (functions/deployed.ts)`).toEqual(needed.sort());
    }
  }, 120_000);

  it("bundles the module of each part of Deps a function's needs name, and of no other, and no index backfill", async () => {
    const { build } = await import('esbuild');
    const { entryOf, functionNeeds } = await import('../functions/deployed.js');
    // A part module loaded on demand widens the chunks every cold start loads (functions/deployed.ts PartLoaders),
    // so each function's file loads only its own, and nothing else loads one on demand. (Domain code may import
    // one as a library: the Google notifications verify push tokens with the id-token verifier.)
    const partModules: Record<string, string> = {
      table: 'core/platform/db.ts',
      files: 'core/platform/files.ts',
      oauthProviders: 'core/identity/id-tokens.ts',
      chain: 'core/chain/source.ts',
      appStore: 'core/app-stores/apple-settings.ts',
      googlePlay: 'core/app-stores/google-settings.ts',
      storeKeys: 'core/partner-store/regions.ts',
      claimKey: 'core/rewards/claim-key.ts',
      sponsorKey: 'core/sponsorship/sponsor-key.ts',
    };
    for (const [name, needs] of Object.entries(functionNeeds as Record<string, readonly string[]>)) {
      const out = await build({
        entryPoints: [`${entryOf(name as DeployedFunction)}.ts`],
        bundle: true,
        write: false,
        splitting: true,
        outdir: 'unused',
        platform: 'node',
        format: 'esm',
        packages: 'external',
        metafile: true,
        logLevel: 'silent',
      });
      const loaded = Object.entries(out.metafile.inputs).flatMap(([file, input]) =>
        input.imports.filter((i) => i.kind === 'dynamic-import' && Object.values(partModules).includes(i.path)).map((i) => `${file} -> ${i.path}`),
      );
      const own = needs.filter((need) => need in partModules).map((need) => `${entryOf(name as DeployedFunction)}.ts -> ${partModules[need]}`);
      expect(loaded.sort(), name).toEqual(own.sort());
      // The index backfill is an operator's one-off pass (tools/admin/index-backfills.ts), in no function.
      expect(
        Object.keys(out.metafile.inputs).filter((input) => /backfill/.test(input)),
        name,
      ).toEqual([]);
    }
  }, 120_000);

  it('derives TokenPublicKeys from TokenSigningKey at deploy: the public halves of the ring, no private part', async () => {
    const { generateSigningJwk, rotateTokenKeys, serializeTokenKeys } = await import('../core/platform/tokens.js');
    const ring = await rotateTokenKeys({ current: await generateSigningJwk() }, 'next');
    const deployment = await deployWithStandins(STAGE, { secrets: { TokenSigningKey: serializeTokenKeys(ring) } });
    const linkable = deployment.components.find((c) => c.name === 'TokenPublicKeys')!;
    expect(linkable.type).toBe('sst.Linkable');
    const keys = (linkable.args as { properties: { keys: StandinOutput<JWK[]> } }).properties.keys.resolved;
    expect(keys.map((k) => k.kid)).toEqual([ring.current.kid, ring.next!.kid]);
    expect(JSON.stringify(keys)).not.toContain(ring.current.d);
    expect(JSON.stringify(keys)).not.toContain(ring.next!.d);
    for (const key of keys) expect(Object.keys(key).sort()).toEqual(['alg', 'crv', 'kid', 'kty', 'use', 'x', 'y']);
    // A TokenSigningKey that does not parse fails the deploy there, naming the problem but not the value.
    const broken = await deployWithStandins(STAGE, { secrets: { TokenSigningKey: '{"current": {"kty": "EC"}}' } });
    const brokenKeys = (broken.components.find((c) => c.name === 'TokenPublicKeys')!.args as { properties: { keys: StandinOutput<JWK[]> } }).properties.keys;
    expect(() => brokenKeys.resolved).toThrow(/current: expected an EC P-256/);
  });

  it('derives CursorKey from TokenSigningKey at deploy: a key of its own, which changes with the current key alone', async () => {
    const { generateSigningJwk, publicJwk, rotateTokenKeys, serializeTokenKeys } = await import('../core/platform/tokens.js');
    const { cursorKeyOf, cursorSecretOf } = await import('../core/platform/cursors.js');
    const cursorKeyAt = async (ring: Parameters<typeof serializeTokenKeys>[0]) => {
      const deployment = await deployWithStandins(STAGE, { secrets: { TokenSigningKey: serializeTokenKeys(ring) } });
      const linkable = deployment.components.find((c) => c.name === 'CursorKey')!;
      expect(linkable.type).toBe('sst.Linkable');
      return (linkable.args as { properties: { key: StandinOutput<string> } }).properties.key.resolved;
    };
    const ring = { current: await generateSigningJwk() };
    const key = await cursorKeyAt(ring);
    expect(key).toBe(cursorSecretOf(ring));
    expect(Buffer.from(key, 'base64url')).toHaveLength(32);
    expect(cursorKeyOf(key).symmetricKeySize).toBe(32);
    for (const part of [ring.current.d, ring.current.x, ring.current.y]) expect(key).not.toContain(part);
    // A staged next key changes nothing; promoting it changes the key (the cursors sealed before are refused).
    const staged = await rotateTokenKeys(ring, 'next');
    expect(await cursorKeyAt(staged)).toBe(key);
    const promoted = await rotateTokenKeys(staged, 'promote');
    expect(promoted.previous).toEqual(publicJwk(ring.current));
    expect(await cursorKeyAt(promoted)).not.toBe(key);
  });

  it('keeps VendorSigningKey off by default (the empty string: vendor/signature answers 503)', () => {
    expect(dev.components.find((c) => c.name === 'VendorSigningKey')!.args).toEqual({ placeholder: '' });
  });

  it('builds Deps at run time from the linked resources only: meta verifies and serves JWKS, and reads no table or private key', async () => {
    const { generateSigningJwk, ringKeys } = await import('../core/platform/tokens.js');
    const ring = { current: await generateSigningJwk() };
    const raw = (globalThis as { __SST_RESOURCE_RAW__?: Record<string, unknown> }).__SST_RESOURCE_RAW__;
    const linked = { App: { name: 'game-platform', stage: STAGE }, TokenPublicKeys: { keys: ringKeys(ring) } };
    vi.resetModules();
    const { Resource } = await import('sst/resource');
    // The SDK keeps what it loaded on globalThis; this test links exactly what infra links to meta.
    const store = (globalThis as { __SST_RESOURCE_RAW__?: Record<string, unknown> }).__SST_RESOURCE_RAW__ ?? raw!;
    for (const key of Object.keys(store)) delete store[key];
    Object.assign(store, linked);
    expect('Table' in (Resource as object)).toBe(false);
    const { deployedDeps } = await import('../functions/deployed.js');
    const deps = await deployedDeps('meta', {})();
    expect(deps.tokens.jwks().keys.map((k) => k.kid)).toEqual([ring.current.kid]);
    expect(() => deps.table).toThrow(/Table is not linked to this function/);
    expect(() => deps.db).toThrow(/Table is not linked/);
    expect(() => deps.idTokens).toThrow(/OAuthProviders is not linked/);
    await expect(deps.tokens.issue('merchant', 'someone')).rejects.toThrow(/only the public token keys/);
    expect(deps.tokens.vendor).toBeUndefined();
    for (const key of Object.keys(store)) delete store[key];
  });

  it("refuses npm start's development stand-ins in a Lambda: a ChainConfig or OAuth provider on a loopback host stops the function's Deps", async () => {
    // Lambda sets AWS_LAMBDA_FUNCTION_NAME; the tests that run handlers in-process against loopback nodes do not.
    vi.stubEnv('AWS_LAMBDA_FUNCTION_NAME', 'game-platform-testing-Indexer');
    const store = ((globalThis as { __SST_RESOURCE_RAW__?: Record<string, unknown> }).__SST_RESOURCE_RAW__ ??= {});
    const { depsWithParts } = await import('../functions/deployed.js');
    const chainAt = (url: string) => JSON.stringify({ url, paymentKit: { packageId: `0x${'7e'.repeat(32)}` } });
    const providerAt = (issuer: string) => JSON.stringify([{ name: 'google', issuer, jwksUri: `${issuer}/jwks.json`, clientIds: ['game'] }]);
    const parts = { chain: () => import('../core/chain/source.js'), oauthProviders: () => import('../core/identity/id-tokens.js') };
    const depsWith = async (linked: Record<string, unknown>) => {
      for (const key of Object.keys(store)) delete store[key];
      Object.assign(store, { App: { name: 'game-platform', stage: STAGE }, ...linked });
      return depsWithParts(parts)();
    };
    await expect(depsWith({ ChainConfig: { value: chainAt('http://127.0.0.1:41234/graphql') } })).rejects.toThrow(
      /^ChainConfig: http:\/\/127\.0\.0\.1:41234\/graphql is a loopback address/,
    );
    await expect(depsWith({ ChainConfig: { value: chainAt('http://localhost:9000/graphql') } })).rejects.toThrow(/ChainConfig: .* loopback/);
    await expect(depsWith({ OAuthProviders: { value: providerAt('http://localhost:3000/dev-sign-in') } })).rejects.toThrow(/^OAuthProviders: .* loopback/);
    const real = await depsWith({
      ChainConfig: { value: chainAt('https://graphql.testnet.sui.io/graphql') },
      OAuthProviders: { value: providerAt('https://accounts.google.com') },
    });
    expect(real.chain?.config.url).toBe('https://graphql.testnet.sui.io/graphql');
    vi.unstubAllEnvs();
    const inProcess = await depsWith({ ChainConfig: { value: chainAt('http://127.0.0.1:41234/graphql') } });
    expect(inProcess.chain?.config.url).toBe('http://127.0.0.1:41234/graphql');
    for (const key of Object.keys(store)) delete store[key];
  });
});

describe('production infrastructure', () => {
  let production: Deployment;
  beforeAll(async () => {
    production = await deployWithStandins('production');
  });
  const physicalName = (fn: Component) => (fn.instance as { name: string }).name;
  const groupOf = (fn: Component<FunctionArgs>) => /^functions\/([^/]+)\.handler$/.exec(fn.args.handler)![1]!;

  describe('calls from other origins', () => {
    it('both APIs answer browsers with the one policy (core/http/cross-origin.ts), exposing the headers clients read', () => {
      const corsOf = Object.fromEntries(ofType<ApiGatewayV2Args>(dev, 'sst.aws.ApiGatewayV2').map((api) => [api.name, api.args.cors]));
      const policy = {
        allowOrigins: ['*'],
        allowMethods: [...crossOrigin.allowMethods],
        allowHeaders: ['authorization', 'content-type', 'idempotency-key'],
        exposeHeaders: expect.arrayContaining(['retry-after', 'www-authenticate']),
        maxAge: '600 seconds',
      };
      expect(corsOf).toEqual({ Api: policy, HeroApi: policy });
      // Every method an operation uses is allowed.
      const methods = new Set(routeTable.flatMap((group) => Object.values(group.ops).map((op) => op.method)));
      expect([...methods].filter((method) => !(crossOrigin.allowMethods as readonly string[]).includes(method))).toEqual([]);
    });
  });

  describe('API Gateway throttling', () => {
    const throttlingOf = (deployment: Deployment) =>
      Object.fromEntries(
        ofType<ApiGatewayV2Args>(deployment, 'sst.aws.ApiGatewayV2').map((api) => [
          api.name,
          (api.args.transform?.stage as { defaultRouteSettings?: unknown } | undefined)?.defaultRouteSettings,
        ]),
      );

    it.each(['production', 'prod', 'v2-prod'])('%s: the main API 4,000 req/s (burst 2,000), the hero API 1,000 (burst 500)', async (stage) => {
      const deployment = stage === 'production' ? production : await deployWithStandins(stage);
      expect(throttlingOf(deployment)).toEqual({
        Api: { throttlingRateLimit: 4_000, throttlingBurstLimit: 2_000 },
        HeroApi: { throttlingRateLimit: 1_000, throttlingBurstLimit: 500 },
      });
    });

    it.each([STAGE, 'dev', 'pr-12'])('%s: 100 req/s (burst 50) on each API', async (stage) => {
      const deployment = stage === STAGE ? dev : await deployWithStandins(stage);
      expect(throttlingOf(deployment)).toEqual({
        Api: { throttlingRateLimit: 100, throttlingBurstLimit: 50 },
        HeroApi: { throttlingRateLimit: 100, throttlingBurstLimit: 50 },
      });
    });
  });

  describe('reserved concurrency', () => {
    const reservedOf = (deployment: Deployment) => {
      const fns = ofType<FunctionArgs>(deployment, 'sst.aws.Function').map((fn) => [groupOf(fn), fn.args.concurrency?.reserved] as const);
      const jobs = ofType<CronV2Args>(deployment, 'sst.aws.CronV2').map(
        (cron) => [cron.name, (cron.args.function as FunctionArgs).concurrency?.reserved] as const,
      );
      const subscribers = ofType<DynamoSubscriptionArgs>(deployment, 'sst.aws.DynamoLambdaSubscriber').map(
        (subscriber) => [subscriber.name, (subscriber.args.subscriber as FunctionArgs).concurrency?.reserved] as const,
      );
      return Object.fromEntries([...fns, ...jobs, ...subscribers].filter(([, reserved]) => reserved !== undefined));
    };

    it('production reserves for the functions that move money (tickets, balances, payments) and no other', () => {
      expect(reservedOf(production)).toEqual({ pay: 200, hero: 100, 'partner-store': 100, 'third-pay': 50, inner: 50 });
      // Lambda keeps at least 100 of an account's concurrency unreserved; with the default 1,000, half stays free.
      const total = (Object.values(reservedOf(production)) as number[]).reduce((sum, n) => sum + n, 0);
      expect(total).toBe(500);
      expect(1_000 - total).toBeGreaterThanOrEqual(100);
    });

    it.each([STAGE, 'dev', 'pr-12'])('%s reserves nothing (a small account could not, and dev stages would hold it idle)', async (stage) => {
      const deployment = stage === STAGE ? dev : await deployWithStandins(stage);
      expect(reservedOf(deployment)).toEqual({});
    });
  });

  describe('alarms', () => {
    const alarmsOf = (deployment: Deployment) => ofType<MetricAlarmArgs>(deployment, 'aws.cloudwatch.MetricAlarm');
    const topicArn = (deployment: Deployment) => (only(deployment, 'sst.aws.SnsTopic').instance as { arn: string }).arn;
    const builtFunction = (component: Component) =>
      (component.instance as { nodes: { function: StandinOutput<{ name: string }> } }).nodes.function.resolved.name;
    /**
     * Each Lambda of the deployment (group functions, the jobs' functions and the stream subscriber's) by component
     * name (a subscriber by its own name, without SST's `TableSubscriber`) -> its function name.
     */
    const lambdasOf = (deployment: Deployment) =>
      new Map([
        ...ofType<FunctionArgs>(deployment, 'sst.aws.Function').map((fn) => [fn.name, physicalName(fn)] as const),
        ...ofType<CronV2Args>(deployment, 'sst.aws.CronV2').map((cron) => [cron.name, builtFunction(cron)] as const),
        ...ofType(deployment, 'sst.aws.DynamoLambdaSubscriber').map(
          (subscriber) => [subscriber.name.replace(/^TableSubscriber/, ''), builtFunction(subscriber)] as const,
        ),
      ]);

    it.each(['production', STAGE])('%s: Errors and Throttles of every Lambda, group functions, jobs and the stream consumer alike', async (stage) => {
      const deployment = stage === STAGE ? dev : production;
      const lambdas = lambdasOf(deployment);
      expect([...lambdas.keys()].sort()).toEqual([
        'AdminConsole',
        'Boards',
        'Chain',
        'DayFigures',
        'Deletions',
        'Hero',
        'Indexer',
        'Inner',
        'Meta',
        'Outer',
        'PartnerStore',
        'Pay',
        'RankPages',
        'RankSnapshots',
        'Settlement',
        'ThirdPay',
        'Withoutkey',
      ]);
      const lambdaAlarms = alarmsOf(deployment).filter((a) => a.args.namespace === 'AWS/Lambda' && a.args.metricName !== 'IteratorAge');
      expect(lambdaAlarms).toHaveLength(lambdas.size * 2);
      for (const [component, lambdaName] of lambdas) {
        for (const metricName of ['Errors', 'Throttles']) {
          const alarm = lambdaAlarms.find((a) => a.args.metricName === metricName && resolvedOf(a.args.dimensions.FunctionName) === lambdaName);
          expect(alarm, `${metricName} alarm of ${component}`).toBeDefined();
          expect(alarm!.name).toBe(`${component}${metricName}`);
          expect(alarm!.args).toMatchObject({
            statistic: 'Sum',
            period: 300,
            evaluationPeriods: 1,
            threshold: 1,
            comparisonOperator: 'GreaterThanOrEqualToThreshold',
            treatMissingData: 'notBreaching',
          });
        }
      }
    });

    it('the stream consumer falling behind raises an alarm: a batch given to it with a record over a minute old', () => {
      const iteratorAge = alarmsOf(dev).filter((a) => a.args.metricName === 'IteratorAge');
      expect(iteratorAge.map((a) => [a.name, a.args.namespace, resolvedOf(a.args.dimensions.FunctionName)])).toEqual([
        ['RankPagesIteratorAge', 'AWS/Lambda', lambdasOf(dev).get('RankPages')],
      ]);
      // IteratorAge is in milliseconds; the Maximum, so one late batch in the 5 minutes is enough.
      expect(iteratorAge[0]!.args).toMatchObject({
        statistic: 'Maximum',
        period: 300,
        evaluationPeriods: 1,
        threshold: 60_000,
        comparisonOperator: 'GreaterThanThreshold',
        treatMissingData: 'notBreaching',
      });
    });

    it("a message in the jobs' dead-letter queue, a 5xx answer on either API and the gas sponsor's low balance raise alarms too", () => {
      const queue = only(dev, 'sst.aws.Queue');
      expect(queue.name).toBe('JobFailures');
      const dlq = alarmsOf(dev).filter((a) => a.args.namespace === 'AWS/SQS');
      expect(dlq.map((a) => [a.name, a.args.metricName, a.args.dimensions, a.args.statistic, a.args.threshold])).toEqual([
        [
          'JobFailuresQueued',
          'ApproximateNumberOfMessagesVisible',
          { QueueName: (queue.instance as { nodes: { queue: { name: string } } }).nodes.queue.name },
          'Maximum',
          1,
        ],
      ]);
      const apiIds = Object.fromEntries(
        ofType(dev, 'sst.aws.ApiGatewayV2').map((api) => [api.name, (api.instance as { nodes: { api: { id: string } } }).nodes.api.id]),
      );
      const gateway = alarmsOf(dev).filter((a) => a.args.namespace === 'AWS/ApiGateway');
      expect(gateway.map((a) => [a.name, a.args.metricName, a.args.dimensions, a.args.threshold])).toEqual([
        ['Api5xx', '5xx', { ApiId: apiIds.Api }, 1],
        ['HeroApi5xx', '5xx', { ApiId: apiIds.HeroApi }, 1],
      ]);
      // The gas sponsor under its threshold: the count the sponsor writes when it refuses for it.
      const sponsor = alarmsOf(dev).filter((a) => a.args.namespace === 'GamePlatform');
      expect(sponsor.map((a) => [a.name, a.args.metricName, a.args.dimensions, a.args.threshold])).toEqual([
        ['SponsorBalanceLow', 'SponsorBalanceLow', { service: 'game-platform', stage: STAGE }, 1],
      ]);
      // Nothing else: every alarm is one of these, a Lambda's or the stream consumer's IteratorAge.
      expect(alarmsOf(dev)).toHaveLength(lambdasOf(dev).size * 2 + 1 + 1 + 2 + 1);
    });

    it('every alarm notifies the Alarms topic when it fires and when it clears', () => {
      for (const deployment of [dev, production]) {
        for (const alarm of alarmsOf(deployment)) {
          expect(alarm.args.alarmActions, alarm.name).toEqual([topicArn(deployment)]);
          expect(alarm.args.okActions, alarm.name).toEqual([topicArn(deployment)]);
        }
      }
    });

    it('subscribes each AlarmEmail address to the topic (none by default), and refuses a deploy with a malformed one', async () => {
      expect(ofType(production, 'aws.sns.TopicSubscription')).toEqual([]);
      expect(dev.components.find((c) => c.name === 'AlarmEmail')).toMatchObject({ type: 'sst.Secret', args: { placeholder: '' } });
      const deployment = await deployWithStandins('production', {
        secrets: { AlarmEmail: 'ops@example.com, oncall@example.org ops@example.com' },
        settle: ['AlarmEmail'],
      });
      const subscriptions = ofType<TopicSubscriptionArgs>(deployment, 'aws.sns.TopicSubscription');
      expect(subscriptions.map((s) => s.args)).toEqual([
        { topic: topicArn(deployment), protocol: 'email', endpoint: 'ops@example.com' },
        { topic: topicArn(deployment), protocol: 'email', endpoint: 'oncall@example.org' },
      ]);
      await expect(deployWithStandins('production', { secrets: { AlarmEmail: 'ops@example.com, not-an-address' }, settle: ['AlarmEmail'] })).rejects.toThrow(
        /AlarmEmail: not-an-address is not an email address/,
      );
    });
  });
});
