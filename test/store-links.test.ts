import { beforeAll, describe, expect, it } from 'vitest';
import { orderByStoreLink } from '../core/payments/orders.js';
import { createAllApps } from '../functions/apps.js';
import { createTestDeps, itemCount, type TestDeps } from './support/deps.js';
import { call } from './support/http.js';
import { documentErrors, servedDocument } from './support/openapi-check.js';
import { playerWithTokens, projectWithLevel } from './support/payments.js';

/**
 * App store links (docs/api.md, "Payments and tickets"): a price level names its App Store and Google Play products,
 * and every recharge order carries a UUID the store purchase names it by (appAccountToken,
 * obfuscatedExternalAccountId).
 */

const base = '/v2-testing';
const document = servedDocument(base);
let deps: TestDeps;
let app: ReturnType<typeof createAllApps>;

beforeAll(async () => {
  deps = await createTestDeps();
  app = createAllApps(deps);
});

async function shop() {
  const setup = await projectWithLevel(deps);
  const project = setup.project.project_name;
  const save = (extra: Record<string, unknown>) =>
    call(app, 'POST', `${base}/merchant/projects/levels`, {
      token: setup.owner.token,
      body: { project_name: project, level: 1, amount: '1500000000', tickets: 100, ...extra },
    });
  const levels = async () => (await call(app, 'GET', `${base}/account/user/project/level`, { query: { project } })).body.data as Record<string, unknown>[];
  return { ...setup, save, levels };
}

describe('a level names its store products', () => {
  it('saves both product ids; a later save without them keeps them; null unlinks one', async () => {
    const { save, levels } = await shop();
    expect((await levels())[0]).toMatchObject({ apple_product_id: null, google_product_id: null });

    const linked = await save({ apple_product_id: 'com.studio.tickets.100', google_product_id: 'tickets_100' });
    expect(linked.status).toBe(200);
    expect(linked.body.data).toMatchObject({ apple_product_id: 'com.studio.tickets.100', google_product_id: 'tickets_100' });
    expect(documentErrors(document, '/merchant/projects/levels', 'post', 200, linked.body)).toEqual([]);

    expect((await save({ tickets: 120 })).status).toBe(200);
    expect((await levels())[0]).toMatchObject({ tickets: 120, apple_product_id: 'com.studio.tickets.100', google_product_id: 'tickets_100' });

    expect((await save({ google_product_id: null })).status).toBe(200);
    const [level] = await levels();
    expect(level).toMatchObject({ apple_product_id: 'com.studio.tickets.100', google_product_id: null });
    expect(documentErrors(document, '/account/user/project/level', 'get', 200, { data: [level], statusCode: 200, message: 'ok', totalPage: 1 })).toEqual([]);
  });

  it.each([
    ['apple_product_id', 'com studio'],
    ['apple_product_id', '.leading.dot'],
    ['google_product_id', 'x'.repeat(101)],
    ['google_product_id', 42],
  ])('refuses %s %j with 400 naming the field, writing nothing', async (field, value) => {
    const { save } = await shop();
    const before = await itemCount(deps);
    const res = await save({ [field]: value });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(new RegExp(`^body\\.${field}: `));
    expect(await itemCount(deps)).toBe(before);
  });
});

describe('an order carries its store link', () => {
  it('rechargeOrder answers a fresh UUID per order, and the link finds the order', async () => {
    const { project, level } = await shop();
    const player = await playerWithTokens(deps);
    const recharge = () =>
      call(app, 'POST', `${base}/account/user/rechargeOrder`, {
        token: player.platform,
        body: { userId: player.uid, project: project.project_name, priceId: level.priceId, prevId: -1, level: 1, amount: '1500000000' },
      });
    const [first, second] = [await recharge(), await recharge()];
    expect(first.status).toBe(200);
    expect(documentErrors(document, '/account/user/rechargeOrder', 'post', 200, first.body)).toEqual([]);
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
    expect(first.body.app_account_token).toMatch(uuid);
    expect(second.body.app_account_token).toMatch(uuid);
    expect(second.body.app_account_token).not.toBe(first.body.app_account_token);

    // A store gives the UUID back in either case (Apple lower-cases it; a client may not).
    expect((await orderByStoreLink(deps, first.body.app_account_token))?.id).toBe(first.body.id);
    expect((await orderByStoreLink(deps, second.body.app_account_token.toUpperCase()))?.id).toBe(second.body.id);
    expect(await orderByStoreLink(deps, '00000000-0000-4000-8000-000000000000')).toBeUndefined();
  });
});
