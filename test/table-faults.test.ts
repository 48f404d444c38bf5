import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { buildConsole } from '../console/build.js';
import { basePathOf } from '../core/http/app.js';
import { routePathOf } from '../core/http/operation.js';
import { generateStoreKeys, parseStoreKeys } from '../core/partner-store/regions.js';
import { balanceOf } from '../core/tickets/balances.js';
import { createAllApps } from '../functions/apps.js';
import { routeTable } from '../functions/routes/index.js';
import { createTestDeps, itemCount, type TestDeps } from './support/deps.js';
import { COSTS, grantedHero, heroPlayer, heroWorld, type HeroWorld } from './support/heroes.js';
import { call } from './support/http.js';
import { documentErrors, servedDocument } from './support/openapi-check.js';
import { giveTickets, projectWithLevel } from './support/payments.js';
import { faults, injectFaults, withFault as withInjected, type FaultInjector } from './support/table-faults.js';

/**
 * Transient table failures (docs/security.md "Transient table failures"): throttling, a transaction cancelled for
 * throttling, the service's own error and a timeout, injected with SDK middleware after the SDK's retries would have
 * run. Each is answered 503 with Retry-After in the path's envelope, as the reference documents, never a 500, and
 * nothing is written. Operations marked table-free in the route table answer with the table down.
 */
let deps: TestDeps;
let app: ReturnType<typeof createAllApps>;
let world: HeroWorld;
let injector: FaultInjector;

beforeAll(async () => {
  deps = await createTestDeps();
  deps.storeKeys = await parseStoreKeys(await generateStoreKeys());
  world = await heroWorld(deps);
  app = createAllApps(deps);
  injector = injectFaults(deps.db);
});
afterAll(() => world.node.stop());

/** The faults the first tests inject (the conflict is money-faults.test.ts's: it is retried before it is answered). */
const transient = Object.fromEntries(Object.entries(faults).filter(([kind]) => kind !== 'transaction conflict'));
const withFault = <T>(fault: () => Error, after: number, run: () => Promise<T>) => withInjected(injector, fault, after, run);

describe('transient table failures', () => {
  it('minus_tickets: each fault on its transaction is a 503 with Retry-After in the account envelope, the balance untouched', async () => {
    const shop = await projectWithLevel(deps);
    const player = await heroPlayer(world, deps);
    await giveTickets(deps, player.uid, shop.project.project_name, 1, 10);
    const document = servedDocument('/v2-testing');
    const before = await itemCount(deps);
    for (const [what, fault] of Object.entries(transient)) {
      const res = await withFault(fault, 0, () =>
        call(app, 'POST', '/v2-testing/account/game/minus_tickets', {
          token: shop.server,
          body: { userId: player.uid, projectName: shop.project.project_name, level: 1, amount: 3 },
        }),
      );
      expect(res.status, what).toBe(503);
      expect(res.headers.get('retry-after'), what).toBe('1');
      expect(res.body, what).toEqual({ statusCode: 503, message: expect.stringMatching(/^the table/), error: 'table.busy' });
      expect(documentErrors(document, '/account/game/minus_tickets', 'post', 503, res.body)).toEqual([]);
    }
    expect(await itemCount(deps)).toBe(before);
    expect(await balanceOf(deps, { uid: player.uid, projectName: shop.project.project_name, level: 1 })).toBe(10);
  });

  it('hero upgrade: a fault on its read or on its transaction is a 503 in the hero envelope, nothing upgraded or paid', async () => {
    const player = await heroPlayer(world, deps);
    const hero = await grantedHero(world, player.uid);
    await giveTickets(deps, player.uid, world.projectName, 1, COSTS[2].amount);
    const document = servedDocument('/hero-testing', 'hero');
    const before = await itemCount(deps);
    for (const after of [0, 1]) {
      for (const [what, fault] of Object.entries(transient)) {
        const res = await withFault(fault, after, () =>
          world.request('POST', '/heroes/upgrade-level', { token: player.hero, body: { userId: player.uid, itemIds: [hero.id] } }),
        );
        expect(res.status, `${what} on request ${after + 1}`).toBe(503);
        expect(res.body).toEqual({ message: expect.stringMatching(/^the table/), statusCode: 503, error: 'table.busy' });
        expect(documentErrors(document, '/heroes/upgrade-level', 'post', 503, res.body)).toEqual([]);
      }
    }
    expect(await itemCount(deps)).toBe(before);
    const ok = await world.request('POST', '/heroes/upgrade-level', {
      token: player.hero,
      body: { userId: player.uid, itemIds: [hero.id] },
      headers: { 'Idempotency-Key': randomUUID() },
    });
    expect(ok.status).toBe(200);
  });

  it('a write that succeeded but whose answer was lost: 503, and the retry with the same Idempotency-Key answers the first answer and takes once', async () => {
    const shop = await projectWithLevel(deps);
    const player = await heroPlayer(world, deps);
    await giveTickets(deps, player.uid, shop.project.project_name, 1, 10);
    const headers = { 'Idempotency-Key': `lost-${randomUUID()}` };
    const deduct = () =>
      call(app, 'POST', '/v2-testing/account/game/minus_tickets', {
        token: shop.server,
        body: { userId: player.uid, projectName: shop.project.project_name, level: 1, amount: 4 },
        headers,
      });
    injector.loseNextWriteAnswer();
    const lost = await deduct();
    expect(lost.status).toBe(503);
    expect(await balanceOf(deps, { uid: player.uid, projectName: shop.project.project_name, level: 1 })).toBe(6);
    const retried = await deduct();
    expect(retried.status).toBe(201);
    expect(await balanceOf(deps, { uid: player.uid, projectName: shop.project.project_name, level: 1 })).toBe(6);

    // The hero upgrade the same way: one level, paid once.
    const hero = await grantedHero(world, player.uid);
    await giveTickets(deps, player.uid, world.projectName, 1, COSTS[2].amount);
    const upgradeHeaders = { 'Idempotency-Key': `lost-${randomUUID()}` };
    const upgrade = () =>
      world.request('POST', '/heroes/upgrade-level', { token: player.hero, body: { userId: player.uid, itemIds: [hero.id] }, headers: upgradeHeaders });
    injector.loseNextWriteAnswer();
    expect((await upgrade()).status).toBe(503);
    const again = await upgrade();
    expect(again.status).toBe(200);
    expect(again.body.heroes[0]).toMatchObject({ id: hero.id, level: 2 });
    expect(await balanceOf(deps, { uid: player.uid, projectName: world.projectName, level: 1 })).toBe(0);
  });

  it('the operations the route table marks table-free answer with every table request failing', async () => {
    const free = routeTable.flatMap((group) =>
      Object.values(group.ops)
        .filter((op) => op.tableFree)
        .map((op) => ({ base: group.base, op })),
    );
    expect(free.length).toBeGreaterThan(5);
    const platform = (await deps.tokens.issue('platform', randomUUID())).token;
    // The console's page and files are served from its build (docs/console.md).
    const saved = process.env.CONSOLE_ASSETS_DIR;
    process.env.CONSOLE_ASSETS_DIR = mkdtempSync(join(tmpdir(), 'table-faults-console-'));
    await buildConsole(process.env.CONSOLE_ASSETS_DIR);
    onTestFinished(() => {
      if (saved === undefined) delete process.env.CONSOLE_ASSETS_DIR;
      else process.env.CONSOLE_ASSETS_DIR = saved;
    });
    await withFault(faults.throttled!, 0, async () => {
      for (const { base, op } of free) {
        // A path parameter's value: the stage for `:stage`, a file the reference or the console serves for
        // `:file`, else 1.
        const sample: Record<string, string> = { stage: deps.stage, file: op.path.startsWith('/console/') ? 'console.js' : 'reference.js' };
        const path = routePathOf(
          basePathOf(base, deps.stage),
          op.path.replace(/:(\w+)/g, (_, name: string) => sample[name] ?? '1'),
        );
        const res = await app.request(path, { method: op.method, headers: op.auth === 'open' ? {} : { authorization: `Bearer ${platform}` } });
        expect(res.status, `${op.method} ${op.path}`).toBe(op.status);
      }
    });
  });
});
