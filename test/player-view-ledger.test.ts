import { beforeAll, describe, expect, it } from 'vitest';
import { saveLevel } from '../core/payments/projects.js';
import { encodeCursor } from '../core/platform/cursors.js';
import { queryItems } from '../core/platform/query.js';
import { createInnerApp } from '../functions/inner.js';
import { createPayApp } from '../functions/pay.js';
import { createTestDeps, type TestDeps } from './support/deps.js';
import { call } from './support/http.js';
import { documentErrors, servedDocument } from './support/openapi-check.js';
import { giveTickets, playerWithTokens, projectWithLevel } from './support/payments.js';

/**
 * player_view's ledger (core/tickets/ledger-page.ts) over the three places the ledger is in: the entries the
 * balances hold, pages of entries, and ledger items of their own. Paged with a small limit, every line of the
 * studio's projects comes exactly once, never more than `limit` an answer, each answer reading at most one Query
 * of the ledger items.
 */
let deps: TestDeps;
let inner: ReturnType<typeof createInnerApp>;
let pay: ReturnType<typeof createPayApp>;
const base = '/v2-testing';
const document = servedDocument(base);
const VIEW = '/merchant/players/view';
const MINUS = `${base}/account/game/minus_tickets`;

beforeAll(async () => {
  deps = await createTestDeps();
  inner = createInnerApp(deps);
  pay = createPayApp(deps);
});

interface Line {
  ref: string;
  project_name: string;
  level: number;
  change: number;
  operation: string;
}

async function view(token: string, query: Record<string, string | number>) {
  const res = await call(inner, 'GET', `${base}${VIEW}`, { token, query });
  expect(documentErrors(document, VIEW, 'get', res.status, res.body)).toEqual([]);
  return res;
}

/** Unkeyed deductions of `amount` from one balance, one after the other (each may move a page): their refs, oldest first. */
async function deduct(server: string, body: { userId: string; projectName: string; level: number }, amount: number, times: number) {
  const refs: string[] = [];
  for (let i = 0; i < times; i++) {
    const res = await call(pay, 'POST', MINUS, { token: server, body: { ...body, amount } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    refs.push(res.body.data);
  }
  return refs;
}

const keyOf = (cursor: string) => JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')).k as Record<string, string>;
const reseal = (cursor: string, k: Record<string, string>) =>
  Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')), k })).toString('base64url');

/** Every answer of the ledger from the first page on, with the ledger Queries each one sent. */
async function pages(token: string, uid: string, limit: number) {
  const answers: { lines: Line[]; next: string | null; queries: Record<string, unknown>[] }[] = [];
  let queries: Record<string, unknown>[] = [];
  const name = `ledgerQueries${Math.random()}`;
  deps.db.middlewareStack.add(
    (next, context) => async (args) => {
      const input = args.input as { ExpressionAttributeValues?: Record<string, unknown> };
      if (context.commandName === 'QueryCommand' && input.ExpressionAttributeValues?.[':prefix'] === 'LEDGER#') queries.push(input);
      return next(args);
    },
    { step: 'initialize', name },
  );
  try {
    let cursor: string | null = null;
    do {
      queries = [];
      const res = await view(token, { user_id: uid, limit, ...(cursor ? { ledger_cursor: cursor } : {}) });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      cursor = res.body.data.ledger.next;
      answers.push({ lines: res.body.data.ledger.items, next: cursor, queries });
      expect(answers.length).toBeLessThan(100);
    } while (cursor);
  } finally {
    deps.db.middlewareStack.remove(name);
  }
  return answers;
}

describe('player_view: the ledger as lines', () => {
  it('pages held entries, pages of entries and ledger items: every line once, at most limit an answer, one bounded Query each', async () => {
    const shop = await projectWithLevel(deps);
    const other = await projectWithLevel(deps);
    const project = shop.project.project_name;
    for (const level of [2, 3]) await saveLevel(deps, shop.owner.claims, { project_name: project, level, amount: '1500000000', tickets: 100, status: 1 });
    const player = await playerWithTokens(deps);
    const uid = player.uid;
    const at = (projectName: string, level: number) => ({ userId: uid, projectName, level });
    for (const level of [1, 2, 3]) await giveTickets(deps, uid, project, level, 100);
    await giveTickets(deps, uid, other.project.project_name, 1, 100);
    const [one, two, three] = await Promise.all([
      deduct(shop.server, at(project, 1), 1, 20),
      deduct(shop.server, at(project, 2), 2, 5),
      deduct(shop.server, at(project, 3), 3, 17),
      deduct(other.server, at(other.project.project_name, 1), 1, 20),
    ]);
    const keyed: string[] = [];
    for (const key of ['k-1', 'k-2']) {
      const res = await call(pay, 'POST', MINUS, { token: shop.server, body: { ...at(project, 2), amount: 4 }, headers: { 'idempotency-key': key } });
      expect(res.status).toBe(201);
      // Its ledger entry is the key's record, keyed by the caller (core/tickets/operations.ts).
      keyed.push(`minus#merchant:${shop.owner.accountId}#${key}`);
    }

    // What the deductions stored: 20 make a page of 8 and hold 12, 17 a page of 8 and hold 9, 5 hold 5.
    const items = await queryItems(deps, { KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': `USER#${uid}` }, ConsistentRead: true });
    const mine = items.filter((item) => item.projectName === project);
    const held = (level: number) => ((mine.find((item) => item.sk === `TICKETS#${project}#${level}`)!.entries ?? []) as { ref: string }[]).map((e) => e.ref);
    expect([held(1), held(2), held(3)]).toEqual([one!.slice(8), two, three!.slice(8)]);
    const pageItems = mine.filter((item) => String(item.sk).startsWith('LEDGER#page#'));
    expect(pageItems.map((page) => [page.sk, page.level, (page.entries as unknown[]).length]).sort()).toEqual(
      [
        [`LEDGER#page#${one![0]}`, 1, 8],
        [`LEDGER#page#${three![0]}`, 3, 8],
      ].sort(),
    );
    const credits = mine.filter((item) => String(item.sk).startsWith('LEDGER#test#')).map((item) => [String(item.ref), Number(item.level)] as const);
    expect(credits).toHaveLength(3);

    const expected: Line[] = [
      ...credits.map(([ref, level]) => ({ ref, project_name: project, level, change: 100, operation: 'test' })),
      ...one!.map((ref) => ({ ref, project_name: project, level: 1, change: -1, operation: 'minus' })),
      ...two!.map((ref) => ({ ref, project_name: project, level: 2, change: -2, operation: 'minus' })),
      ...three!.map((ref) => ({ ref, project_name: project, level: 3, change: -3, operation: 'minus' })),
      ...keyed.map((ref) => ({ ref, project_name: project, level: 2, change: -4, operation: 'minus' })),
    ].sort((a, b) => (a.ref < b.ref ? -1 : 1));
    expect(expected).toHaveLength(47);
    const shape = ({ ref, project_name, level, change, operation }: Line) => ({ ref, project_name, level, change, operation });

    let byThree: Awaited<ReturnType<typeof pages>> = [];
    for (const limit of [3, 5, 50]) {
      const answers = await pages(shop.owner.token, uid, limit);
      if (limit === 3) byThree = answers;
      const lines = answers.flatMap((answer) => answer.lines.map(shape)).sort((a, b) => (a.ref < b.ref ? -1 : 1));
      expect({ limit, lines }).toEqual({ limit, lines: expected });
      for (const answer of answers) {
        expect(answer.lines.length).toBeLessThanOrEqual(limit);
        expect(answer.queries.length).toBeLessThanOrEqual(1);
        for (const query of answer.queries) expect(query.Limit).toBeLessThanOrEqual(limit + 1);
      }
      // The first page starts with the newest entries the first balance holds.
      expect(answers[0]!.lines.map((line) => line.ref)).toEqual(limit === 50 ? expect.arrayContaining(one!.slice(8)) : one!.slice(-limit).reverse());
      if (limit === 50) expect(answers).toHaveLength(1);
      if (limit === 3) {
        // Its cursors went on among the held entries, and inside a page.
        const keys = answers.flatMap((answer) => (answer.next ? [keyOf(answer.next)] : []));
        expect(keys.some((key) => key.sk!.startsWith('TICKETS#'))).toBe(true);
        const insidePage = keys.find((key) => key.sk === `LEDGER#page#${one![0]}` && key.line !== one![0]);
        expect(insidePage).toBeDefined();
        // The first three pages held 9 lines of level 1's 12 held; their Query, sent beside the balances' read, went unused.
        expect(answers.slice(0, 3).map((answer) => answer.queries.length)).toEqual([1, 1, 1]);
      }
    }

    // A cursor changed, or of another studio, or of the former shape (a sort key alone), is 400 and names the cursor.
    const inside = byThree.map((answer) => answer.next).find((next) => next !== null && keyOf(next).sk!.startsWith('LEDGER#page#'))!;
    const tampered = [
      reseal(inside, { ...keyOf(inside), line: one![1]! }),
      reseal(inside, { ...keyOf(inside), sk: `TICKETS#${project}#1` }),
      reseal(inside, { sk: keyOf(inside).sk! }),
      encodeCursor(deps, shop.owner.accountId, `player#ledger#${uid}`, { sk: keyOf(inside).sk! }),
    ];
    for (const cursor of tampered) {
      const res = await view(shop.owner.token, { user_id: uid, limit: 3, ledger_cursor: cursor });
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(/cursor/);
    }
    expect((await view(other.owner.token, { user_id: uid, limit: 3, ledger_cursor: inside })).status).toBe(400);
    // The other studio sees its own: 20 deductions and the credit.
    const theirs = await pages(other.owner.token, uid, 50);
    expect(theirs.flatMap((answer) => answer.lines).map((line) => line.project_name)).toEqual(Array(21).fill(other.project.project_name));
  }, 90_000);

  it('a held entry moved into a page while a reader pages is listed again from its page, and none is lost', async () => {
    const shop = await projectWithLevel(deps);
    const project = shop.project.project_name;
    const player = await playerWithTokens(deps);
    const at = { userId: player.uid, projectName: project, level: 1 };
    await giveTickets(deps, player.uid, project, 1, 100);
    const before = await deduct(shop.server, at, 1, 10);
    const first = await view(shop.owner.token, { user_id: player.uid, limit: 3 });
    expect(first.body.data.ledger.items.map((line: Line) => line.ref)).toEqual(before.slice(-3).reverse());
    // Six more: the balance holds 16, and the oldest 8 (the first page's last line among them) move into a page.
    const after = await deduct(shop.server, at, 1, 6);
    let cursor: string | null = first.body.data.ledger.next;
    const seen: string[] = first.body.data.ledger.items.map((line: Line) => line.ref);
    while (cursor) {
      const res = await view(shop.owner.token, { user_id: player.uid, limit: 3, ledger_cursor: cursor });
      seen.push(...res.body.data.ledger.items.map((line: Line) => line.ref));
      cursor = res.body.data.ledger.next;
    }
    // The first page's last line was held at index 7, now in the page: listed twice. Lines written since are not listed.
    expect(seen.filter((ref) => ref === before[7])).toHaveLength(2);
    expect(new Set(seen).size).toBe(seen.length - 1);
    expect(before.every((ref) => seen.includes(ref))).toBe(true);
    expect(after.some((ref) => seen.includes(ref))).toBe(false);
    expect(seen.filter((ref) => ref.startsWith('test#'))).toHaveLength(1);
  });
});
