import { randomUUID } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { Ed25519Keypair } from '@mysten/sui/keypairs/ed25519';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forgetPlayer } from '../core/access/players.js';
import { STATE_TTL_MS } from '../core/access/principals.js';
import { findAccount } from '../core/identity/accounts.js';
import { userKey } from '../core/identity/keys.js';
import { forgetZkSubject } from '../core/identity/zklogin.js';
import { goneKey } from '../core/platform/players.js';
import { createAllApps } from '../functions/apps.js';
import { markDeleted } from './support/deleted-players.js';
import { createTestDeps, type TestDeps } from './support/deps.js';
import { HERO_BASE } from './support/heroes.js';
import { call, type CallResult } from './support/http.js';
import { startOAuthIssuer, type TestIssuer } from './support/oauth-issuer.js';
import { documentErrors, servedDocument } from './support/openapi-check.js';
import { giveTickets, playerWithTokens, projectWithLevel } from './support/payments.js';
import { scanAll } from './support/table-snapshot.js';

/**
 * After a player's deletion (its mark written and its account items removed, as the deletion will): every token
 * of the player is refused, a server's request naming the player is refused before anything is written, and
 * signing in again makes a new account (a wallet with a new uuid; zkLogin with the same address, its salt kept
 * under a key that no longer names the subject).
 */
let deps: TestDeps;
let app: ReturnType<typeof createAllApps>;
let issuer: TestIssuer;
let shop: Awaited<ReturnType<typeof projectWithLevel>>;
const base = '/v2-testing';
const documents = { main: servedDocument(base), hero: servedDocument(HERO_BASE, 'hero') };

beforeAll(async () => {
  issuer = await startOAuthIssuer();
  deps = await createTestDeps({ oauthProviders: [issuer.provider('google', ['client-a'])] });
  app = createAllApps(deps);
  shop = await projectWithLevel(deps);
});
afterAll(() => issuer.stop());

/** One request of the suite: where it goes (its documented path and base) and how. */
interface Request {
  method: 'GET' | 'POST';
  path: string;
  hero?: boolean;
  token: string;
  body?: unknown;
  query?: Record<string, string | number>;
}

async function send(request: Request): Promise<CallResult> {
  const res = await call(app, request.method, `${request.hero ? HERO_BASE : base}${request.path}`, request);
  const document = request.hero ? documents.hero : documents.main;
  expect(documentErrors(document, request.path, request.method.toLowerCase(), res.status, res.body), `${request.method} ${request.path}`).toEqual([]);
  return res;
}

/** A player with an account and a platform, game (of the shop's game) and hero token, and 10 tickets. */
async function player() {
  const made = await playerWithTokens(deps, shop.gameCode);
  const hero = (await deps.tokens.issue('hero', made.uid)).token;
  await giveTickets(deps, made.uid, shop.project.project_name, 1, 10);
  return { ...made, hero };
}

const writes = (p: Awaited<ReturnType<typeof player>>): Request[] => [
  { method: 'POST', path: '/account/params', token: p.platform, body: { ref: 'friend-1' } },
  { method: 'POST', path: '/account/game/minus_tickets', token: p.game, body: { userId: p.uid, projectName: shop.project.project_name, level: 1, amount: 1 } },
  { method: 'POST', path: '/heroes/upgrade-level', hero: true, token: p.hero, body: { userId: p.uid, itemIds: [randomUUID()] } },
];

const reads = (p: Awaited<ReturnType<typeof player>>): Request[] => [
  { method: 'GET', path: '/account/social/bind', token: p.platform },
  {
    method: 'GET',
    path: '/merchant/games/rank/around',
    token: p.game,
    query: { game_code: shop.gameCode, board: 'wins', season_type: 1, game_player_id: p.uid },
  },
  { method: 'GET', path: '/heroes', hero: true, token: p.hero },
];

const expectAccountDeleted = (res: CallResult) => {
  expect(res.status).toBe(401);
  expect(res.body).toMatchObject({ message: 'this player deleted their account', error: 'auth.account_deleted' });
};

describe("a deleted player's platform, game and hero tokens", () => {
  it('are refused at once on writes (401 auth.account_deleted), writing nothing', async () => {
    const p = await player();
    // Before the deletion each call passes the layer (the hero game is not configured here: its handler's answer).
    for (const request of writes(p)) expect((await send(request)).status, request.path).not.toBe(401);
    await markDeleted(deps, p.uid, p.address);
    const before = await scanAll(deps);
    for (const request of writes(p)) expectAccountDeleted(await send(request));
    expect(await scanAll(deps)).toEqual(before);
  });

  it('are refused on reads once the process forgets what it read (forgetPlayer, as the deletion calls it)', async () => {
    const p = await player();
    for (const request of reads(p)) expect((await send(request)).status, request.path).toBe(200);
    await markDeleted(deps, p.uid, p.address);
    // Within STATE_TTL_MS a read may use what the process read of the player: the bound docs/security.md states.
    for (const request of reads(p)) expect((await send(request)).status, request.path).toBe(200);
    forgetPlayer(p.uid);
    for (const request of reads(p)) expectAccountDeleted(await send(request));
  });

  it('are refused on reads by a process that did not delete, once its memory of the player expires', async () => {
    const p = await player();
    const start = Date.now();
    try {
      deps.setNow(new Date(start));
      const [read] = reads(p);
      expect((await send(read!)).status).toBe(200);
      await markDeleted(deps, p.uid, p.address);
      deps.setNow(new Date(start + STATE_TTL_MS - 1));
      expect((await send(read!)).status).toBe(200);
      deps.setNow(new Date(start + STATE_TTL_MS));
      expectAccountDeleted(await send(read!));
    } finally {
      deps.setNow(undefined);
    }
  });
});

describe('a server token naming a deleted player', () => {
  it('is refused 404 player.deleted before the handler runs, writing nothing', async () => {
    const p = await player();
    const named: Request[] = [
      {
        method: 'POST',
        path: '/account/game/minus_tickets',
        token: shop.server,
        body: { userId: p.uid, projectName: shop.project.project_name, level: 1, amount: 1 },
      },
      {
        method: 'POST',
        path: '/heroes/grant',
        hero: true,
        token: shop.server,
        body: { userId: p.uid, projectName: shop.project.project_name, reference: `r-${randomUUID()}` },
      },
      {
        method: 'GET',
        path: '/merchant/games/rank/around',
        token: shop.server,
        query: { game_code: shop.gameCode, board: 'wins', season_type: 1, game_player_id: p.uid },
      },
    ];
    const field = ['userId', 'userId', 'game_player_id'];
    // Before: the deduction and the rank read answer; the grant reaches its handler (no hero game configured here).
    expect((await send(named[0]!)).status).toBe(201);
    expect((await send(named[1]!)).body.error).not.toBe('player.deleted');
    expect((await send(named[2]!)).status).toBe(200);
    await markDeleted(deps, p.uid, p.address);
    const before = await scanAll(deps);
    // The deduction moves value: the layer reads the mark fresh, though it read the player a moment ago.
    for (const [i, request] of named.entries()) {
      const res = await send(request);
      expect(res.status, request.path).toBe(404);
      expect(res.body).toMatchObject({ message: `${field[i]}: this player deleted their account`, error: 'player.deleted' });
    }
    expect(await scanAll(deps)).toEqual(before);
  });
});

describe('a deleted wallet user signing in again', () => {
  const register = (body: unknown) => call(app, 'POST', `${base}/account/register/chainwallet`, { body });

  async function signed(keypair: Ed25519Keypair, uuid: string) {
    const address = keypair.toSuiAddress();
    const nonce = await call(app, 'GET', `${base}/account/nonce`, { query: { address } });
    const { signature } = await keypair.signPersonalMessage(new TextEncoder().encode(nonce.body.data.message));
    return { uuid, address, signature };
  }

  it('is refused with the deleted uuid (409 account.deleted, nothing written); a new uuid and the same wallet make a new account', async () => {
    const keypair = Ed25519Keypair.generate();
    const uuid = randomUUID();
    const first = await register(await signed(keypair, uuid));
    expect(first.status).toBe(200);
    await markDeleted(deps, uuid, keypair.toSuiAddress());

    const again = await signed(keypair, uuid);
    const before = await scanAll(deps);
    const refused = await register(again);
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({ statusCode: 409, message: 'uuid: this user deleted their account; sign in with a new uuid', error: 'account.deleted' });
    expect(documentErrors(documents.main, '/account/register/chainwallet', 'post', 409, refused.body)).toEqual([]);
    expect(await scanAll(deps)).toEqual(before);

    // The nonce the refusal left live signs the wallet in under a new uuid: a new account, whose tokens work.
    const fresh = randomUUID();
    const res = await register({ ...again, uuid: fresh });
    expect(res.status).toBe(200);
    expect(await findAccount(deps, fresh)).toMatchObject({ uid: fresh, wallet_address: keypair.toSuiAddress(), wallet_type: 1 });
    expect((await send({ method: 'GET', path: '/account/social/bind', token: res.body.platformToken.accessToken })).status).toBe(200);
    expect((await send({ method: 'POST', path: '/account/params', token: res.body.platformToken.accessToken, body: { ref: 'back' } })).status).toBe(200);
    expectAccountDeleted(await send({ method: 'POST', path: '/account/params', token: first.body.platformToken.accessToken, body: { ref: 'old' } }));
  });

  it('is refused when the deletion commits between the read and the binding: no account, no address bound to the deleted uuid', async () => {
    const keypair = Ed25519Keypair.generate();
    const uuid = randomUUID();
    const request = await signed(keypair, uuid);
    const before = await scanAll(deps);
    const name = `deleteBeforeBinding${Math.random()}`;
    let armed = true;
    deps.db.middlewareStack.add(
      (next, context) => async (args) => {
        if (armed && context.commandName === 'TransactWriteItemsCommand') {
          armed = false;
          await markDeleted(deps, uuid, keypair.toSuiAddress());
        }
        return next(args);
      },
      { step: 'initialize', name },
    );
    try {
      const res = await register(request);
      expect(res.status).toBe(409);
      expect(res.body.error).toBe('account.deleted');
    } finally {
      deps.db.middlewareStack.remove(name);
    }
    expect(armed).toBe(false);
    const gone = await deps.db.send(new GetCommand({ TableName: deps.table, Key: goneKey(uuid), ConsistentRead: true }));
    // Besides the mark, only the account id counter moved: the id is taken before the transaction (a gap, no account).
    const withoutCounter = (items: (Record<string, unknown> | undefined)[]) => items.filter((item) => item?.pk !== 'COUNTER#account');
    expect(withoutCounter(await scanAll(deps))).toEqual(withoutCounter([...before, gone.Item].sort(byKey)));
    expect(await deps.db.send(new GetCommand({ TableName: deps.table, Key: userKey(uuid), ConsistentRead: true }))).not.toHaveProperty('Item');
  });
});

const byKey = (a: Record<string, unknown> | undefined, b: Record<string, unknown> | undefined) => {
  const id = (item: Record<string, unknown> | undefined) => `${String(item?.pk)}\u0000${String(item?.sk)}`;
  return id(a) < id(b) ? -1 : id(a) > id(b) ? 1 : 0;
};

describe('a deleted zkLogin identity', () => {
  const loginZk = (idToken: string) => call(app, 'POST', `${base}/account/login/zk`, { body: { id_token: idToken } });
  const zkInfo = (idToken: string) => call(app, 'GET', `${base}/account/zk/info`, { token: idToken });
  /** Every item holding `text` in its keys or attributes. */
  const holding = async (text: string) => (await scanAll(deps)).filter((item) => JSON.stringify(item).includes(text));

  it('keeps its salt under a key hiding the subject: signing in again gives the same address and a new account', async () => {
    const sub = `deleted-${randomUUID()}`;
    const first = await loginZk(await issuer.sign({ sub }));
    expect(first.status).toBe(200);
    const { salt } = (await zkInfo(await issuer.sign({ sub }))).body.data;
    expect(await holding(sub)).toHaveLength(1);

    await markDeleted(deps, first.body.uid, first.body.address);
    await forgetZkSubject(deps, await deps.idTokens.verify(await issuer.sign({ sub })));
    expect(await holding(sub)).toEqual([]);
    const moved = await holding(salt);
    expect(moved).toHaveLength(1);
    expect(Object.keys(moved[0]!).sort()).toEqual(['created_at', 'pk', 'salt', 'sk']);

    const again = await loginZk(await issuer.sign({ sub }));
    expect(again.status).toBe(200);
    expect(again.body.address).toBe(first.body.address);
    expect(again.body.uid).not.toBe(first.body.uid);
    expect(await findAccount(deps, again.body.uid)).toMatchObject({ uid: again.body.uid, wallet_address: first.body.address, wallet_type: 2 });
    expect((await zkInfo(await issuer.sign({ sub }))).body.data).toMatchObject({ sub, salt, address: first.body.address });
    // No named salt is made again: the subject is still in no item.
    expect(await holding(sub)).toEqual([]);
    expect((await send({ method: 'POST', path: '/account/params', token: again.body.platformToken.accessToken, body: { ref: 'back' } })).status).toBe(200);
    expectAccountDeleted(await send({ method: 'POST', path: '/account/params', token: first.body.platformToken.accessToken, body: { ref: 'old' } }));

    // Run again, it changes nothing.
    const settled = await scanAll(deps);
    await forgetZkSubject(deps, await deps.idTokens.verify(await issuer.sign({ sub })));
    expect(await scanAll(deps)).toEqual(settled);
  });

  it('a first read that misses the moved salt (eventually consistent) makes no new salt: the same address again', async () => {
    const sub = `stale-${randomUUID()}`;
    const first = await loginZk(await issuer.sign({ sub }));
    await markDeleted(deps, first.body.uid, first.body.address);
    await forgetZkSubject(deps, await deps.idTokens.verify(await issuer.sign({ sub })));
    // The next batch read answers as a replica that has seen the named salt's deletion but not the hidden salt yet.
    const name = `staleSaltRead${Math.random()}`;
    let stale = true;
    deps.db.middlewareStack.add(
      (next, context) => async (args) => {
        const out = await next(args);
        if (!stale || context.commandName !== 'BatchGetItemCommand') return out;
        stale = false;
        (out.output as { Responses?: Record<string, unknown[]> }).Responses = { [deps.table]: [] };
        return out;
      },
      { step: 'initialize', name },
    );
    try {
      const again = await loginZk(await issuer.sign({ sub }));
      expect(stale).toBe(false);
      expect(again.body.address).toBe(first.body.address);
    } finally {
      deps.db.middlewareStack.remove(name);
    }
    expect(await holding(sub)).toEqual([]);
  });

  it('a move that crashed between its two writes, run again, ends as one that did not; sign-ins meanwhile keep the salt', async () => {
    const sub = `crashed-${randomUUID()}`;
    const first = await loginZk(await issuer.sign({ sub }));
    const { salt } = (await zkInfo(await issuer.sign({ sub }))).body.data;
    const token = await deps.idTokens.verify(await issuer.sign({ sub }));
    const name = `crashBeforeDelete${Math.random()}`;
    deps.db.middlewareStack.add(
      (next, context) => async (args) => {
        if (context.commandName === 'DeleteItemCommand') throw new Error('crashed before deleting the named salt');
        return next(args);
      },
      { step: 'initialize', name },
    );
    try {
      await expect(forgetZkSubject(deps, token)).rejects.toThrow(/crashed/);
    } finally {
      deps.db.middlewareStack.remove(name);
    }
    expect(await holding(salt)).toHaveLength(2);
    expect((await zkInfo(await issuer.sign({ sub }))).body.data).toMatchObject({ salt, address: first.body.address });

    await forgetZkSubject(deps, token);
    expect(await holding(sub)).toEqual([]);
    expect(await holding(salt)).toHaveLength(1);
    expect((await zkInfo(await issuer.sign({ sub }))).body.data).toMatchObject({ salt, address: first.body.address });
  });
});
