import { randomUUID } from 'node:crypto';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { registerClient } from '../core/partner-store/clients.js';
import { ADOPTION_PRICE } from '../core/partner-store/pets.js';
import { signAccessToken, type StoreRegion } from '../core/partner-store/regions.js';
import type { createPartnerStoreApp } from '../functions/partner-store.js';
import { itemCount, type TestDeps } from './support/deps.js';
import { storeWorld } from './support/store.js';
import { call, type CallResult } from './support/http.js';
import { documentErrors, servedDocument } from './support/openapi-check.js';
import { commandCounter } from './support/rankings.js';

/** The pet mini-game: adoption paid once under concurrency, feeding in one transaction, the log and the board. */
let deps: TestDeps;
let app: ReturnType<typeof createPartnerStoreApp>;
const REGION: StoreRegion = 'default';
const issuer = 'http://localhost/v2-testing/store';
const base = '/v2-testing/store';
const document = servedDocument('/v2-testing');
let signIn: () => Promise<{ session: string; uid: string }>;
let grantToken: string;

beforeAll(async () => {
  ({ deps, app } = await storeWorld());
  const { publicKey, privateKey } = await generateKeyPair('ES256', { extractable: true });
  const { client } = await registerClient(deps, {
    region: REGION,
    type: 'confidential',
    name: 'backend',
    redirect_uris: ['https://store.example/cb'],
    scopes: ['grants'],
    assertion_jwk: (await exportJWK(publicKey)) as Record<string, unknown>,
  });
  grantToken = (
    await signAccessToken(deps.storeKeys![REGION], issuer, { sub: client.client_id, client_id: client.client_id, scope: 'grants', kind: 'client' }, new Date())
  ).token;
  signIn = async () => {
    const iat = Math.floor(Date.now() / 1000);
    const assertion = await new SignJWT({ iss: client.client_id, sub: `u-${randomUUID()}`, aud: issuer, iat, exp: iat + 60, jti: randomUUID() })
      .setProtectedHeader({ alg: 'ES256' })
      .sign(privateKey);
    return (await call(app, 'POST', `${base}/login`, { body: { assertion } })).body;
  };
});

const give = async (uid: string, grants: { currencies?: Record<string, number>; items?: Record<string, number> }) => {
  const res = await call(app, 'POST', `${base}/grants`, { token: grantToken, body: { uid, reference: `g-${randomUUID()}`, ...grants } });
  expect(res.status).toBe(200);
};
const adopt = (session: string, name = 'Tom') => call(app, 'POST', `${base}/pets/adopt`, { token: session, body: { name, species: 'cat' } });
const feed = (session: string, petId: string, item = 'kibble', amount = 1) =>
  call(app, 'POST', `${base}/pets/feed`, { token: session, body: { petId, item, amount } });
const balance = async (session: string, item: string) =>
  ((await call(app, 'GET', `${base}/balances/items`, { token: session })).body.items as { item: string; balance: number }[]).find((i) => i.item === item)!
    .balance;
const gems = async (session: string) => (await call(app, 'GET', `${base}/currencies/premium/balance`, { token: session })).body.balance as number;

/** Retries a 409 that asks to (collisions with concurrent transactions); answers the final result. */
async function retrying(request: () => Promise<CallResult>) {
  for (;;) {
    const res = await request();
    if (res.status !== 409 || !/retry$/.test(res.body.message)) return res;
  }
}

describe('adopt_pet', () => {
  it('the first pet is free, later ones cost gems; without them 409 and nothing written', async () => {
    const user = await signIn();
    const first = await adopt(user.session, 'Tom');
    expect(first.status).toBe(201);
    expect(first.body).toEqual({
      pet: { petId: expect.any(String), name: 'Tom', species: 'cat', level: 1, experience: 0, last_fed_at: null, adopted_at: expect.any(String) },
      paid: 0,
    });
    expect(documentErrors(document, '/store/pets/adopt', 'post', 201, first.body)).toEqual([]);
    const before = await itemCount(deps);
    const short = await adopt(user.session, 'Jerry');
    expect(short).toMatchObject({ status: 409, body: { statusCode: 409, message: expect.stringMatching(/^gem:/) } });
    expect(await itemCount(deps)).toBe(before);
    await give(user.uid, { currencies: { gem: ADOPTION_PRICE } });
    expect((await adopt(user.session, 'Jerry')).body.paid).toBe(ADOPTION_PRICE);
    expect(await gems(user.session)).toBe(0);
    const pets = await call(app, 'GET', `${base}/pets`, { token: user.session });
    expect(pets.body.pets.map((p: { name: string }) => p.name)).toEqual(['Tom', 'Jerry']);
    expect(documentErrors(document, '/store/pets', 'get', 200, pets.body)).toEqual([]);
  });

  it('20 concurrent paid adoptions with gems for 5: exactly 5 succeed, each paid once, the balance is 0', async () => {
    const user = await signIn();
    expect((await adopt(user.session)).body.paid).toBe(0);
    await give(user.uid, { currencies: { gem: 5 * ADOPTION_PRICE } });
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => retrying(() => adopt(user.session, `Pet ${i}`))));
    expect(results.filter((r) => r.status === 201)).toHaveLength(5);
    for (const r of results.filter((r) => r.status !== 201)) expect(r.body.message).toMatch(/^gem: the premium balance is less/);
    expect(await gems(user.session)).toBe(0);
    expect((await call(app, 'GET', `${base}/pets`, { token: user.session })).body.pets).toHaveLength(6);
  }, 60_000);
});

describe('Idempotency-Key on adopt_pet and feed_pet', () => {
  it('a retry with the key answers the first answer and pays or feeds once (a feeding retry even within the cooldown); another body is 422', async () => {
    const user = await signIn();
    await adopt(user.session, 'Free');
    await give(user.uid, { currencies: { gem: 2 * ADOPTION_PRICE }, items: { kibble: 5 } });
    const headers = { 'Idempotency-Key': `adopt-${randomUUID()}` };
    const adoptKeyed = () => call(app, 'POST', `${base}/pets/adopt`, { token: user.session, body: { name: 'Keyed', species: 'dog' }, headers });
    const first = await adoptKeyed();
    expect(first.status).toBe(201);
    const again = await Promise.all([adoptKeyed(), adoptKeyed(), adoptKeyed()]);
    for (const res of again) expect(res).toMatchObject({ status: 201, body: first.body });
    expect(await gems(user.session)).toBe(ADOPTION_PRICE);
    expect((await call(app, 'POST', `${base}/pets/adopt`, { token: user.session, body: { name: 'Other', species: 'dog' }, headers })).status).toBe(422);

    const feedHeaders = { 'Idempotency-Key': `feed-${randomUUID()}` };
    const feedKeyed = () =>
      call(app, 'POST', `${base}/pets/feed`, { token: user.session, body: { petId: first.body.pet.petId, item: 'kibble', amount: 2 }, headers: feedHeaders });
    const fed = await feedKeyed();
    expect(fed.status).toBe(200);
    expect(await feedKeyed()).toMatchObject({ status: 200, body: fed.body });
    expect(await balance(user.session, 'kibble')).toBe(3);
  });
});

describe('feed_pet, feed_log and rank', () => {
  it('adds experience, levels up by the table, enforces the cooldown, and logs newest first', async () => {
    const user = await signIn();
    const { petId } = (await adopt(user.session, 'Rex')).body.pet;
    await give(user.uid, { items: { kibble: 5, cake: 2 } });
    const start = new Date();
    deps.setNow(start);
    try {
      const first = await feed(user.session, petId, 'kibble', 3);
      expect(first.status).toBe(200);
      expect(first.body.pet).toMatchObject({ experience: 30, level: 1, last_fed_at: start.toISOString() });
      expect(first.body.feeding).toMatchObject({ item: 'kibble', amount: 3, experience_gained: 30, level_before: 1, level_after: 1 });
      expect(documentErrors(document, '/store/pets/feed', 'post', 200, first.body)).toEqual([]);
      const before = await itemCount(deps);
      const tooSoon = await feed(user.session, petId, 'cake', 2);
      expect(tooSoon).toMatchObject({ status: 409, body: { message: expect.stringMatching(/fed less than 60 s ago/) } });
      expect(await itemCount(deps)).toBe(before);
      deps.setNow(new Date(start.getTime() + 61_000));
      const second = await feed(user.session, petId, 'cake', 2);
      expect(second.body.pet).toMatchObject({ experience: 150, level: 2 });
      expect(second.body.pet.level).toBe(2);
      expect(await balance(user.session, 'cake')).toBe(0);
      expect(await balance(user.session, 'kibble')).toBe(2);
      deps.setNow(new Date(start.getTime() + 122_000));
      expect(await feed(user.session, petId, 'cake', 1)).toMatchObject({
        status: 409,
        body: { message: expect.stringMatching(/^body\.item: you hold fewer than 1 cake/) },
      });
    } finally {
      deps.setNow(undefined);
    }
    const log = await call(app, 'GET', `${base}/pets/feed-log`, { token: user.session, query: { pageSize: 1 } });
    expect(log.body).toMatchObject({ page: 0, pageSize: 1, hasMore: true, entries: [{ item: 'cake', amount: 2 }] });
    expect(documentErrors(document, '/store/pets/feed-log', 'get', 200, log.body)).toEqual([]);
    expect((await call(app, 'GET', `${base}/pets/feed-log`, { token: user.session, query: { page: 1, pageSize: 1 } })).body).toMatchObject({
      hasMore: false,
      entries: [{ item: 'kibble', amount: 3 }],
    });
  });

  it("refuses another user's pet (404) and a non-food item (400), writing nothing", async () => {
    const [owner, other] = [await signIn(), await signIn()];
    const { petId } = (await adopt(owner.session)).body.pet;
    await give(other.uid, { items: { kibble: 1 } });
    const before = await itemCount(deps);
    expect((await feed(other.session, petId)).status).toBe(404);
    expect((await feed(other.session, petId, 'rock')).status).toBe(400);
    expect((await feed(other.session, petId, 'kibble', 11)).status).toBe(400);
    expect(await itemCount(deps)).toBe(before);
  });

  it('50 concurrent feedings with food for 10: exactly 10 succeed and the food is 0', async () => {
    const user = await signIn();
    await give(user.uid, { currencies: { gem: 49 * ADOPTION_PRICE }, items: { fish: 10 } });
    const pets: string[] = [];
    for (let i = 0; i < 50; i++) pets.push((await adopt(user.session, `P${i}`)).body.pet.petId);
    const results = await Promise.all(pets.map((petId) => retrying(() => feed(user.session, petId, 'fish', 1))));
    expect(results.filter((r) => r.status === 200)).toHaveLength(10);
    for (const r of results.filter((r) => r.status !== 200)) expect(r.body.message).toMatch(/you hold fewer than 1 fish/);
    expect(await balance(user.session, 'fish')).toBe(0);
    const fed = (await call(app, 'GET', `${base}/pets`, { token: user.session })).body.pets.filter((p: { experience: number }) => p.experience === 25);
    expect(fed).toHaveLength(10);
  }, 120_000);

  it('ranks the pets of the region by level, then experience, with one Query', async () => {
    const user = await signIn();
    await give(user.uid, { currencies: { gem: 2 * ADOPTION_PRICE }, items: { cake: 20 } });
    const ids: string[] = [];
    for (const name of ['Low', 'Mid', 'High']) ids.push((await adopt(user.session, name)).body.pet.petId);
    await feed(user.session, ids[1]!, 'cake', 1);
    await feed(user.session, ids[2]!, 'cake', 10);
    const counter = commandCounter(deps);
    counter.start();
    const rank = await call(app, 'GET', `${base}/pets/rank`, { query: { limit: 100 } });
    expect(counter.stop()).toEqual({ Query: 1 });
    const ours = (rank.body.pets as { name: string; petId: string }[]).filter((p) => ids.includes(p.petId)).map((p) => p.name);
    expect(ours).toEqual(['High', 'Mid', 'Low']);
    const levels = (rank.body.pets as { level: number; experience: number }[]).map((p) => p.level * 1e9 + p.experience);
    expect(levels).toEqual([...levels].sort((a, b) => b - a));
    expect(documentErrors(document, '/store/pets/rank', 'get', 200, rank.body)).toEqual([]);
  });
});
