import { deletionAudience } from '../core/partner-store/deletion.js';
import { randomUUID } from 'node:crypto';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { accept, authorize } from '../core/partner-store/authorization.js';
import { registerClient } from '../core/partner-store/clients.js';
import { issuerOf, signAccessToken, type StoreRegion } from '../core/partner-store/regions.js';
import { login } from '../core/partner-store/sessions.js';
import { codeGrant } from '../core/partner-store/grants.js';
import { sha256Url } from '../core/platform/digest.js';
import { adoptPet } from '../core/partner-store/pets.js';
import { changeItems } from '../core/partner-store/wallet.js';
import type { BenchDeps } from './fixtures.js';
import type { OperationBench } from './operations.js';

/**
 * The partner store's authorization servers. The bench calls the app at `http://localhost`, so that is the
 * issuers' origin.
 */
const ORIGIN = 'http://localhost';
const issuer = (deps: BenchDeps, region: StoreRegion) => issuerOf(ORIGIN, deps.stage, region);
const form = { 'content-type': 'application/x-www-form-urlencoded' };
const basic = (id: string, secret: string) => ({ ...form, authorization: `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}` });

async function serverClient(deps: BenchDeps, region: StoreRegion) {
  const { client, client_secret } = await registerClient(deps, {
    region,
    type: 'confidential',
    name: 'bench',
    redirect_uris: ['https://bench.example/cb'],
    scopes: ['currencies'],
  });
  return { headers: basic(client.client_id, client_secret!), body: 'grant_type=client_credentials' };
}

/** A partner backend with an assertion key, and an assertion of a new user of it. */
async function partnerAssertion(deps: BenchDeps, region: StoreRegion) {
  const { publicKey, privateKey } = await generateKeyPair('ES256', { extractable: true });
  const { client } = await registerClient(deps, {
    region,
    type: 'confidential',
    name: 'bench backend',
    redirect_uris: ['https://bench.example/cb'],
    scopes: [],
    assertion_jwk: (await exportJWK(publicKey)) as Record<string, unknown>,
  });
  return async (sub = `u-${randomUUID()}`, aud = issuer(deps, region)) => {
    const iat = Math.floor(Date.now() / 1000);
    return new SignJWT({ iss: client.client_id, sub, aud, iat, exp: iat + 60, jti: randomUUID() }).setProtectedHeader({ alg: 'ES256' }).sign(privateKey);
  };
}

/** A new store user of the region, signed in through a partner backend: `{session, uid}`. */
async function signedIn(deps: BenchDeps, region: StoreRegion) {
  return login(deps, region, issuer(deps, region), await (await partnerAssertion(deps, region))());
}

/** A signed-in store user (their uid and session) and a public app with a pending authorization request. */
async function pendingRequest(deps: BenchDeps, region: StoreRegion) {
  const session = await signedIn(deps, region);
  const { client } = await registerClient(deps, {
    region,
    type: 'public',
    name: 'bench app',
    redirect_uris: ['https://bench.example/cb'],
    scopes: ['profile'],
  });
  const verifier = randomUUID() + randomUUID();
  const challenge = sha256Url(verifier);
  const query = {
    response_type: 'code',
    client_id: client.client_id,
    redirect_uri: 'https://bench.example/cb',
    scope: 'profile',
    state: 's',
    code_challenge: challenge,
    code_challenge_method: 'S256',
  };
  return { session, client, verifier, query };
}

/** Credits a user with gems (and items) as a partner's grant does, outside the count. */
async function grantGems(deps: BenchDeps, uid: string, items: Record<string, number> = {}) {
  const { transactOrFailures } = await import('../core/platform/transactions.js');
  await transactOrFailures(deps, [
    ...changeItems(deps, uid, 'currency', 'gem', 1000, `bench#${randomUUID()}`),
    ...Object.entries(items).flatMap(([code, amount]) => changeItems(deps, uid, 'item', code, amount, `bench#${randomUUID()}`)),
  ]);
}

/** A code the user just allowed, and the exchange request of the public app it was issued to. */
async function allowedCode(deps: BenchDeps, region: StoreRegion) {
  const pending = await pendingRequest(deps, region);
  const request = await authorize(deps, region, issuer(deps, region), pending.query);
  const { redirect_to } = await accept(deps, region, issuer(deps, region), pending.session.uid, { request_id: request.request_id, decision: 'allow' });
  return { pending, code: new URL(redirect_to).searchParams.get('code')! };
}

async function codeExchange(deps: BenchDeps, region: StoreRegion) {
  const { pending, code } = await allowedCode(deps, region);
  return {
    headers: form,
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: 'https://bench.example/cb',
      code_verifier: pending.verifier,
      client_id: pending.client.client_id,
    }).toString(),
  };
}

const op = (name: string, minimum: number, reason: string, prepare: OperationBench['prepare']): OperationBench => ({
  group: 'partner-store',
  op: name,
  minimum,
  reason,
  prepare,
});

function regionOperations(region: StoreRegion): OperationBench[] {
  const s = region === 'default' ? '' : `-${region}`;
  return [
    op(`metadata${s}`, 0, 'made from the request URL', async () => ({})),
    op(`jwks${s}`, 0, "the region's public key, in memory", async () => ({})),
    op(`clientToken_serve${s}`, 1, "the client's GetItem (type, scopes, secret hash); the token is signed, not stored", (deps) => serverClient(deps, region)),
    op(`authorize2${s}`, 2, "the client's GetItem + PutItem of the pending request (TTL)", async (deps) => ({
      query: (await pendingRequest(deps, region)).query,
    })),
    op(
      `accept${s}`,
      3,
      "the store user's GetItem (the session's check) + GetItem of the pending request + one transaction (request deleted, code put, the user there)",
      async (deps) => {
        const pending = await pendingRequest(deps, region);
        const request = await authorize(deps, region, issuer(deps, region), pending.query);
        return { token: pending.session.session, body: { request_id: request.request_id } };
      },
    ),
    op(
      `login${s}`,
      3,
      "the partner's client GetItem + the user's login GetItem + one transaction (the assertion's jti; for a new user, its login and user items)",
      async (deps) => ({ body: { assertion: await (await partnerAssertion(deps, region))() } }),
    ),
    op(`clientToken${s}`, 3, "the client's GetItem + the code's GetItem + one transaction (code used, family, refresh token, the user there)", (deps) =>
      codeExchange(deps, region),
    ),
    op(`userInfo${s}`, 2, "one BatchGet (the token's user and family: deletion, revocation) + the store user's GetItem", async (deps) => {
      const { pending, code } = await allowedCode(deps, region);
      const tokens = await codeGrant(deps, region, issuer(deps, region), pending.client, {
        code,
        redirect_uri: 'https://bench.example/cb',
        code_verifier: pending.verifier,
      });
      return { token: tokens.access_token };
    }),
    op(`currencies_list${s}`, 0, 'the catalogue, in code', async () => ({})),
    op(`premium_balance${s}`, 2, "the store user's GetItem (the session's check) + the balance's GetItem", async (deps) => ({
      token: (await signedIn(deps, region)).session,
    })),
    op(`item_balances${s}`, 2, "the store user's GetItem (the session's check) + one Query of the user's item balances", async (deps) => ({
      token: (await signedIn(deps, region)).session,
    })),
    op(
      `grant${s}`,
      2,
      "one BatchGet (the user, the reference's grant) + one transaction (the grant record, each balance and its ledger entry)",
      async (deps) => {
        const { uid } = await signedIn(deps, region);
        const { client } = await registerClient(deps, {
          region,
          type: 'confidential',
          name: 'bench grants',
          redirect_uris: ['https://bench.example/cb'],
          scopes: ['grants'],
        });
        const key = deps.storeKeys![region];
        const { token } = await signAccessToken(
          key,
          issuer(deps, region),
          { sub: client.client_id, client_id: client.client_id, scope: 'grants', kind: 'client' },
          new Date(),
        );
        return { token, body: { uid, reference: `bench-${randomUUID()}`, currencies: { gem: 5 }, items: { kibble: 2 } } };
      },
    ),
    op(
      `adopt_pet${s}`,
      3,
      "the store user's GetItem (the session's check) + the adoption count's read (with the Idempotency-Key record when one is sent: one BatchGet) + one transaction (count, pet; from the second pet, the gems and their ledger entry; the user there)",
      async (deps) => {
        const { uid, session } = await signedIn(deps, region);
        await adoptPet(deps, region, uid, { name: 'first', species: 'cat' });
        await grantGems(deps, uid);
        return { token: session, body: { name: 'second', species: 'dog' } };
      },
    ),
    op(`pet_query${s}`, 2, "the store user's GetItem (the session's check) + one Query of the user's pets", async (deps) => ({
      token: (await signedIn(deps, region)).session,
    })),
    op(
      `feed_pet${s}`,
      3,
      "the store user's GetItem (the session's check) + the pet's read (with the Idempotency-Key record when one is sent: one BatchGet) + one transaction (pet, food balance, ledger entry, log entry, the user there)",
      async (deps) => {
        const { uid, session } = await signedIn(deps, region);
        const { pet } = await adoptPet(deps, region, uid, { name: 'hungry', species: 'cat' });
        await grantGems(deps, uid, { kibble: 3 });
        return { token: session, body: { petId: pet.petId, item: 'kibble', amount: 1 } };
      },
    ),
    op(`feed_log${s}`, 2, "the store user's GetItem (the session's check) + one Query of the user's log, newest first", async (deps) => ({
      token: (await signedIn(deps, region)).session,
    })),
    op(`rank${s}`, 1, 'one Query of the board index', async () => ({})),
    op(`getUser${s}`, 2, "the session's check of the store user (a GetItem) + the store user's GetItem", async (deps) => {
      return { token: (await signedIn(deps, region)).session };
    }),
    op(
      `userDelete${s}`,
      8,
      "the partner's client GetItem + one BatchGet (the login, the jti) + the start's transaction + three Queries of what is left (the user's partition, the pseudonym's grant entries, the index) + the forfeits' Query + the end's transaction; a user who holds something adds a BatchGet of their grants and a transaction per 50 items",
      async (deps) => {
        const sign = await partnerAssertion(deps, region);
        const sub = `u-${randomUUID()}`;
        await login(deps, region, issuer(deps, region), await sign(sub));
        return { body: { assertion: await sign(sub, deletionAudience(issuer(deps, region))) } };
      },
    ),
  ];
}

export const partnerStoreOperations: OperationBench[] = [
  ...regionOperations('default'),
  ...regionOperations('chengdu'),
  op(
    'tokens',
    3,
    "the client's GetItem + the code's GetItem + one transaction (code used, family, refresh token, the user there); the access token is signed",
    (deps) => codeExchange(deps, 'default'),
  ),
  op('tokens-chengdu', 1, "client_credentials: the client's GetItem", (deps) => serverClient(deps, 'chengdu')),
  ...(['metadata-root', 'metadata-root-chengdu'] as const).map((name) => ({
    ...op(name, 0, 'RFC 8414 §3.1 discovery at the host root: made from the request URL', async (deps) => ({ params: { stage: deps.stage } })),
    base: 'root' as const,
  })),
];
