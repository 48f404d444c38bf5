import { beforeAll, describe, expect, it } from 'vitest';
import { basePathOf } from '../core/http/app.js';
import { routePathOf } from '../core/http/operation.js';
import { registerClient } from '../core/partner-store/clients.js';
import { generateStoreKeys, parseStoreKeys } from '../core/partner-store/regions.js';
import { appFactories } from '../functions/apps.js';
import { routeTable } from '../functions/routes/index.js';
import { createTestDeps, type TestDeps } from './support/deps.js';

/**
 * `X-Content-Type-Options: nosniff` on every answer of the service (core/http/answer-headers.ts), as each group's
 * own app makes it (deployed, each group is a Lambda of its own): every operation of the route table, called as an
 * anonymous client calls it (whatever it answers: its success, a 400, a 401, a 503), and a path no operation has,
 * on every group and on the apps composed as the local server composes them.
 */
let deps: TestDeps;

beforeAll(async () => {
  deps = await createTestDeps();
  deps.storeKeys = await parseStoreKeys(await generateStoreKeys());
});

/** An operation's path with each `:name` filled in. */
const filled = (path: string) => path.replace(/:(\w+)/g, 'x');

describe('X-Content-Type-Options: nosniff', () => {
  it('on the answer of every operation of every group, called without a token or input', async () => {
    const apps = new Map(Object.entries(appFactories).map(([group, create]) => [group, create(deps)]));
    const missing: string[] = [];
    let answered = 0;
    for (const group of routeTable) {
      const app = apps.get(group.group)!;
      for (const op of Object.values(group.ops)) {
        const url = routePathOf(basePathOf(group.base, deps.stage), filled(op.path));
        const res = await app.request(url, {
          method: op.method,
          ...(op.method === 'GET' ? {} : { headers: { 'content-type': 'application/json' }, body: '{}' }),
        });
        answered++;
        if (res.headers.get('x-content-type-options') !== 'nosniff') missing.push(`${op.name} (${op.method} ${url}): ${res.status}`);
      }
    }
    expect(missing).toEqual([]);
    expect(answered).toBeGreaterThan(100);
  });

  it('on a 404 for a path no operation has, on every group and on the composed apps', async () => {
    const missing: string[] = [];
    const everyApp = [...Object.entries(appFactories).map(([group, create]) => [group, create(deps)] as const)];
    for (const [group, app] of everyApp) {
      for (const path of ['/v2-testing/no/such/path', '/hero-testing/no/such/path', '/nothing']) {
        const res = await app.request(path);
        expect(res.status, `${group} ${path}`).toBe(404);
        if (res.headers.get('x-content-type-options') !== 'nosniff') missing.push(`${group} ${path}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('on a JSON success, a JSON error, a redirect and a page', async () => {
    const store = appFactories['partner-store']!(deps);
    const meta = appFactories.meta!(deps);
    const { client } = await registerClient(deps, {
      region: 'default',
      type: 'public',
      name: 'App',
      redirect_uris: ['https://app.example/cb'],
      scopes: ['profile'],
    });
    const answers = {
      health: await meta.request('/v2-testing/health'),
      openapi: await meta.request('/v2-testing/openapi.json'),
      docs: await meta.request('/v2-testing/docs'),
      unbuiltConsole: await meta.request('/v2-testing/console'),
      badJson: await store.request('/v2-testing/store/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{' }),
      // An unknown client is 400, never a redirect; a known client with a bad parameter is sent back (302).
      unknownClient: await store.request('/v2-testing/store/oauth/authorize?client_id=nobody'),
      redirect: await store.request(`/v2-testing/store/oauth/authorize?client_id=${client.client_id}&response_type=token&state=s`),
      consentScript: await store.request('/v2-testing/store/oauth/consent.js'),
    };
    expect(Object.fromEntries(Object.entries(answers).map(([what, res]) => [what, [res.status, res.headers.get('x-content-type-options')]]))).toEqual({
      health: [200, 'nosniff'],
      openapi: [200, 'nosniff'],
      docs: [200, 'nosniff'],
      unbuiltConsole: [503, 'nosniff'],
      badJson: [400, 'nosniff'],
      unknownClient: [400, 'nosniff'],
      redirect: [302, 'nosniff'],
      consentScript: [200, 'nosniff'],
    });
  });
});
