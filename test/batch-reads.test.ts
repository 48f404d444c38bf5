import { beforeAll, describe, expect, it } from 'vitest';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { revokeTokens } from '../core/access/principals.js';
import { readItems, RETRIES, writeItems } from '../core/platform/batch.js';
import { createAllApps } from '../functions/apps.js';
import { call } from './support/http.js';
import { documentErrors as checkAgainst, servedDocument } from './support/openapi-check.js';
import { createTestDeps, itemCount, type TestDeps } from './support/deps.js';
import { playerWithTokens, projectWithLevel, randomDigest } from './support/payments.js';
import { accountWithToken } from './support/merchants.js';

/**
 * BatchGetItem's UnprocessedKeys (docs/api.md, core/platform/batch.ts): DynamoDB Local never leaves keys
 * unprocessed, so a middleware on the deps' client does what a throttled table does: it answers a BatchGetItem
 * with every requested key but the first unprocessed (none read) for the next `starved` calls, or for all while
 * `forever` is on. Every batch read must read the rest again, or answer 503 with Retry-After.
 */

type Key = Record<string, unknown>;
type BatchGetOutput = { Responses?: Record<string, Key[]>; UnprocessedKeys?: Record<string, { Keys?: Key[]; ConsistentRead?: boolean }> };
type BatchGetInput = { RequestItems: Record<string, { Keys: Record<string, AttributeValue>[]; ConsistentRead?: boolean }> };

interface Throttle {
  /** BatchGetItem calls still to answer with keys unprocessed. */
  starved: number;
  /** Every BatchGetItem answers every key unprocessed. */
  forever: boolean;
  /** BatchGetItem calls seen. */
  calls: number;
}

const idOf = (key: Key) => `${String(key.pk)}\u0000${String(key.sk)}`;

function throttleBatchReads(deps: TestDeps): Throttle {
  const throttle: Throttle = { starved: 0, forever: false, calls: 0 };
  type Args = { input: unknown };
  const middleware = (next: (args: Args) => Promise<{ output: BatchGetOutput }>, context: { commandName?: string }) => async (args: Args) => {
    const result = await next(args);
    if (context.commandName !== 'BatchGetItemCommand') return result;
    throttle.calls++;
    if (!throttle.forever && throttle.starved === 0) return result;
    if (!throttle.forever) throttle.starved--;
    // The input is marshalled already (the document client marshals before serializing); the output is
    // unmarshalled by then (it unmarshals right after the deserializer): answer plain keys, as DynamoDB's
    // UnprocessedKeys read through the document client are.
    const request = (args.input as BatchGetInput).RequestItems;
    const output = result.output;
    output.UnprocessedKeys = {};
    for (const [table, { Keys, ConsistentRead }] of Object.entries(request)) {
      const keys = Keys.map((key) => unmarshall(key));
      const unprocessed = throttle.forever ? keys : keys.slice(1);
      if (unprocessed.length === 0) continue;
      const left = new Set(unprocessed.map(idOf));
      output.UnprocessedKeys[table] = { Keys: unprocessed, ConsistentRead };
      output.Responses = { ...output.Responses, [table]: (output.Responses?.[table] ?? []).filter((item) => !left.has(idOf(item))) };
    }
    return result;
  };
  // Outside the deserializer and the document client's unmarshalling, inside the SDK's retries.
  deps.db.middlewareStack.add(middleware as unknown as Parameters<typeof deps.db.middlewareStack.add>[0], {
    step: 'deserialize',
    name: 'unprocessedKeysStandIn',
    priority: 'high',
    override: true,
  });
  return throttle;
}

let deps: TestDeps;
let app: ReturnType<typeof createAllApps>;
let throttle: Throttle;
const base = '/v2-testing';
const document = servedDocument(base);

/** The body of a response checked against the schema the OpenAPI document gives its path, method and status. */
const documentErrors = (path: string, method: string, status: number, body: unknown) => checkAgainst(document, path, method, status, body);

beforeAll(async () => {
  deps = await createTestDeps();
  throttle = throttleBatchReads(deps);
  app = createAllApps(deps);
});

async function shopAndPlayer() {
  const shop = await projectWithLevel(deps);
  const player = await playerWithTokens(deps);
  const order = () =>
    call(app, 'POST', `${base}/account/user/rechargeOrder`, {
      token: player.platform,
      body: { userId: player.uid, project: shop.project.project_name, priceId: shop.level.priceId, prevId: -1, level: 1, amount: 1_500_000_000 },
    });
  return { shop, player, order };
}

describe('a batch read with unprocessed keys', () => {
  it('reads them again: rechargeOrder finds the level and the account the first answers left out', async () => {
    const { shop, player, order } = await shopAndPlayer();
    throttle.calls = 0;
    throttle.starved = 2;
    const res = await order();
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ user_id: player.uid, wallet_address: player.address, project_id: shop.project.project_id, level: 1, status: 0 });
    // Keys [project, level, account]: the account is answered on the third request only.
    expect(throttle.calls).toBe(3);
  });

  it('reads them again: a revoked console token is refused although the revocation was left out of the first answer', async () => {
    const owner = await accountWithToken(deps);
    await revokeTokens(deps, owner.accountId, 'console');
    throttle.starved = 1;
    const res = await call(app, 'GET', `${base}/merchant/info`, { token: owner.token });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ code: 401, message: 'token has been revoked', data: null, error: 'auth.token_revoked' });
  });

  it('reads them again: getDepositaddress and orderComplete find the order and the account', async () => {
    const { shop, player, order } = await shopAndPlayer();
    const placed = (await order()).body;
    throttle.starved = 1;
    const where = await call(app, 'GET', `${base}/account/user/getDepositaddress`, {
      token: player.platform,
      query: { project: shop.project.project_name, orderId: placed.id },
    });
    expect(where.status).toBe(200);
    expect(where.body.data).toMatchObject({ receive_address: shop.receiveAddress, order: { id: placed.id, bill_no: placed.bill_no } });
    // The order is key 0, the account key 1: unprocessed, it read as absent (404) before.
    throttle.starved = 1;
    const complete = await call(app, 'POST', `${base}/account/user/orderComplete`, {
      token: player.platform,
      body: { orderId: placed.id, transactionId: randomDigest() },
    });
    expect(complete.status).toBe(404);
    expect(complete.body.message).toMatch(/^transactionId: /);
  });

  it('reads more than 100 keys in requests of 100, each read completely', async () => {
    const keys = Array.from({ length: 230 }, (_, i) => ({ pk: `BATCHTEST#${i}`, sk: 'ITEM' }));
    for (const key of keys.filter((_, i) => i % 3 === 0))
      await deps.db.send(new PutCommand({ TableName: deps.table, Item: { ...key, n: Number(key.pk.split('#')[1]) } }));
    throttle.calls = 0;
    throttle.starved = 4;
    const items = await readItems(deps, [...keys, keys[0]!]);
    expect(items.map((item) => item?.n)).toEqual([...keys.map((_, i) => (i % 3 === 0 ? i : undefined)), 0]);
    // Three requests of 100, 100 and 30 keys, then one more for each of the four starved answers.
    expect(throttle.calls).toBe(7);
    // Gone again (they are no kind of the platform's): test/stored-items.test.ts holds every item the suite leaves to one.
    await writeItems(
      deps,
      [],
      keys.filter((_, i) => i % 3 === 0),
    );
  });
});

describe('a batch read whose keys stay unprocessed', () => {
  it(`answers 503 with Retry-After in the path's envelope after ${RETRIES} retries, as the OpenAPI document says, writing nothing`, async () => {
    const { order } = await shopAndPlayer();
    const before = await itemCount(deps);
    throttle.calls = 0;
    throttle.forever = true;
    // How long the retries pause in all is the schedule's (test/retry-pauses.test.ts), not timed here.
    const res = await order().finally(() => (throttle.forever = false));
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('1');
    expect(res.body).toEqual({ statusCode: 503, message: expect.stringMatching(/try again/), error: 'table.busy' });
    expect(documentErrors('/account/user/rechargeOrder', 'post', 503, res.body)).toEqual([]);
    expect(throttle.calls).toBe(RETRIES + 1);
    expect(await itemCount(deps)).toBe(before);
  });

  it('answers 503 on a console route (its account state is a batch read), in the merchant envelope', async () => {
    const owner = await accountWithToken(deps);
    throttle.forever = true;
    const res = await call(app, 'GET', `${base}/merchant/games/list`, { token: owner.token }).finally(() => (throttle.forever = false));
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('1');
    expect(res.body).toEqual({ code: 503, message: expect.stringMatching(/try again/), data: null, error: 'table.busy' });
    expect(documentErrors('/merchant/games/list', 'get', 503, res.body)).toEqual([]);
  });

  it('is documented on every operation that batch-reads', () => {
    const batchReading = [
      ['/account/user/rechargeOrder', 'post'],
      ['/account/user/getDepositaddress', 'get'],
      ['/account/user/orderComplete', 'post'],
      ['/account/user/deposit', 'get'],
      ['/account/register/chainwallet', 'post'],
      ['/merchant/login', 'post'],
      ['/merchant/games/list', 'get'],
      ['/merchant/projects/levels', 'post'],
      ['/account/vendor/order', 'post'],
    ];
    for (const [path, method] of batchReading) expect(document.paths[path!]?.[method!]?.responses, `${method} ${path}`).toHaveProperty('503');
  });
});
