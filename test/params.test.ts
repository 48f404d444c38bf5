import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { createWithoutkeyApp } from '../functions/withoutkey.js';
import { call } from './support/http.js';
import { createTestDeps, type TestDeps } from './support/deps.js';

let deps: TestDeps;
let app: ReturnType<typeof createWithoutkeyApp>;
const path = '/v2-testing/account/params';

beforeAll(async () => {
  deps = await createTestDeps();
  app = createWithoutkeyApp(deps);
});

const stored = async (uid: string) =>
  (await deps.db.send(new GetCommand({ TableName: deps.table, Key: { pk: `USER#${uid}`, sk: 'PARAMS' }, ConsistentRead: true }))).Item?.params;

describe('save_params', () => {
  it("stores the caller's map, replacing the previous one, and only the caller's", async () => {
    const uid = randomUUID();
    const { token } = await deps.tokens.issue('platform', uid);
    const first = await call(app, 'POST', path, { token, body: { ref: 'friend-1', 'utm.source': 'ad' } });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      data: { params: { ref: 'friend-1', 'utm.source': 'ad' }, updated_at: expect.any(String) },
      statusCode: 200,
      message: 'success',
      totalPage: 1,
    });
    await call(app, 'POST', path, { token, body: { ref: 'friend-2' } });
    expect(await stored(uid)).toEqual({ ref: 'friend-2' });
    expect(await stored(randomUUID())).toBeUndefined();
  });

  it('refuses more than 32 keys, non-text values, and callers without a platform token', async () => {
    const uid = randomUUID();
    const { token } = await deps.tokens.issue('platform', uid);
    const many = Object.fromEntries(Array.from({ length: 33 }, (_, i) => [`k${i}`, 'v']));
    const tooMany = await call(app, 'POST', path, { token, body: many });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.message).toMatch(/^body: .*32/);
    const nested = await call(app, 'POST', path, { token, body: { ref: { deep: 1 } } });
    expect(nested.status).toBe(400);
    expect(nested.body.message).toMatch(/^body\.ref/);
    const game = await deps.tokens.issue('game', uid);
    expect((await call(app, 'POST', path, { token: game.token, body: { ref: 'x' } })).status).toBe(401);
    expect(await stored(uid)).toBeUndefined();
  });
});
