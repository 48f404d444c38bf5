import { randomUUID } from 'node:crypto';
import { generateKeyPair, decodeJwt } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { answerKept } from '../core/platform/kept-answers.js';
import { call, type CallResult } from './support/http.js';
import { ledgerMismatches } from './support/ledgers.js';
import { documentErrors, servedDocument } from './support/openapi-check.js';
import { storePathOf, storeWorld, type StoreWorld } from './support/store.js';
import { BUSY_FORFEITS, busyStoreUser, partnerBackend, PET_APP_REDIRECT, publicTokenRequest, type PartnerBackend } from './support/store-partner.js';
import { faults, injectFaults, type FaultInjector } from './support/table-faults.js';
import { restoreAll, scanAll } from './support/table-snapshot.js';

/**
 * A store user deletes their store account (docs/security.md "The partner store's users"): with a fresh partner
 * assertion, nothing holding the user's uid, partner user id or name is left in the table, the kept ledger adds up
 * under a pseudonym, every token of the user is refused, and the partner's user signs in anew to an empty account.
 * A deletion cut short at any command is finished by a new assertion, and deletions at once end as one does.
 */
const base = storePathOf('default');
const document = servedDocument('/v2-testing');
type Item = Record<string, unknown>;

const deleteUser = (world: StoreWorld, assertion: string) => call(world.app, 'POST', `${base}/user/delete`, { body: { assertion } });

/** The answer conforms to the served document (its status, its body, its error code). */
function documented(res: CallResult) {
  expect(documentErrors(document, '/store/user/delete', 'post', res.status, res.body)).toEqual([]);
  return res;
}

/** Every item holding one of `values` anywhere: keys and every attribute, nested ones too. */
const holders = (items: Item[], values: string[]) => items.filter((item) => values.some((value) => JSON.stringify(item).includes(value)));

describe('user/delete', () => {
  let world: StoreWorld;
  let partner: PartnerBackend;
  beforeAll(async () => {
    world = await storeWorld();
    partner = await partnerBackend(world);
  });

  it('deletes a user who used the whole store: nothing of theirs is left, the ledger is kept under a pseudonym and adds up', async () => {
    const user = await busyStoreUser(world, partner);
    const personal = [user.uid, user.sub, user.name];
    expect(holders(await scanAll(world.deps), personal).length).toBeGreaterThan(15);
    const board = await call(world.app, 'GET', `${base}/pets/rank`, { query: { limit: 100 } });
    expect(board.body.pets.map((pet: { petId: string }) => pet.petId)).toEqual(expect.arrayContaining(user.petIds));

    const answer = documented(await deleteUser(world, await partner.signDeletion(user.sub)));
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ deleted: true, deleted_at: expect.any(String), forfeited: BUSY_FORFEITS });

    const items = await scanAll(world.deps);
    expect(holders(items, personal)).toEqual([]);
    expect(ledgerMismatches(items)).toEqual([]);
    const kept = items.filter((item) => String(item.pk).startsWith('STOREUSER#former:'));
    expect(new Set(kept.map((item) => item.pk)).size).toBe(1);
    const pseudonym = String(kept[0]!.pk).slice('STOREUSER#'.length);
    // Every credit and debit of the user (a grant's entry records each holding it credited), and a forfeit of what
    // was left: each holding sums to nothing.
    const sums = new Map<string, number>();
    for (const entry of kept)
      for (const { holding, code, change } of (entry.changes ?? [entry]) as Record<string, unknown>[])
        sums.set(`${holding}#${code}`, (sums.get(`${holding}#${code}`) ?? 0) + Number(change));
    expect([...sums.keys()].sort()).toEqual(['currency#coin', 'currency#gem', 'item#cake', 'item#fish', 'item#kibble']);
    expect([...sums.values()].every((sum) => sum === 0)).toBe(true);
    expect(kept.every((entry) => entry.uid === pseudonym && entry.type === 'store_ledger')).toBe(true);
    const grant = items.find((item) => item.pk === `STOREGRANT#${partner.clientId}#${user.grantReference}`)!;
    expect(grant).not.toHaveProperty('fingerprint');
    expect(answerKept(grant)).toMatchObject({ uid: pseudonym, reference: user.grantReference });

    const after = await call(world.app, 'GET', `${base}/pets/rank`, { query: { limit: 100 } });
    const listed = after.body.pets.map((pet: { petId: string }) => pet.petId);
    for (const petId of user.petIds) expect(listed).not.toContain(petId);
  });

  it("refuses the user's session, access and refresh tokens and codes; the partner's user signs in anew to an empty account", async () => {
    const user = await busyStoreUser(world, partner);
    expect((await deleteUser(world, await partner.signDeletion(user.sub))).status).toBe(200);

    for (const [path, token] of [
      ['/user', user.session],
      ['/pets', user.session],
      ['/user', user.access],
      ['/oauth/userinfo', user.access],
    ] as const) {
      const refused = await call(world.app, 'GET', `${base}${path}`, { token });
      expect(refused.status).toBe(401);
      expect(refused.body).toMatchObject({ error: 'store.token_invalid', message: 'token: its store user has deleted their store account' });
      expect(refused.headers.get('www-authenticate')).toMatch(/error="invalid_token"/);
      expect(documentErrors(document, `/store${path}`, 'get', 401, refused.body)).toEqual([]);
    }
    const adopt = await call(world.app, 'POST', `${base}/pets/adopt`, { token: user.session, body: { name: 'Ghost', species: 'dog' } });
    expect(adopt.status).toBe(401);
    const refresh = await publicTokenRequest(world, { grant_type: 'refresh_token', refresh_token: user.refresh, client_id: user.code.clientId });
    expect([refresh.status, refresh.body.error]).toEqual([400, 'invalid_grant']);
    const code = await publicTokenRequest(world, {
      grant_type: 'authorization_code',
      code: user.code.code,
      redirect_uri: PET_APP_REDIRECT,
      code_verifier: user.code.verifier,
      client_id: user.code.clientId,
    });
    expect([code.status, code.body.error]).toEqual([400, 'invalid_grant']);

    // The partner's retry of the grant names a user who is not there; its reference stays taken for anyone else.
    const grant = { reference: user.grantReference, currencies: { gem: 250, coin: 40 }, items: { kibble: 5, fish: 2, cake: 1 } };
    const retried = await call(world.app, 'POST', `${base}/grants`, { token: partner.grantToken, body: { uid: user.uid, ...grant } });
    expect([retried.status, retried.body.error]).toEqual([404, 'store.user_not_found']);

    const again = await call(world.app, 'POST', `${base}/login`, { body: { assertion: await partner.sign(user.sub, { name: user.name }) } });
    expect(again.status).toBe(200);
    expect(again.body.uid).not.toBe(user.uid);
    const session = again.body.session as string;
    expect((await call(world.app, 'GET', `${base}/currencies/premium/balance`, { token: session })).body).toEqual({ currency: 'gem', balance: 0 });
    expect((await call(world.app, 'GET', `${base}/balances/items`, { token: session })).body.items.map((i: { balance: number }) => i.balance)).toEqual([
      0, 0, 0,
    ]);
    expect((await call(world.app, 'GET', `${base}/pets`, { token: session })).body).toEqual({ pets: [] });
    const reused = await call(world.app, 'POST', `${base}/grants`, { token: partner.grantToken, body: { uid: again.body.uid, ...grant } });
    expect([reused.status, reused.body.error]).toEqual([422, 'idempotency.reference_reused']);
  });

  it("refuses a replayed assertion, a wrong one, one for another partner's user and one for a user never seen, writing nothing", async () => {
    const user = await busyStoreUser(world, partner);
    const gone = await busyStoreUser(world, partner);
    const used = await partner.signDeletion(gone.sub);
    expect((await deleteUser(world, used)).status).toBe(200);
    const other = await partnerBackend(world);
    const stranger = await generateKeyPair('ES256');
    const before = await scanAll(world.deps);
    const cases: [string, string, number, string][] = [
      ['replayed', used, 401, 'store.assertion_invalid'],
      ['a sign-in assertion (its audience is not the deletion)', await partner.sign(user.sub), 401, 'store.assertion_invalid'],
      ['signed with another key', await partner.signDeletion(user.sub, {}, stranger.privateKey), 401, 'store.assertion_invalid'],
      ['expired', await partner.signDeletion(user.sub, { exp: Math.floor(Date.now() / 1000) - 60 }), 401, 'store.assertion_invalid'],
      ["another partner's user", await other.signDeletion(user.sub), 404, 'store.user_not_found'],
      ['a user never seen', await partner.signDeletion(`partner-user-${randomUUID()}`), 404, 'store.user_not_found'],
      ['the deleted user again', await partner.signDeletion(gone.sub), 404, 'store.user_not_found'],
    ];
    for (const [why, assertion, status, code] of cases) {
      const res = documented(await deleteUser(world, assertion));
      expect([why, res.status, res.body.error]).toEqual([why, status, code]);
    }
    expect(documented(await deleteUser(world, 'not-a-jwt')).status).toBe(400);
    expect(await scanAll(world.deps)).toEqual(before);
    expect((await call(world.app, 'GET', `${base}/user`, { token: user.session })).status).toBe(200);
  });
});

/**
 * The same busy user, deleted again and again from one snapshot of the table: uninterrupted once (the reference),
 * then cut short by a table fault at its Nth command for every N and finished by a new assertion, then five times at
 * once. Each ends in the reference's table, but for the deletion's random pseudonym and the assertions' own jti
 * records (a failed attempt's may have been taken; they hold no user's data).
 */
describe('user/delete under faults and at once', () => {
  let world: StoreWorld;
  let partner: PartnerBackend;
  let injector: FaultInjector;
  let user: Awaited<ReturnType<typeof busyStoreUser>>;
  let snapshot: Item[];
  let reference: { answer: unknown; items: Item[] };
  const now = new Date();

  /** The table as compared: jti records aside, the pseudonym named alike, in key order again. */
  const normalized = (items: Item[]) =>
    items
      .filter((item) => item.type !== 'store_jti')
      .map((item) => JSON.parse(JSON.stringify(item).replace(/former:[0-9a-f-]{36}/g, 'former:*')) as Item)
      .sort((a, b) => (`${a.pk}\u0000${a.sk}` < `${b.pk}\u0000${b.sk}` ? -1 : 1));
  const jtisOf = (items: Item[]) => items.filter((item) => item.type === 'store_jti').map((item) => String(item.pk).split('#').at(-1));

  beforeAll(async () => {
    world = await storeWorld();
    partner = await partnerBackend(world);
    user = await busyStoreUser(world, partner);
    injector = injectFaults(world.deps.db);
    world.deps.setNow(now);
    snapshot = await scanAll(world.deps);
    const res = await deleteUser(world, await partner.signDeletion(user.sub));
    expect(res.status).toBe(200);
    reference = { answer: res.body, items: normalized(await scanAll(world.deps)) };
    expect(holders(reference.items, [user.uid, user.sub, user.name])).toEqual([]);
  });

  it('a deletion cut short at any command is finished by a new assertion and ends as an uninterrupted one', async () => {
    let through = false;
    let cut = 0;
    for (let n = 0; !through; n++) {
      await restoreAll(world.deps, snapshot);
      const first = await partner.signDeletion(user.sub);
      injector.arm(faults['service error']!, n);
      const attempt = await deleteUser(world, first).finally(() => injector.disarm());
      documented(attempt);
      if (attempt.status === 200) {
        through = true;
        expect(attempt.body).toEqual(reference.answer);
        expect(normalized(await scanAll(world.deps))).toEqual(reference.items);
        continue;
      }
      cut++;
      expect([n, attempt.status, attempt.body.error]).toEqual([n, 503, 'table.busy']);
      const started = (await scanAll(world.deps)).some((item) => item.type === 'store_login' && typeof item.pseudonym === 'string');
      if (started) {
        // From the start on, the user's tokens are refused and the partner's user cannot sign in until it is finished.
        expect((await call(world.app, 'GET', `${base}/user`, { token: user.session })).status).toBe(401);
        const login = await call(world.app, 'POST', `${base}/login`, { body: { assertion: await partner.sign(user.sub) } });
        expect([login.status, login.body.error]).toEqual([409, 'store.user_deleting']);
        expect(documentErrors(document, '/store/login', 'post', 409, login.body)).toEqual([]);
      }
      const retry = await partner.signDeletion(user.sub);
      const finished = documented(await deleteUser(world, retry));
      expect([n, finished.status]).toEqual([n, 200]);
      expect(finished.body).toEqual(reference.answer);
      const items = await scanAll(world.deps);
      expect(normalized(items), `a fault at command ${n}`).toEqual(reference.items);
      const taken = [first, retry].map((assertion) => String(decodeJwt(assertion).jti));
      expect(
        jtisOf(items)
          .filter((jti) => !jtisOf(snapshot).includes(jti))
          .every((jti) => taken.includes(jti!)),
      ).toBe(true);
    }
    expect(cut).toBeGreaterThan(8);
  }, 120_000);

  it('five deletions at once, each with its own fresh assertion: no 5xx, and the table ends as after one', async () => {
    await restoreAll(world.deps, snapshot);
    const assertions = await Promise.all(Array.from({ length: 5 }, () => partner.signDeletion(user.sub)));
    const answers = await Promise.all(assertions.map((assertion) => deleteUser(world, assertion)));
    for (const res of answers) {
      documented(res);
      expect(res.status).toBeLessThan(500);
      if (res.status === 200) expect(res.body).toEqual(reference.answer);
      else
        expect([
          [404, 'store.user_not_found'],
          [409, 'data.changed_concurrently'],
          [409, 'store.user_deleting'],
        ]).toContainEqual([res.status, res.body.error]);
    }
    expect(answers.some((res) => res.status === 200)).toBe(true);
    expect(normalized(await scanAll(world.deps))).toEqual(reference.items);
  }, 60_000);
});
