import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { beforeAll, describe, expect, it } from 'vitest';
import { backoffSeconds, createAccount, loginThrottle } from '../core/merchants/accounts.js';
import { requestSource, sourceKey, sourceOfEnv, withRequestSource } from '../core/platform/request-source.js';
import { lambdaHandler } from '../functions/deployed.js';
import { createWithoutkeyApp } from '../functions/withoutkey.js';
import { call } from './support/http.js';
import { createTestDeps, itemCount, type TestDeps } from './support/deps.js';
import { gatewayEvent } from './support/gateway-events.js';

/**
 * Login throttling without a lockout (docs/security.md "Login throttling"): failed sign-ins are throttled per (email,
 * source) with an exponential back-off, plus looser per-email and per-source limits that spare sources the account
 * signed in from; nobody can lock an account for everyone. Sources are the client's address as the adapter saw it.
 */
let deps: TestDeps;
let app: ReturnType<typeof createWithoutkeyApp>;
const path = '/v2-testing/merchant/login';
const PASSWORD = 'the right passphrase';

beforeAll(async () => {
  deps = await createTestDeps();
  app = createWithoutkeyApp(deps);
});

/** merchant_login from a source address, through the HTTP app as the adapters run it. */
const loginFrom = (source: string, email: string, password: string) => withRequestSource(source, () => call(app, 'POST', path, { body: { email, password } }));

let counter = 0;
async function account() {
  const email = `owner${++counter}-${randomUUID().slice(0, 8)}@example.com`;
  await createAccount(deps, { email, password: PASSWORD, role: 'merchant' });
  return email;
}
const address = () => `203.0.113.${1 + (++counter % 250)}`;

/** Runs `test` with the deps' clock at `start`, moved on by `advance(seconds)`. */
async function withClock(test: (advance: (seconds: number) => void) => Promise<void>) {
  let now = new Date('2026-06-01T10:00:00Z').getTime() + counter * 7 * 24 * 3600_000;
  deps.setNow(new Date(now));
  try {
    await test((seconds) => {
      now += seconds * 1000;
      deps.setNow(new Date(now));
    });
  } finally {
    deps.setNow(undefined);
  }
}

const retryAfter = (res: { headers: Headers }) => Number(res.headers.get('retry-after'));

describe('back-off per (account, source)', () => {
  it('lets a few typos through, then makes each further failure wait twice as long, up to the maximum', async () => {
    const email = await account();
    const source = address();
    await withClock(async (advance) => {
      for (let i = 0; i < loginThrottle.freeFailures; i++) expect((await loginFrom(source, email, `typo ${i}`)).status).toBe(401);
      const waits: number[] = [];
      for (let failure = loginThrottle.freeFailures + 1; failure <= loginThrottle.freeFailures + 12; failure++) {
        expect((await loginFrom(source, email, `guess ${failure}`)).status).toBe(401);
        // Right away, even the right password waits: the back-off is on trying, not on being wrong.
        const held = await loginFrom(source, email, PASSWORD);
        expect(held.status).toBe(429);
        expect(held.body).toEqual({
          code: 429,
          message: expect.stringMatching(/^too many failed sign-ins to this account from this address; try again in \d+ s$/),
          data: null,
          error: 'account.sign_in_throttled',
        });
        waits.push(retryAfter(held));
        advance(retryAfter(held));
      }
      expect(waits.slice(0, 6)).toEqual([2, 4, 8, 16, 32, 64]);
      for (let i = 1; i < waits.length; i++) expect(waits[i]).toBeGreaterThanOrEqual(waits[i - 1]!);
      expect(Math.max(...waits)).toBe(loginThrottle.maxDelaySeconds);
      expect(waits.at(-1)).toBe(loginThrottle.maxDelaySeconds);
    });
  });

  it('refuses with 429 without writing anything: only failures (401) are counted', async () => {
    const email = await account();
    const source = address();
    await withClock(async () => {
      for (let i = 0; i <= loginThrottle.freeFailures; i++) expect((await loginFrom(source, email, `bad ${i}`)).status).toBe(401);
      const before = await itemCount(deps);
      for (let i = 0; i < 3; i++) expect((await loginFrom(source, email, PASSWORD)).status).toBe(429);
      expect(await itemCount(deps)).toBe(before);
    });
  });

  it('a success resets its pair: the next failures are free again', async () => {
    const email = await account();
    const source = address();
    await withClock(async (advance) => {
      const failures = loginThrottle.freeFailures + 2;
      for (let i = 1; i <= failures; i++) {
        expect((await loginFrom(source, email, `bad ${i}`)).status).toBe(401);
        if (i < failures) advance(backoffSeconds(i));
      }
      const held = await loginFrom(source, email, PASSWORD);
      expect(held.status).toBe(429);
      advance(retryAfter(held));
      expect((await loginFrom(source, email, PASSWORD)).status).toBe(200);
      // Counting starts over: without the reset the next failure would be the pair's sixth and hold it for 8 s.
      for (let i = 0; i < loginThrottle.freeFailures; i++) expect((await loginFrom(source, email, `again ${i}`)).status).toBe(401);
      expect((await loginFrom(source, email, PASSWORD)).status).toBe(200);
      for (let i = 0; i <= loginThrottle.freeFailures; i++) expect((await loginFrom(source, email, `again ${i}`)).status).toBe(401);
      expect(retryAfter(await loginFrom(source, email, PASSWORD))).toBe(loginThrottle.baseDelaySeconds);
    });
  });

  it('counts concurrent guesses one by one: firing them in parallel buys no extra tries', async () => {
    const email = await account();
    const source = address();
    await withClock(async () => {
      const results = await Promise.all(Array.from({ length: 12 }, (_, i) => loginFrom(source, email, `parallel ${i}`)));
      const statuses = results.map((r) => r.status).sort();
      // The free failures and the one that sets the back-off are checked; every other guess is refused unchecked.
      expect(statuses.filter((s) => s === 401)).toHaveLength(loginThrottle.freeFailures + 1);
      expect(statuses.filter((s) => s === 429)).toHaveLength(12 - loginThrottle.freeFailures - 1);
    });
  });
});

describe('no lockout for everyone', () => {
  it('an attacker at one address, guessing as fast as allowed for hours, does not stop the owner at another', async () => {
    const email = await account();
    const attacker = address();
    await withClock(async (advance) => {
      let guesses = 0;
      let elapsed = 0;
      while (elapsed < 2 * 3600) {
        const res = await loginFrom(attacker, email, `guess ${guesses}`);
        if (res.status === 401) guesses++;
        else {
          expect(res.status).toBe(429);
          elapsed += retryAfter(res);
          advance(retryAfter(res));
        }
      }
      // A patient guesser gets a handful of tries an hour, far below the account-wide limit.
      expect(guesses).toBeLessThan(loginThrottle.accountMaxFailures / 2);
      // Every further guess holds the attacker's address for the longest wait.
      expect((await loginFrom(attacker, email, 'one more')).status).toBe(401);
      const held = await loginFrom(attacker, email, PASSWORD);
      expect(held.status).toBe(429);
      expect(retryAfter(held)).toBe(loginThrottle.maxDelaySeconds);
      // The owner, from an address the account has never seen, signs in at once.
      const owner = await loginFrom('198.51.100.20', email, PASSWORD);
      expect(owner.status).toBe(200);
      expect(owner.body.data.accessToken).toEqual(expect.any(String));
    });
  });

  it("past the per-account limit (many addresses), new addresses wait for the window, but the owner's known address signs in", async () => {
    const email = await account();
    const home = '198.51.100.30';
    await withClock(async (advance) => {
      expect((await loginFrom(home, email, PASSWORD)).status).toBe(200);
      advance(60);
      for (let i = 0; i < loginThrottle.accountMaxFailures; i++) expect((await loginFrom(`192.0.2.${i + 1}`, email, `botnet ${i}`)).status).toBe(401);
      const stranger = await loginFrom('192.0.2.200', email, PASSWORD);
      expect(stranger.status).toBe(429);
      expect(stranger.body.message).toMatch(/^too many failed sign-ins to this account; try again in \d+ s$/);
      expect(retryAfter(stranger)).toBeGreaterThan(0);
      expect(retryAfter(stranger)).toBeLessThanOrEqual(loginThrottle.windowSeconds);
      expect((await loginFrom(home, email, PASSWORD)).status).toBe(200);
      // The limit is a window, not a lock: it ends by itself.
      advance(retryAfter(stranger));
      expect((await loginFrom('192.0.2.200', email, PASSWORD)).status).toBe(200);
    });
  });

  it('treats an email without an account like one with an account, so the throttle reveals nothing', async () => {
    const email = await account();
    const nobody = `nobody-${randomUUID().slice(0, 8)}@example.com`;
    const source = address();
    await withClock(async () => {
      const answers = async (target: string) => {
        const statuses: number[] = [];
        for (let i = 0; i < loginThrottle.freeFailures + 2; i++) {
          const res = await loginFrom(source, target, `bad ${i}`);
          statuses.push(res.status);
        }
        return statuses;
      };
      expect(await answers(nobody)).toEqual(await answers(email));
    });
  });

  it('an address failing across many accounts is refused for accounts it does not know, and no other address is', async () => {
    const sprayer = address();
    const known = await account();
    await withClock(async (advance) => {
      expect((await loginFrom(sprayer, known, PASSWORD)).status).toBe(200);
      advance(60);
      for (let i = 0; i < loginThrottle.sourceMaxFailures; i++)
        expect((await loginFrom(sprayer, `victim${i}-${randomUUID().slice(0, 6)}@example.com`, 'password1')).status).toBe(401);
      const target = await account();
      const refused = await loginFrom(sprayer, target, PASSWORD);
      expect(refused.status).toBe(429);
      expect(refused.body.message).toMatch(/^too many failed sign-ins from this address/);
      expect((await loginFrom('198.51.100.40', target, PASSWORD)).status).toBe(200);
      expect((await loginFrom(sprayer, known, PASSWORD)).status).toBe(200);
    });
  }, 60_000);
});

describe('the source is the client address the adapter saw', () => {
  it("in Lambda: the API Gateway v2 event's requestContext.http.sourceIp, whatever X-Forwarded-For says", async () => {
    const email = await account();
    const handler = lambdaHandler(createWithoutkeyApp, async () => deps);
    const invoke = (sourceIp: string, password: string) =>
      handler(
        gatewayEvent('POST', path, {
          headers: { host: 'api.example.com', 'content-type': 'application/json', 'x-forwarded-for': '198.51.100.99' },
          body: JSON.stringify({ email, password }),
          sourceIp,
        }) as never,
        { functionName: 'test', awsRequestId: randomUUID(), getRemainingTimeInMillis: () => 30_000 } as never,
      ) as Promise<{ statusCode: number; headers: Record<string, string> }>;
    await withClock(async () => {
      for (let i = 0; i <= loginThrottle.freeFailures; i++) expect((await invoke('203.0.113.77', `bad ${i}`)).statusCode).toBe(401);
      const held = await invoke('203.0.113.77', PASSWORD);
      expect(held.statusCode).toBe(429);
      expect(held.headers['retry-after']).toBe(String(loginThrottle.baseDelaySeconds));
      // Same X-Forwarded-For, another source address: not held.
      expect((await invoke('198.51.100.50', PASSWORD)).statusCode).toBe(200);
    });
  });

  it("locally: the socket's remote address (@hono/node-server)", async () => {
    const server = serve({
      fetch: (_request: Request, env: unknown) => withRequestSource(sourceOfEnv(env), () => new Response(requestSource() ?? 'none')),
      port: 0,
      hostname: '127.0.0.1',
    });
    try {
      await new Promise<void>((ready) => (server.listening ? ready() : server.once('listening', () => ready())));
      const { port } = server.address() as AddressInfo;
      const seen = await (await fetch(`http://127.0.0.1:${port}/`, { headers: { 'x-forwarded-for': '198.51.100.99' } })).text();
      expect(sourceKey(seen)).toBe('127.0.0.1');
    } finally {
      await new Promise<void>((done) => server.close(() => done()));
    }
  });

  it('keys IPv6 addresses by their /64 and IPv4-mapped ones as IPv4; no address is one shared "unknown" source', () => {
    expect(sourceKey('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(sourceKey('2001:db8:1:2:ffff:ffff:ffff:fffe')).toBe('2001:db8:1:2::/64');
    expect(sourceKey('2001:db8:1:3::1')).toBe('2001:db8:1:3::/64');
    expect(sourceKey('::ffff:192.0.2.7')).toBe('192.0.2.7');
    expect(sourceKey('192.0.2.7')).toBe('192.0.2.7');
    expect(sourceKey(undefined)).toBe('unknown');
    expect(sourceKey('not an address')).toBe('unknown');
  });
});
