import { deletionAudience } from '../../core/partner-store/deletion.js';
import { randomBytes, randomUUID } from 'node:crypto';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWTPayload } from 'jose';
import { expect } from 'vitest';
import { registerClient } from '../../core/partner-store/clients.js';
import { sha256Url } from '../../core/platform/digest.js';
import { signAccessToken, type StoreRegion } from '../../core/partner-store/regions.js';
import { call } from './http.js';
import { storeIssuerOf, storePathOf, type StoreWorld } from './store.js';

/**
 * A partner store's backend as the store's tests drive it: it signs its users' assertions (login, user/delete) and
 * grants them currencies and items with its own token; and a store user who has used every part of the store.
 */

export interface PartnerBackend {
  clientId: string;
  region: StoreRegion;
  /** A fresh assertion of the partner's user `sub` (now by the deps' clock); `claims` change it, `key` signs it instead. */
  sign(sub: string, claims?: JWTPayload, key?: CryptoKey): Promise<string>;
  /** An assertion for user/delete: its audience is the deletion's (a sign-in assertion cannot delete). */
  signDeletion(sub: string, claims?: JWTPayload, key?: CryptoKey): Promise<string>;
  /** The backend's own token (client_credentials, scope `grants`). */
  grantToken: string;
  key: CryptoKey;
}

export async function partnerBackend(world: Pick<StoreWorld, 'deps'>, region: StoreRegion = 'default'): Promise<PartnerBackend> {
  const { deps } = world;
  const { publicKey, privateKey } = await generateKeyPair('ES256', { extractable: true });
  const { client } = await registerClient(deps, {
    region,
    type: 'confidential',
    name: 'Partner store backend',
    redirect_uris: ['https://partner.example/cb'],
    scopes: ['grants'],
    assertion_jwk: (await exportJWK(publicKey)) as Record<string, unknown>,
  });
  const issuer = storeIssuerOf(region);
  const grantToken = (
    await signAccessToken(deps.storeKeys![region], issuer, { sub: client.client_id, client_id: client.client_id, scope: 'grants', kind: 'client' }, deps.now())
  ).token;
  const sign = (sub: string, claims: JWTPayload = {}, key = privateKey) => {
    const iat = Math.floor(deps.now().getTime() / 1000);
    return new SignJWT({ iss: client.client_id, sub, aud: issuer, iat, exp: iat + 120, jti: randomUUID(), ...claims })
      .setProtectedHeader({ alg: 'ES256' })
      .sign(key);
  };
  return {
    clientId: client.client_id,
    region,
    key: privateKey,
    grantToken,
    sign,
    signDeletion: (sub, claims = {}, key = privateKey) => sign(sub, { aud: deletionAudience(issuer), ...claims }, key),
  };
}

const REDIRECT = 'https://pets.example/callback';
const form = { 'content-type': 'application/x-www-form-urlencoded' };

/** The code a public partner app gets when the user allows it (authorize2, then accept with the session). */
async function allowedCode(world: StoreWorld, session: string, clientId: string, verifier: string) {
  const issuer = storeIssuerOf('default');
  const query = new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: REDIRECT,
    scope: 'profile pets',
    state: 'state',
    code_challenge: sha256Url(verifier),
    code_challenge_method: 'S256',
  });
  const page = await world.app.request(`${issuer}/oauth/authorize?${query}`);
  const requestId = /data-request-id="([^"]+)"/.exec(await page.text())![1]!;
  const accepted = await call(world.app, 'POST', `${storePathOf('default')}/oauth/accept`, { token: session, body: { request_id: requestId } });
  expect(accepted.status).toBe(200);
  return new URL(accepted.body.redirect_to).searchParams.get('code')!;
}

/** A token request of a public app at client-token: the answer's status and body. */
export async function publicTokenRequest(world: Pick<StoreWorld, 'app'>, params: Record<string, string>) {
  const res = await world.app.request(`${storeIssuerOf('default')}/oauth/client-token`, { method: 'POST', headers: form, body: new URLSearchParams(params) });
  return { status: res.status, body: (await res.json()) as Record<string, string> };
}

/** A store user of the default region who has used every part of the store, with the values that identify them. */
export interface BusyStoreUser {
  uid: string;
  sub: string;
  name: string;
  session: string;
  /** A partner app's tokens for the user: the access token and the refresh token of its family, rotated once. */
  access: string;
  refresh: string;
  /** A partner app's code the user allowed and the app never exchanged. */
  code: { code: string; verifier: string; clientId: string };
  grantReference: string;
  petIds: string[];
}

/**
 * Signs the user in and has them hold currencies and items (a grant), adopt two pets (the second paid, with an
 * Idempotency-Key), feed both (one food used up), and allow a partner app (a token family, rotated once, and a
 * code never exchanged). What they then hold: coin 40, gem 150, fish 2, kibble 3, cake 0.
 */
export async function busyStoreUser(world: StoreWorld, partner: PartnerBackend): Promise<BusyStoreUser> {
  const { app } = world;
  const base = storePathOf('default');
  const sub = `partner-user-${randomUUID()}`;
  const name = `Mia ${randomUUID().slice(0, 8)}`;
  const signedIn = await call(app, 'POST', `${base}/login`, { body: { assertion: await partner.sign(sub, { name }) } });
  expect(signedIn.status).toBe(200);
  const { session, uid } = signedIn.body as { session: string; uid: string };
  const grantReference = `order-${randomUUID()}`;
  const granted = await call(app, 'POST', `${base}/grants`, {
    token: partner.grantToken,
    body: { uid, reference: grantReference, currencies: { gem: 250, coin: 40 }, items: { kibble: 5, fish: 2, cake: 1 } },
  });
  expect(granted.status).toBe(200);
  const petIds: string[] = [];
  for (const [petName, key] of [
    ['Tom', undefined],
    ['Jerry', `adopt-${randomUUID()}`],
  ] as const) {
    const adopted = await call(app, 'POST', `${base}/pets/adopt`, {
      token: session,
      body: { name: petName, species: 'cat' },
      ...(key ? { headers: { 'Idempotency-Key': key } } : {}),
    });
    expect(adopted.status).toBe(201);
    petIds.push(adopted.body.pet.petId);
  }
  for (const [petId, item, amount] of [
    [petIds[0]!, 'kibble', 2],
    [petIds[1]!, 'cake', 1],
  ] as const) {
    const fed = await call(app, 'POST', `${base}/pets/feed`, {
      token: session,
      body: { petId, item, amount },
      headers: { 'Idempotency-Key': `feed-${randomUUID()}` },
    });
    expect(fed.status).toBe(200);
  }

  const { client } = await registerClient(world.deps, {
    region: 'default',
    type: 'public',
    name: 'Pet app',
    redirect_uris: [REDIRECT],
    scopes: ['profile', 'pets'],
  });
  const verifier = randomBytes(32).toString('base64url');
  const exchanged = await publicTokenRequest(world, {
    grant_type: 'authorization_code',
    code: await allowedCode(world, session, client.client_id, verifier),
    redirect_uri: REDIRECT,
    code_verifier: verifier,
    client_id: client.client_id,
  });
  expect(exchanged.status).toBe(200);
  const rotated = await publicTokenRequest(world, { grant_type: 'refresh_token', refresh_token: exchanged.body.refresh_token!, client_id: client.client_id });
  expect(rotated.status).toBe(200);
  const spareVerifier = randomBytes(32).toString('base64url');
  const code = { code: await allowedCode(world, session, client.client_id, spareVerifier), verifier: spareVerifier, clientId: client.client_id };
  return { uid, sub, name, session, access: rotated.body.access_token!, refresh: rotated.body.refresh_token!, code, grantReference, petIds };
}

/** What a busy user holds when deleted, as user/delete answers it. */
export const BUSY_FORFEITS = [
  { holding: 'currency', code: 'coin', amount: 40 },
  { holding: 'currency', code: 'gem', amount: 150 },
  { holding: 'item', code: 'fish', amount: 2 },
  { holding: 'item', code: 'kibble', amount: 3 },
];

export { REDIRECT as PET_APP_REDIRECT };
