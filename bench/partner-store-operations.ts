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
import type { Floor, OperationBench, Units } from './operation-bench.js';

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

const op = (name: string, minimum: number, reason: string, units: Units, prepare: OperationBench['prepare'], floor?: Floor): OperationBench => ({
  group: 'partner-store',
  op: name,
  minimum,
  reason,
  units,
  ...(floor && { floor }),
  prepare,
});

/** What the operations that answer from memory cost. */
const NO_TABLE: Units = { write: 0, read: 0, why: 'no table request' };

function regionOperations(region: StoreRegion): OperationBench[] {
  const s = region === 'default' ? '' : `-${region}`;
  return [
    op(`metadata${s}`, 0, 'made from the request URL', NO_TABLE, async () => ({})),
    op(`jwks${s}`, 0, "the region's public key, in memory", NO_TABLE, async () => ({})),
    op(
      `clientToken_serve${s}`,
      1,
      "the client's GetItem (type, scopes, secret hash); the token is signed, not stored",
      { write: 0, read: 1, why: "the client's GetItem, strongly consistent: a deleted client is refused at once" },
      (deps) => serverClient(deps, region),
    ),
    op(
      `authorize2${s}`,
      2,
      "the client's GetItem + PutItem of the pending request (TTL)",
      { write: 1, read: 1, why: "the client's GetItem, strongly consistent (1) + the pending request's Put (1)" },
      async (deps) => ({
        query: (await pendingRequest(deps, region)).query,
      }),
    ),
    op(
      `accept${s}`,
      2,
      "one BatchGet: the session's check of the store user with the pending request (the route's reads) + one transaction (request deleted, code put, the user there)",
      {
        write: 7,
        read: 1.5,
        why: "the store user read fresh (1) + the pending request, eventually consistent as its deletion's condition decides (0.5); one transaction: request deleted, code (2 each) and its entry among the user's items (1), the user checked (2)",
      },
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
      {
        write: 6,
        read: 1.5,
        why: "the client read fresh (1) + the user's login, eventually consistent as the transaction's conditions decide (0.5); one transaction of 3 items for a new user: jti, login, user (6)",
      },
      async (deps) => ({ body: { assertion: await (await partnerAssertion(deps, region))() } }),
    ),
    op(
      `clientToken${s}`,
      3,
      "the client's GetItem + the code's GetItem + one transaction (code used, family, refresh token, the user there)",
      {
        write: 10,
        read: 1.5,
        why: "the client read fresh (1) + the code, eventually consistent as its use's condition decides (0.5); one transaction: code used (2), family and refresh token (2 each) and their entries among the user's items (2), the user checked (2)",
      },
      (deps) => codeExchange(deps, region),
    ),
    op(
      `userInfo${s}`,
      2,
      "one BatchGet (the token's user and family: deletion, revocation) + the store user's GetItem",
      { write: 0, read: 2, why: "the token's user and family read fresh, once (2): the answer is made of the user item the check read" },
      async (deps) => {
        const { pending, code } = await allowedCode(deps, region);
        const tokens = await codeGrant(deps, region, issuer(deps, region), pending.client, {
          code,
          redirect_uri: 'https://bench.example/cb',
          code_verifier: pending.verifier,
        });
        return { token: tokens.access_token };
      },
    ),
    op(`currencies_list${s}`, 0, 'the catalogue, in code', NO_TABLE, async () => ({})),
    op(
      `premium_balance${s}`,
      1,
      "one BatchGet: the session's check of the store user with the balance (the route's reads)",
      { write: 0, read: 2, why: 'the store user read fresh (1) + the balance, strongly consistent (1)' },
      async (deps) => ({
        token: (await signedIn(deps, region)).session,
      }),
    ),
    op(
      `item_balances${s}`,
      2,
      "the session's check of the store user (a BatchGetItem) + one Query of the user's item balances",
      { write: 0, read: 2, why: "the store user read fresh (1) + the item balances' Query, strongly consistent (1)" },
      async (deps) => ({
        token: (await signedIn(deps, region)).session,
      }),
    ),
    op(
      `grant${s}`,
      2,
      "one BatchGet (the user, the reference's grant) + one transaction (the grant record, each balance, one ledger entry of them all)",
      {
        write: 8,
        read: 1,
        why: "the user and the reference's grant, eventually consistent as the transaction's conditions decide (1); one transaction: the grant record, which is also the ledger entry of what it grants (2), each balance (2 × 2), the user checked (2)",
      },
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
      2,
      "one BatchGet, strongly consistent: the session's check of the store user with the adoption count (the route's reads; the Idempotency-Key's record when one is sent) + one transaction (count, pet; from the second pet, the gems and their ledger entry; the user there)",
      {
        write: 11,
        read: 2,
        why: 'the store user and the adoption count in one strongly consistent read (2 × 1); one transaction: count (2), pet (2) and its board entry (1), gems (2), ledger (2), the user checked (2)',
      },
      async (deps) => {
        const { uid, session } = await signedIn(deps, region);
        await adoptPet(deps, region, uid, { name: 'first', species: 'cat' });
        await grantGems(deps, uid);
        return { token: session, body: { name: 'second', species: 'dog' } };
      },
      {
        roundTrips: 2,
        write: 11,
        why: "One read (the session's user with the adoption count, and the key's record when one is sent); the transaction. The count (2), the pet (2) and its board entry (1), the gems (2), their ledger entry (2), the user checked (2).",
      },
    ),
    op(
      `pet_query${s}`,
      2,
      "the session's check of the store user (a BatchGetItem) + one Query of the user's pets",
      { write: 0, read: 1.5, why: "the store user read fresh (1) + the pets' Query, only shown (0.5)" },
      async (deps) => ({
        token: (await signedIn(deps, region)).session,
      }),
    ),
    op(
      `feed_pet${s}`,
      2,
      "one BatchGet, strongly consistent: the session's check of the store user with the pet (the route's reads; the Idempotency-Key's record when one is sent) + one transaction (pet, food balance, ledger entry, log entry, the user there)",
      {
        write: 12,
        read: 2,
        why: 'the store user and the pet in one strongly consistent read (2 × 1); one transaction: pet (2) and its board entry moved (2), food balance (2), ledger (2), log entry (2), the user checked (2)',
      },
      async (deps) => {
        const { uid, session } = await signedIn(deps, region);
        const { pet } = await adoptPet(deps, region, uid, { name: 'hungry', species: 'cat' });
        await grantGems(deps, uid, { kibble: 3 });
        return { token: session, body: { petId: pet.petId, item: 'kibble', amount: 1 } };
      },
    ),
    op(
      `feed_log${s}`,
      2,
      "the session's check of the store user (a BatchGetItem) + one Query of the user's log, newest first",
      { write: 0, read: 1.5, why: "the store user read fresh (1) + the log's Query, only shown (0.5)" },
      async (deps) => ({
        token: (await signedIn(deps, region)).session,
      }),
    ),
    op(`rank${s}`, 1, 'one Query of the board index', { write: 0, read: 0.5, why: 'one Query of the board index' }, async () => ({})),
    op(
      `getUser${s}`,
      2,
      "the session's check of the store user (a BatchGetItem) + the store user's GetItem",
      { write: 0, read: 1, why: "the store user read fresh, once (1): the session's check reads the item the answer is made of" },
      async (deps) => {
        return { token: (await signedIn(deps, region)).session };
      },
    ),
    op(
      `userDelete${s}`,
      7,
      "the partner's client GetItem + one BatchGet (the login, the jti) + the start's transaction + two Queries of what is left (the user's partition, their index partition) + the forfeits' Query + the end's transaction; a user who holds something adds a BatchGet of their grants (through their ledger), one of their indexed items (read back from the table) and a transaction per 50 items",
      {
        write: 10,
        read: 5.5,
        why: "as measured for a user with nothing but a login: the client (1), the login and the jti (2), the start's transaction of 3 items (6), the Queries of what is left, strongly consistent on the user's partition and the pseudonym's so that nothing written just before is missed (2.5), the end's transaction of 2 items (4)",
      },
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
    {
      write: 10,
      read: 1.5,
      why: "as clientToken's: the client read fresh (1) + the code (0.5); one transaction: code used, family and refresh token with their entries, the user checked (10)",
    },
    (deps) => codeExchange(deps, 'default'),
  ),
  op(
    'tokens-chengdu',
    1,
    "client_credentials: the client's GetItem",
    { write: 0, read: 1, why: "the client's GetItem, strongly consistent: a deleted client is refused at once" },
    (deps) => serverClient(deps, 'chengdu'),
  ),
  ...(['metadata-root', 'metadata-root-chengdu'] as const).map((name) => ({
    ...op(name, 0, 'the store metadata at the host root (docs/api.md "Metadata"): made from the request URL', NO_TABLE, async (deps) => ({
      params: { stage: deps.stage },
    })),
    base: 'root' as const,
  })),
];
