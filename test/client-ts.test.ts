import { ApiError, createMainClient, RenewingToken, settle, unwrap } from '@game-platform/client';
import { beforeAll, describe, expect, it } from 'vitest';
import { balanceOf } from '../core/tickets/balances.js';
import { createAllApps } from '../functions/apps.js';
import { createTestDeps, type TestDeps } from './support/deps.js';
import { deductionOf } from './support/payments.js';
import { contractCheckedFetch, type Found } from './support/contract-answers.js';
import { faults, injectFaults, type FaultInjector } from './support/table-faults.js';

/**
 * The TypeScript client's own rules (clients/ts), each against the service through Hono with the suite's table
 * faults: a money call gets an Idempotency-Key of its own, reused by its retries; only a 503 with Retry-After and
 * a retryable 409 are sent again; an error is a value with its status and code; an expired token is renewed.
 * clients/ts is tested end to end against `npm start` in test/client-day.test.ts.
 */
let deps: TestDeps;
let app: ReturnType<typeof createAllApps>;
let injector: FaultInjector;
/** Every request the client sent, as the service received it. */
let sent: Request[];

beforeAll(async () => {
  deps = await createTestDeps();
  app = createAllApps(deps);
  injector = injectFaults(deps.db);
});

/** A client of the suite's service as a game server holding `token` (its retries wait the 503's Retry-After: 1 s). */
function clientFor(token: string | RenewingToken, retry?: { maxDelayMs: number }) {
  sent = [];
  return createMainClient({
    baseUrl: 'http://localhost/v2-testing',
    token,
    ...(retry ? { retry } : {}),
    fetch: async (request) => {
      sent.push(request.clone());
      return app.request(request);
    },
  });
}

const ticketsOf = (uid: string, projectName: string) => balanceOf(deps, { uid, projectName, level: 1 });

describe('money calls', () => {
  it('each call has its own Idempotency-Key; a call the table refused is sent again with it and takes once', async () => {
    const { shop, buyer, body } = await deductionOf(deps, 2);
    const api = clientFor(shop.server);
    injector.arm(faults.throttled!, 0, 1);
    const first = await unwrap(api.POST('/account/game/minus_tickets', { body }));
    injector.disarm();
    expect(sent.map((r) => r.headers.get('idempotency-key'))).toEqual([expect.any(String), sent[0]!.headers.get('idempotency-key')]);
    expect(sent).toHaveLength(2);
    const key = sent[0]!.headers.get('idempotency-key')!;
    expect(first).toBe(`minus#${key}`);
    await unwrap(api.POST('/account/game/minus_tickets', { body }));
    expect(sent[2]!.headers.get('idempotency-key')).not.toBe(key);
    expect(await ticketsOf(buyer.uid, body.projectName)).toBe(10 - 2 - 2);
  });

  it('a write whose answer was lost (503) is retried into the first answer: the tickets are taken once', async () => {
    const { shop, buyer, body } = await deductionOf(deps, 3);
    const api = clientFor(shop.server);
    injector.loseNextWriteAnswer();
    const answer = await unwrap(api.POST('/account/game/minus_tickets', { body }));
    expect(sent.map((r) => r.headers.get('idempotency-key'))).toEqual([answer.slice('minus#'.length), answer.slice('minus#'.length)]);
    expect(await ticketsOf(buyer.uid, body.projectName)).toBe(7);
  });

  it('a key the caller kept is sent as given, so a retry after a crash answers the first answer', async () => {
    const { shop, buyer, body } = await deductionOf(deps, 4);
    const api = clientFor(shop.server);
    const headers = { 'Idempotency-Key': 'match-42' };
    const first = await unwrap(api.POST('/account/game/minus_tickets', { body, params: { header: headers } }));
    const again = await unwrap(api.POST('/account/game/minus_tickets', { body, params: { header: headers } }));
    expect(again).toEqual(first);
    expect(first).toBe('minus#match-42');
    expect(await ticketsOf(buyer.uid, body.projectName)).toBe(6);
  });

  it('a transaction conflict that persists (409 data.changed_concurrently) is sent again until it passes', async () => {
    const { shop, buyer, body } = await deductionOf(deps, 1);
    const api = clientFor(shop.server);
    // How many commands a deduction sends once the merchant's records are cached (the first call reads them):
    // its transaction is the last (the day's count is made from the table's stream, off the request's path).
    await unwrap(api.POST('/account/game/minus_tickets', { body }));
    injector.arm(faults['transaction conflict']!, Number.MAX_SAFE_INTEGER);
    await unwrap(api.POST('/account/game/minus_tickets', { body }));
    const commands = injector.sent;
    sent = [];
    // The service sends a conflicting transaction again itself, 5 times in all, then answers the 409.
    injector.arm(faults['transaction conflict']!, commands - 1, 5);
    const result = await settle(api.POST('/account/game/minus_tickets', { body }));
    injector.disarm();
    expect(result.ok).toBe(true);
    expect(sent).toHaveLength(2);
    expect(new Set(sent.map((r) => r.headers.get('idempotency-key'))).size).toBe(1);
    expect(await ticketsOf(buyer.uid, body.projectName)).toBe(7);
  });

  it('a 4xx that means no is answered at once, as a typed error value, and nothing is taken', async () => {
    const { shop, buyer, body } = await deductionOf(deps, 11);
    const api = clientFor(shop.server);
    const result = await settle(api.POST('/account/game/minus_tickets', { body }));
    expect(sent).toHaveLength(1);
    if (result.ok) throw new Error('a deduction past the balance passed');
    // The code is typed as the operation's union: a code it cannot answer would not compile here.
    const code: 'tickets.balance_short' | 'data.changed_concurrently' | 'idempotency.still_running' | (typeof result.error)['code'] = result.error.code;
    expect({ status: result.error.status, code }).toEqual({ status: 409, code: 'tickets.balance_short' });
    expect(result.error.body).toMatchObject({ statusCode: 409, error: 'tickets.balance_short' });
    expect(await ticketsOf(buyer.uid, body.projectName)).toBe(10);
    await expect(unwrap(api.POST('/account/game/minus_tickets', { body }))).rejects.toBeInstanceOf(ApiError);
  });

  it('a 503 is retried only as often as the policy says, and its Retry-After is on the error', async () => {
    const { shop, body } = await deductionOf(deps, 1);
    const api = clientFor(shop.server);
    injector.arm(faults.throttled!, 0);
    const result = await settle(api.POST('/account/game/minus_tickets', { body }));
    injector.disarm();
    expect(sent).toHaveLength(4);
    expect(result.ok ? undefined : { status: result.error.status, code: result.error.code, retryAfter: result.error.retryAfter }).toEqual({
      status: 503,
      code: 'table.busy',
      retryAfter: 1,
    });
  });
});

describe('tokens', () => {
  it('a token the service calls expired is renewed once and the call sent again', async () => {
    const { shop, buyer, body } = await deductionOf(deps, 1);
    // A server token issued 31 days ago: expired (30 days) by the service's clock.
    deps.setNow(new Date(Date.now() - 31 * 86_400_000));
    const expired = (await deps.tokens.issue('server', shop.owner.accountId, { merchant_id: shop.owner.merchant.id })).token;
    deps.setNow(undefined);
    let renewals = 0;
    // The client believes the first token good for an hour; the service has another clock.
    const token = new RenewingToken(
      async () => {
        renewals++;
        return { accessToken: shop.server, expiresAt: new Date(Date.now() + 3_600_000).toISOString() };
      },
      { accessToken: expired, expiresAt: new Date(Date.now() + 3_600_000).toISOString() },
    );
    const api = clientFor(token);
    await unwrap(api.POST('/account/game/minus_tickets', { body }));
    expect(renewals).toBe(1);
    expect(sent).toHaveLength(2);
    expect(await ticketsOf(buyer.uid, body.projectName)).toBe(9);
  });

  it('a token is renewed a minute before it expires, once for every caller waiting', async () => {
    let now = Date.parse('2026-01-01T00:00:00Z');
    let renewals = 0;
    const token = new RenewingToken(
      async () => ({ accessToken: `t${++renewals}`, expiresAt: new Date(now + 3_600_000).toISOString() }),
      { accessToken: 't0', expiresAt: new Date(now + 120_000).toISOString() },
      () => now,
    );
    expect(await token.get()).toBe('t0');
    now += 61_000;
    expect(await Promise.all([token.get(), token.get(), token.get()])).toEqual(['t1', 't1', 't1']);
    expect(renewals).toBe(1);
    token.clear();
    expect(await token.get()).toBe('t2');
  });
});

describe('waiting', () => {
  it('a Retry-After longer than the client waits is not waited for: the 503 goes to the caller at once', async () => {
    const { shop, body } = await deductionOf(deps, 1);
    const api = clientFor(shop.server, { maxDelayMs: 500 });
    injector.arm(faults.throttled!, 0);
    const result = await settle(api.POST('/account/game/minus_tickets', { body }));
    injector.disarm();
    expect(sent).toHaveLength(1);
    expect(result.ok ? undefined : result.error.retryAfter).toBe(1);
  });
});

describe('answers of a server in another process', () => {
  it('are checked against the document as the in-process answers are (test/client-day.test.ts checks npm start this way)', async () => {
    const found: Found = { checked: new Set(), violations: new Set() };
    const json = (body: unknown, status = 200) =>
      new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', 'x-content-type-options': 'nosniff' } });
    const answers: Record<string, Response> = {
      '/v2-testing/account/game/tickets': json({ data: { balance: 'many' }, statusCode: 200, message: 'success', totalPage: 1 }),
      '/hero-testing/heroes/nft/0xabc': json({ message: 'no such object', statusCode: 404, error: 'hero.object_not_found' }, 404),
      '/v2-testing/merchant/games/rank': json({ code: 200, message: 'success', data: {} }, 418),
    };
    const checked = contractCheckedFetch(async (request) => answers[new URL(request.url).pathname]!, found);
    for (const path of Object.keys(answers)) await checked(new Request(`http://localhost${path}`));
    expect([...found.checked].sort()).toEqual(['game/tickets 200', 'gameRank 418', 'nft_detail 404']);
    // The hero answer is as documented; the other two are not.
    expect([...found.violations].sort()).toEqual([
      expect.stringMatching(/^game\/tickets 200: the body departs from its schema at \/data /),
      'gameRank 418: the status is not documented',
    ]);
  });
});
