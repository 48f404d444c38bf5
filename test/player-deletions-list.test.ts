import { randomUUID } from 'node:crypto';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { NOTICE_DAYS, noticeKey } from '../core/privacy/keys.js';
import { createAllApps } from '../functions/apps.js';
import { createTestDeps, type TestDeps } from './support/deps.js';
import { call } from './support/http.js';
import { merchantWithToken } from './support/merchants.js';
import { documentErrors, servedDocument } from './support/openapi-check.js';

/**
 * player deletions (GET /merchant/players/deletions): a studio reads the ids of its players who deleted their
 * accounts (the notices a deletion writes, core/privacy/notices.ts), newest first, paged, its own only.
 */
let deps: TestDeps;
let app: ReturnType<typeof createAllApps>;
const base = '/v2-testing';
const document = servedDocument(base);
const path = '/merchant/players/deletions';

beforeAll(async () => {
  deps = await createTestDeps();
  app = createAllApps(deps);
});

async function studio() {
  const owner = await merchantWithToken(deps);
  const server = (await deps.tokens.issue('server', owner.accountId, { merchant_id: owner.merchant.id })).token;
  return { ...owner, server };
}

/** A notice as a deletion writes it, `daysAgo` days before now. */
async function notice(accountId: string, daysAgo: number, uid = randomUUID()) {
  const deletedAt = new Date(Date.now() - daysAgo * 86_400_000).toISOString();
  await deps.db.send(
    new PutCommand({
      TableName: deps.table,
      Item: { ...noticeKey(accountId, deletedAt, uid), type: 'deletion_notice', game_player_id: uid, deleted_at: deletedAt, expiresAt: 0 },
    }),
  );
  return { game_player_id: uid, deleted_at: deletedAt };
}

const list = (token: string, query: Record<string, string | number> = {}) => call(app, 'GET', `${base}${path}`, { token, query });

describe('player deletions', () => {
  it("lists the studio's deleted players newest first, ids only, for its console and server tokens, never another studio's", async () => {
    const [mine, theirs] = [await studio(), await studio()];
    const notices = [await notice(mine.accountId, 3), await notice(mine.accountId, 1), await notice(mine.accountId, 2)];
    await notice(theirs.accountId, 1);
    const newestFirst = [...notices].sort((a, b) => (a.deleted_at < b.deleted_at ? 1 : -1));
    for (const token of [mine.token, mine.server]) {
      const res = await list(token);
      expect(res.status).toBe(200);
      expect(documentErrors(document, path, 'get', 200, res.body)).toEqual([]);
      expect(res.body.data).toEqual({ data: newestFirst, next: null });
    }
  });

  it('pages with next, and since leaves out older ones; notices older than they are kept are not listed', async () => {
    const mine = await studio();
    const notices = [];
    for (let day = 0; day < 5; day++) notices.push(await notice(mine.accountId, day + 0.5));
    await notice(mine.accountId, NOTICE_DAYS + 1);
    const first = await list(mine.token, { pageSize: 2 });
    expect(first.body.data.data).toEqual(notices.slice(0, 2));
    const second = await list(mine.token, { pageSize: 2, before: first.body.data.next });
    expect(second.body.data.data).toEqual(notices.slice(2, 4));
    const third = await list(mine.token, { pageSize: 2, before: second.body.data.next });
    expect(third.body.data, JSON.stringify(third.body)).toEqual({ data: notices.slice(4), next: null });
    const since = await list(mine.token, { since: notices[2]!.deleted_at });
    expect(since.body.data.data).toEqual(notices.slice(0, 3));
  });

  it('refuses bad paging naming the field, and player tokens', async () => {
    const mine = await studio();
    for (const [query, field] of [
      [{ before: 'yesterday' }, /^query\.before/],
      [{ since: 'last week' }, /^query\.since/],
      [{ pageSize: 0 }, /^query\.pageSize/],
    ] as const) {
      const res = await list(mine.token, query);
      expect([res.status, res.body.error]).toEqual([400, 'input.invalid']);
      expect(res.body.message).toMatch(field);
      expect(documentErrors(document, path, 'get', 400, res.body)).toEqual([]);
    }
    const player = (await deps.tokens.issue('platform', randomUUID())).token;
    const refused = await list(player);
    expect(refused.status).toBe(401);
    expect(documentErrors(document, path, 'get', 401, refused.body)).toEqual([]);
  });
});
