import { Ed25519Keypair } from '@mysten/sui/keypairs/ed25519';
import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createAllApps } from '../functions/apps.js';
import { STATE_TTL_MS } from '../core/access/principals.js';
import { setMerchantStatus, STATUS_CHUNK } from '../core/merchants/merchants.js';
import { merchantKey } from '../core/merchants/keys.js';
import { MerchantStatus } from '../core/merchants/models.js';
import { createGame } from '../core/games/games.js';
import { GameCreate } from '../core/games/models.js';
import type { Deps } from '../core/deps.js';
import { call } from './support/http.js';
import { createTestDeps, type TestDeps } from './support/deps.js';
import { accountWithToken, merchantWithToken } from './support/merchants.js';
import { gamePayload, newCode } from './support/games.js';
import { documentErrors, servedDocument } from './support/openapi-check.js';
import { randomDigest } from './support/payments.js';
import { scanAll } from './support/table-snapshot.js';

/**
 * merchantStatus POST for a merchant with more games than one transaction holds (docs/data-model.md, "change a
 * merchant's status"): the merchant and its first 99 games change in one transaction, the rest 99 at a time
 * while the merchant still has the new status.
 */

let deps: TestDeps;
let app: ReturnType<typeof createAllApps>;
let admin: Awaited<ReturnType<typeof accountWithToken>>;
const base = '/v2-testing';
const GAMES = 120;
/** Each test makes 120 games and reads each of them a few times; the machine is shared. */
const SLOW = 180_000;

beforeAll(async () => {
  deps = await createTestDeps();
  app = createAllApps(deps);
  admin = await accountWithToken(deps, 'admin');
});

/**
 * An active merchant with `count` games, and their records: saved through savemerchantgame (`http`), or through
 * the same domain function where the test is about what comes after.
 */
async function merchantWithGames(count: number, via: 'http' | 'core' = 'core') {
  const owner = await merchantWithToken(deps);
  const games: Record<string, unknown>[] = [];
  for (let i = 0; i < count; i++) {
    const payload = gamePayload(newCode('many'));
    if (via === 'core') {
      games.push(await createGame(deps, owner.claims, GameCreate.parse(payload)));
      continue;
    }
    const saved = await call(app, 'POST', `${base}/merchant/games/save`, { token: owner.token, body: payload });
    expect(saved.status).toBe(200);
    games.push(saved.body.data);
  }
  return { ...owner, games, codes: games.map((game) => game.code as string) };
}

const setStatus = (merchantId: number, status: number) =>
  call(app, 'POST', `${base}/merchant/status`, { token: admin.token, body: { merchant_id: merchantId, status } });

/** The codes among `codes` that query_new_merchant lists, and those game_detail answers 200 for. */
async function publicOf(codes: string[]) {
  const page = await call(app, 'GET', `${base}/merchant/merchant/page`);
  expect(page.status).toBe(200);
  const listed = codes.filter((code) => page.body.data[code] !== undefined);
  const details = await Promise.all(codes.map((code) => call(app, 'GET', `${base}/merchant/games/detail`, { query: { code } })));
  expect(details.every((detail) => detail.status === 200 || detail.status === 404)).toBe(true);
  const detailed = codes.filter((_, i) => details[i]!.status === 200);
  return { listed, detailed, page: page.body.data as Record<string, unknown> };
}

/** Deps whose client hands the n-th TransactWriteItems (1-based) to `intercept` instead of sending it at once. */
function interceptTransaction(n: number, intercept: (send: () => Promise<unknown>) => Promise<unknown>): Deps {
  let seen = 0;
  const db = {
    send: (command: unknown, ...rest: unknown[]) => {
      const send = () => (deps.db.send as (...args: unknown[]) => Promise<unknown>)(command, ...rest);
      if (command instanceof TransactWriteCommand && ++seen === n) return intercept(send);
      return send();
    },
  };
  return { ...deps, db: db as unknown as Deps['db'] };
}

describe('merchantStatus POST for a merchant with more than 99 games', () => {
  it(
    'suspends a merchant with 120 games (none public) and reactivates it (all public), repeatably',
    async () => {
      const owner = await merchantWithGames(GAMES, 'http');
      const before = await publicOf(owner.codes);
      expect(before.listed).toHaveLength(GAMES);

      const suspended = await setStatus(owner.merchant.id, MerchantStatus.suspended);
      expect(suspended.status).toBe(200);
      expect(suspended.body).toEqual({ code: 200, message: 'success', data: { merchant_id: owner.merchant.id, status: 2 } });
      const hidden = await publicOf(owner.codes);
      expect(hidden.listed).toEqual([]);
      expect(hidden.detailed).toEqual([]);

      const active = await setStatus(owner.merchant.id, MerchantStatus.active);
      expect(active.status).toBe(200);
      expect(active.body.data).toEqual({ merchant_id: owner.merchant.id, status: 1 });
      const shown = await publicOf(owner.codes);
      expect(shown.listed).toHaveLength(GAMES);
      expect(shown.detailed).toHaveLength(GAMES);
      for (const game of owner.games) expect(shown.page[game.code as string]).toEqual(game);

      // The same status again is answered the same and changes nothing.
      const again = await setStatus(owner.merchant.id, MerchantStatus.active);
      expect(again.status).toBe(200);
      expect(again.body.data).toEqual({ merchant_id: owner.merchant.id, status: 1 });
      expect((await publicOf(owner.codes)).detailed).toHaveLength(GAMES);
      const status = await call(app, 'GET', `${base}/merchant/status`, { token: admin.token, query: { merchant_id: owner.merchant.id } });
      expect(status.body.data.status).toBe(1);
    },
    SLOW,
  );

  it(
    'completes a change interrupted after its first transaction when the same request is repeated',
    async () => {
      const owner = await merchantWithGames(GAMES);
      // The request dies (a timeout, a lost connection) when it sends its second transaction.
      const dying = interceptTransaction(2, async () => {
        throw new Error('function timed out');
      });
      await expect(setMerchantStatus(dying, owner.merchant.id, MerchantStatus.suspended)).rejects.toThrow('function timed out');

      const status = await call(app, 'GET', `${base}/merchant/status`, { token: admin.token, query: { merchant_id: owner.merchant.id } });
      expect(status.body.data.status).toBe(2);
      const half = await publicOf(owner.codes);
      expect(half.detailed).toHaveLength(GAMES - STATUS_CHUNK);
      expect(half.listed.sort()).toEqual(half.detailed.sort());

      const repeated = await setStatus(owner.merchant.id, MerchantStatus.suspended);
      expect(repeated.status).toBe(200);
      expect(repeated.body.data).toEqual({ merchant_id: owner.merchant.id, status: 2 });
      const done = await publicOf(owner.codes);
      expect(done.listed).toEqual([]);
      expect(done.detailed).toEqual([]);
    },
    SLOW,
  );

  it(
    'stops a change overtaken by a later one, leaving the games to the later change',
    async () => {
      const owner = await merchantWithGames(GAMES);
      // The suspension has set the status and moved its first games; it is held before moving the others.
      let reached!: () => void;
      const atSecond = new Promise<void>((resolve) => (reached = resolve));
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      const slow = interceptTransaction(2, async (send) => {
        reached();
        await released;
        return send();
      });
      const suspension = setMerchantStatus(slow, owner.merchant.id, MerchantStatus.suspended);
      await atSecond;
      expect((await publicOf(owner.codes)).detailed).toHaveLength(GAMES - STATUS_CHUNK);

      // An admin reactivates the merchant meanwhile; then the suspension goes on.
      const reactivated = await setStatus(owner.merchant.id, MerchantStatus.active);
      expect(reactivated.status).toBe(200);
      release();
      await expect(suspension).resolves.toEqual({ merchant_id: owner.merchant.id, status: MerchantStatus.suspended });

      const status = await call(app, 'GET', `${base}/merchant/status`, { token: admin.token, query: { merchant_id: owner.merchant.id } });
      expect(status.body.data.status).toBe(1);
      const shown = await publicOf(owner.codes);
      expect(shown.listed).toHaveLength(GAMES);
      expect(shown.detailed).toHaveLength(GAMES);
    },
    SLOW,
  );

  it(
    'ends consistent when status changes and game creations race on a merchant with 120 games',
    async () => {
      const owner = await merchantWithGames(GAMES);
      const extra = Array.from({ length: 6 }, () => newCode('race'));
      const results = await Promise.all([
        setStatus(owner.merchant.id, MerchantStatus.suspended),
        ...extra.slice(0, 3).map((code) => call(app, 'POST', `${base}/merchant/games/save`, { token: owner.token, body: gamePayload(code) })),
        setStatus(owner.merchant.id, MerchantStatus.active),
        ...extra.slice(3).map((code) => call(app, 'POST', `${base}/merchant/games/save`, { token: owner.token, body: gamePayload(code) })),
        setStatus(owner.merchant.id, MerchantStatus.pending),
      ]);
      // A save answers 403 once the merchant is suspended; a change or save that kept colliding answers 409.
      expect(results.filter((r) => ![200, 403, 409].includes(r.status)).map((r) => [r.status, r.body])).toEqual([]);

      const final = await call(app, 'GET', `${base}/merchant/status`, { token: admin.token, query: { merchant_id: owner.merchant.id } });
      const saved = extra.filter((_, i) => results[i < 3 ? i + 1 : i + 2]!.status === 200);
      const codes = [...owner.codes, ...saved];
      const visible = await publicOf(codes);
      const expected = final.body.data.status === MerchantStatus.active ? codes.length : 0;
      expect(visible.detailed).toHaveLength(expected);
      expect(visible.listed).toHaveLength(expected);
    },
    SLOW,
  );
});

/**
 * Admin operations are the platform's, not the merchant's (docs/security.md "The authorization layer"): an admin
 * account that owns a merchant is not locked out of them when that merchant is suspended, while the merchant's
 * own calls (console writes, server tokens, value moving) are refused as any suspended merchant's.
 */
describe('an admin account whose own merchant is suspended', () => {
  const document = servedDocument(base);
  /** A real response, and its body checked against what the served OpenAPI document gives its path and status. */
  const documented = async (method: 'GET' | 'POST', path: string, options: Parameters<typeof call>[3]) => {
    const res = await call(app, method, `${base}${path}`, options);
    expect(documentErrors(document, path, method.toLowerCase(), res.status, res.body)).toEqual([]);
    return res;
  };
  const merchantItem = async (accountId: string) =>
    (await deps.db.send(new GetCommand({ TableName: deps.table, Key: merchantKey(accountId), ConsistentRead: true }))).Item;

  afterEach(() => deps.setNow(undefined));

  it('suspends and reactivates its own merchant and keeps every admin operation; its merchant moves no value meanwhile', async () => {
    // An admin account with its own merchant, activated by itself, with a game, a project and a server token.
    const own = await accountWithToken(deps, 'admin');
    const created = await documented('POST', '/merchant/create', { token: own.token, body: { merchant_name: `Admin studio ${own.email}` } });
    expect(created.status).toBe(200);
    const merchantId = created.body.data.id as number;
    const adminCall = (path: string, body: unknown) => documented('POST', path, { token: own.token, body });
    expect((await adminCall('/merchant/status', { merchant_id: merchantId, status: MerchantStatus.active })).status).toBe(200);
    const game = gamePayload(newCode('adm'));
    expect((await adminCall('/merchant/games/save', game)).status).toBe(200);
    const projectName = `adm-${Date.now().toString(36)}`;
    const project = { project_name: projectName, receive_address: Ed25519Keypair.generate().toSuiAddress(), coin_type: '0x2::sui::SUI', precison: 9 };
    expect((await adminCall('/merchant/projects', project)).status).toBe(200);
    const issued = await documented('GET', '/merchant/token', { token: own.token });
    expect(issued.status).toBe(200);
    const server = issued.body.data.accessToken as string;
    const win = (player: string) => ({ game_code: game.code, game_player_id: player, game_player_name: player, kills: 1, wins: 1 });
    // What the policy refuses a suspended merchant: value-moving calls at once (their state is read fresh), the
    // console's other calls once the state this process remembers is older than STATE_TTL_MS.
    const valueMoving = () => [
      documented('POST', '/merchant/games/addWin', { token: server, body: win('p-suspended') }),
      documented('POST', '/merchant/payments/stranded/credit', {
        token: own.token,
        body: { project_name: projectName, tx_digest: randomDigest(), event_seq: '0' },
      }),
    ];
    const consoleWrites = () => [
      documented('POST', '/merchant/games/save', { token: own.token, body: gamePayload(newCode('adm')) }),
      documented('GET', '/merchant/token', { token: own.token }),
    ];
    const refusedWithoutWrites = async (calls: Promise<Awaited<ReturnType<typeof documented>>>[]) => {
      const before = await scanAll(deps);
      for (const refused of await Promise.all(calls)) {
        expect(refused.status, JSON.stringify(refused.body)).toBe(403);
        expect(refused.body.message).toBe('merchant is suspended');
      }
      expect(await scanAll(deps)).toEqual(before);
    };

    // The admin suspends its own merchant: 200, and the table says suspended.
    const suspended = await adminCall('/merchant/status', { merchant_id: merchantId, status: MerchantStatus.suspended });
    expect(suspended.status).toBe(200);
    expect(suspended.body.data).toEqual({ merchant_id: merchantId, status: MerchantStatus.suspended });
    expect((await merchantItem(own.accountId))?.status).toBe(MerchantStatus.suspended);

    // Its merchant's own calls are refused and write nothing: value-moving ones (the server token's score
    // report, the console's stranded credit) at once, console writes and new server tokens within the bound.
    await refusedWithoutWrites(valueMoving());
    deps.setNow(new Date(deps.now().getTime() + STATE_TTL_MS + 1_000));
    await refusedWithoutWrites([...valueMoving(), ...consoleWrites()]);

    // Other admin operations still work: another merchant's status, another account's revocation, a status read.
    const other = await merchantWithToken(deps);
    const otherSuspended = await adminCall('/merchant/status', { merchant_id: other.merchant.id, status: MerchantStatus.suspended });
    expect(otherSuspended.status).toBe(200);
    expect((await merchantItem(other.accountId))?.status).toBe(MerchantStatus.suspended);
    expect((await adminCall('/merchant/status', { merchant_id: other.merchant.id, status: MerchantStatus.active })).status).toBe(200);
    const revoked = await adminCall('/merchant/admin/tokens/revoke', { account_id: other.accountId, tokens: 'server' });
    expect(revoked.status).toBe(200);
    expect(revoked.body.data).toMatchObject({ account_id: other.accountId, tokens: 'server' });
    const read = await documented('GET', '/merchant/status', { token: own.token, query: { merchant_id: merchantId } });
    expect(read.body.data.status).toBe(MerchantStatus.suspended);

    // The admin reactivates its own merchant: 200, the table says active, and its server token moves value again.
    const active = await adminCall('/merchant/status', { merchant_id: merchantId, status: MerchantStatus.active });
    expect(active.status).toBe(200);
    expect(active.body.data).toEqual({ merchant_id: merchantId, status: MerchantStatus.active });
    expect((await merchantItem(own.accountId))?.status).toBe(MerchantStatus.active);
    const reported = await documented('POST', '/merchant/games/addWin', { token: server, body: win('p-active') });
    expect(reported.status, JSON.stringify(reported.body)).toBe(200);
  });
});
