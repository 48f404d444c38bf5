import { randomUUID } from 'node:crypto';
import { base64url, SignJWT, type CryptoKey, type JWK } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { basePathOf } from '../core/http/app.js';
import type { OperationSpec, TokenRule } from '../core/http/operation.js';
import { generateSigningJwk, tokenLifetimes, type TokenKind } from '../core/platform/tokens.js';
import { createAllApps } from '../functions/apps.js';
import { routeTable } from '../functions/routes/index.js';
import { createTestDeps, itemCount, type TestDeps } from './support/deps.js';

/**
 * Forged and misused tokens against every route that takes a platform token (docs/security.md "Forged and misused
 * tokens"): `alg: none`, HS256 signed with the published public key as the secret, a key not in the JWKS (under the
 * real kid and under its own), expired and not-yet-valid tokens, every wrong audience, another stage's issuer, a
 * tampered payload. Each is answered 401 by every such route, and nothing is written. (The partner store's own tokens
 * are attacked in test/store-*.test.ts: other regions, revoked families, session/access confusion.)
 */
let deps: TestDeps;
let app: ReturnType<typeof createAllApps>;
const KINDS: TokenKind[] = ['merchant', 'server', 'platform', 'game', 'hero', 'store'];

beforeAll(async () => {
  deps = await createTestDeps();
  app = createAllApps(deps);
});

/** Every operation whose policy takes platform tokens, with its base. */
const guarded = routeTable.flatMap((group) =>
  Object.values(group.ops)
    .filter((op): op is OperationSpec & { auth: TokenRule } => op.auth !== 'open' && op.auth.store === undefined)
    .map((op) => ({ base: group.base, op })),
);

/** A request to the operation that passes everything before the token check (path, media type, size). */
function requestTo({ base, op }: (typeof guarded)[number], token: string) {
  const path = `${basePathOf(base, deps.stage)}${op.path.replace(/:(\w+)/g, '1')}`;
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  const jsonBody = op.body !== undefined && op.body !== 'multipart' && op.bodyType !== 'form';
  if (jsonBody) headers['content-type'] = 'application/json';
  return app.request(path, { method: op.method, headers, ...(jsonBody ? { body: '{}' } : {}) });
}

const claimsFor = (kind: TokenKind, overrides: Record<string, unknown> = {}) => {
  const iat = Math.floor(Date.now() / 1000);
  return {
    iss: `game-platform/${deps.stage}`,
    aud: kind,
    sub: randomUUID(),
    iat,
    exp: iat + tokenLifetimes[kind],
    role: 'admin',
    merchant_id: 1,
    game_code: 'g',
    ...overrides,
  };
};

/** An unsigned JWT (`alg: none`): header and payload, empty signature. */
const unsigned = (claims: object) =>
  `${base64url.encode(JSON.stringify({ alg: 'none', typ: 'JWT', kid: deps.signingKey.kid }))}.${base64url.encode(JSON.stringify(claims))}.`;

async function foreignKey(kid?: string) {
  const jwk = await generateSigningJwk();
  const { importJWK } = await import('jose');
  return { key: await importJWK(jwk as JWK, 'ES256'), kid: kid ?? jwk.kid };
}

/** The forgeries for a route that accepts `kind` tokens (and not `others`). */
async function forgeries(kind: TokenKind, accepted: readonly TokenKind[]): Promise<[string, string][]> {
  const publicJwk = (await (await app.request(`${basePathOf('main', deps.stage)}/.well-known/jwks.json`)).json()) as { keys: JWK[] };
  const hsSecret = new TextEncoder().encode(JSON.stringify(publicJwk.keys[0]));
  const sameKid = await foreignKey(deps.signingKey.kid);
  const ownKid = await foreignKey();
  const valid = (await deps.tokens.issue(kind, randomUUID(), { role: 'admin', merchant_id: 1, game_code: 'g' })).token;
  const [header, payload, signature] = valid.split('.');
  const tampered = `${header}.${base64url.encode(JSON.stringify({ ...JSON.parse(new TextDecoder().decode(base64url.decode(payload!))), sub: randomUUID() }))}.${signature}`;
  const sign = (claims: object, key: { key: CryptoKey | Uint8Array; kid: string }, alg = 'ES256') =>
    new SignJWT(claims as Record<string, unknown>).setProtectedHeader({ alg, kid: key.kid, typ: 'JWT' }).sign(key.key);
  const now = Math.floor(Date.now() / 1000);
  return [
    ['alg none', unsigned(claimsFor(kind))],
    ['HS256 with the public key as the secret', await sign(claimsFor(kind), { key: hsSecret, kid: deps.signingKey.kid }, 'HS256')],
    ["a key not in the JWKS, under the real key's kid", await sign(claimsFor(kind), sameKid as never)],
    ['a key not in the JWKS, under its own kid', await sign(claimsFor(kind), ownKid as never)],
    ['expired', await signValid(claimsFor(kind, { iat: now - 7200, exp: now - 3600 }))],
    ['not yet valid', await signValid(claimsFor(kind, { nbf: now + 3600 }))],
    ["another stage's issuer", await signValid(claimsFor(kind, { iss: 'game-platform/prod' }))],
    ['a tampered payload', tampered],
    ...KINDS.filter((other) => !accepted.includes(other)).map((other): [string, string] => [`a ${other} token`, '']),
  ];
}

/** Claims signed with the stage's real token key (only the claims are wrong). */
async function signValid(claims: Record<string, unknown>) {
  const { importJWK } = await import('jose');
  const key = await importJWK(deps.signingKey as JWK, 'ES256');
  return new SignJWT(claims).setProtectedHeader({ alg: 'ES256', kid: deps.signingKey.kid, typ: 'JWT' }).sign(key);
}

describe('forged and misused tokens, every route that takes a platform token', () => {
  it(`covers the route table (${guarded.length} operations)`, () => {
    expect(guarded.length).toBeGreaterThan(40);
  });

  it('a genuine token of an accepted kind passes the token check of every route (the control: forgeries fail for being forged)', async () => {
    const refused: string[] = [];
    for (const route of guarded) {
      const { token } = await deps.tokens.issue(route.op.auth.tokens[0]!, randomUUID(), { role: 'admin', merchant_id: 1, game_code: 'g' });
      const res = await requestTo(route, token);
      if (res.status === 401) refused.push(`${route.op.method} ${route.op.path}: ${(await res.text()).slice(0, 120)}`);
    }
    expect(refused).toEqual([]);
  }, 120_000);

  it('answers 401 to every forgery on every route, and writes nothing', async () => {
    const before = await itemCount(deps);
    let sent = 0;
    const accepted: string[] = [];
    for (const route of guarded) {
      const kinds = route.op.auth.tokens;
      for (const [what, forged] of await forgeries(kinds[0]!, kinds)) {
        const token = forged || (await deps.tokens.issue(what.replace(/^a (\w+) token$/, '$1') as TokenKind, randomUUID(), { role: 'admin' })).token;
        const res = await requestTo(route, token);
        sent++;
        // A genuine token of a kind the route refuses on purpose is 403 with its reason (auth.kind_refused).
        const kind = forged ? undefined : (what.replace(/^a (\w+) token$/, '$1') as TokenKind);
        if (kind && route.op.auth.refused?.[kind] !== undefined && res.status === 403) {
          expect(((await res.json()) as { error: string }).error).toBe('auth.kind_refused');
          continue;
        }
        if (res.status !== 401) accepted.push(`${route.op.method} ${route.op.path} with ${what}: ${res.status} ${(await res.text()).slice(0, 120)}`);
      }
    }
    expect(accepted).toEqual([]);
    expect(sent).toBeGreaterThan(guarded.length * 10);
    expect(await itemCount(deps)).toBe(before);
  }, 120_000);
});
