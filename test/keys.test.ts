import { createPublicKey, verify } from 'node:crypto';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Secp256r1PublicKey } from '@mysten/sui/keypairs/secp256r1';
import { SignJWT, decodeProtectedHeader, importJWK, type JWK } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { composeApps, createGroupApp } from '../core/http/app.js';
import { defineGroup } from '../core/http/operation.js';
import type { Deps } from '../core/deps.js';
import {
  compressedPublicKey,
  createTokenService,
  generateSigningJwk,
  parseTokenKeys,
  parseVendorKey,
  rotateTokenKeys,
  tokenLifetimes,
  serializeTokenKeys,
  type SigningJwk,
  type TokenKeyRing,
} from '../core/platform/tokens.js';
import { createInnerApp } from '../functions/inner.js';
import { createMetaApp } from '../functions/meta.js';
import { localSigningKey, localVendorKey } from '../tools/local/signing-key.js';
import { innerGoodsOps } from '../functions/routes/goods.js';
import { innerGoodsHandlers } from '../functions/handlers/goods.js';
import { call } from './support/http.js';
import { createTestDeps, itemCount, type TestDeps } from './support/deps.js';
import { merchantWithToken } from './support/merchants.js';
import { merchantWithProject, player, putPayOrder } from './support/goods.js';

/**
 * One key per purpose (docs/security.md "Key custody and rotation"): tokens and vendor PaymentRequests are signed
 * with separate keys, each with a kid; the token verifier takes a key ring (current, next, previous) chosen by the
 * token's kid, and JWKS publishes the ring, so a rotation (README "Rotating the token key") never breaks a live
 * token.
 */
let deps: TestDeps;
const base = '/v2-testing';
const issuer = 'game-platform/v2-testing';

beforeAll(async () => {
  deps = await createTestDeps();
});

/** The stage as deployed with this ring: the same table and clock, the ring's token service. */
async function stageWith(ring: TokenKeyRing | SigningJwk, extra: { vendorKey?: SigningJwk } = {}) {
  const tokens = await createTokenService({ signingKey: ring, issuer, now: deps.now, ...extra });
  const on: Deps = { ...deps, tokens };
  return { tokens, inner: createInnerApp(on), meta: createMetaApp(on) };
}

const kidOf = (token: string) => decodeProtectedHeader(token).kid;
const jwksOf = async (meta: Awaited<ReturnType<typeof stageWith>>['meta']) => {
  const res = await call(meta, 'GET', `${base}/.well-known/jwks.json`);
  expect(res.status).toBe(200);
  return res.body as { keys: JWK[] };
};
const merchantInfo = (stage: Awaited<ReturnType<typeof stageWith>>, token: string) => call(stage.inner, 'GET', `${base}/merchant/info`, { token });

describe('token key ring', () => {
  it('keeps the original secret form (one private JWK) valid: it signs, verifies and is published with kid, alg and use', async () => {
    const key = await generateSigningJwk();
    const stage = await stageWith(parseTokenKeys(JSON.stringify(key)));
    const owner = await merchantWithToken(deps);
    const { token } = await stage.tokens.issue('merchant', owner.accountId, { role: 'merchant', email: owner.email });
    expect(kidOf(token)).toBe(key.kid);
    expect((await merchantInfo(stage, token)).status).toBe(200);
    const jwks = await jwksOf(stage.meta);
    expect(jwks).toEqual({ keys: [{ kty: 'EC', crv: 'P-256', x: key.x, y: key.y, kid: key.kid, alg: 'ES256', use: 'sig' }] });
  });

  it('rotates without breaking a live token: next is published first, promote keeps the old key as previous until its tokens expire, retire refuses them', async () => {
    const owner = await merchantWithToken(deps);
    const start = new Date(Date.now() - 60_000);
    deps.setNow(start);
    try {
      // Before: one key. A server token (the longest-lived kind) is issued with it.
      const ring0: TokenKeyRing = { current: await generateSigningJwk() };
      const stage0 = await stageWith(ring0);
      const old = await stage0.tokens.issue('merchant', owner.accountId, { role: 'merchant', email: owner.email });
      const oldServer = await stage0.tokens.issue('server', owner.accountId, { merchant_id: owner.merchant.id });
      expect(kidOf(old.token)).toBe(ring0.current.kid);

      // Step 1, next: the new key is published but does not sign yet.
      const ring1 = await rotateTokenKeys(ring0, 'next');
      expect(ring1.current).toEqual(ring0.current);
      const stage1 = await stageWith(ring1);
      expect((await jwksOf(stage1.meta)).keys.map((k) => k.kid)).toEqual([ring0.current.kid, ring1.next!.kid]);
      expect(kidOf((await stage1.tokens.issue('merchant', owner.accountId)).token)).toBe(ring0.current.kid);
      expect((await merchantInfo(stage1, old.token)).status).toBe(200);

      // Step 2, promote: the new key signs; the old one verifies what it signed. During the deploy, functions still
      // on ring 1 accept the new key's tokens (it is their next key), and functions on ring 2 accept the old ones.
      const ring2 = await rotateTokenKeys(ring1, 'promote');
      expect(ring2.current).toEqual(ring1.next);
      expect(ring2.previous).toEqual({ kty: 'EC', crv: 'P-256', x: ring0.current.x, y: ring0.current.y, kid: ring0.current.kid, alg: 'ES256', use: 'sig' });
      expect(JSON.stringify(ring2.previous)).not.toContain(ring0.current.d);
      const stage2 = await stageWith(parseTokenKeys(serializeTokenKeys(ring2)));
      const fresh = await stage2.tokens.issue('merchant', owner.accountId, { role: 'merchant', email: owner.email });
      expect(kidOf(fresh.token)).toBe(ring2.current.kid);
      expect((await merchantInfo(stage2, fresh.token)).status).toBe(200);
      expect((await merchantInfo(stage2, old.token)).status).toBe(200);
      expect((await merchantInfo(stage1, fresh.token)).status).toBe(200);
      expect((await merchantInfo(stage0, fresh.token)).status).toBe(401);
      // JWKS lists both during the overlap, public halves only.
      const overlap = await jwksOf(stage2.meta);
      expect(overlap.keys.map((k) => k.kid)).toEqual([ring2.current.kid, ring0.current.kid]);
      for (const key of overlap.keys) {
        expect(key).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig' });
        expect(key).not.toHaveProperty('d');
      }

      // The old server token still verifies on the last second of its life, and expires then like any token.
      const serverClaims = await stage2.tokens.verify(oldServer.token, ['server']);
      deps.setNow(new Date(serverClaims.exp * 1000 - 1000));
      await expect(stage2.tokens.verify(oldServer.token, ['server'])).resolves.toMatchObject({ merchant_id: owner.merchant.id });
      deps.setNow(new Date(serverClaims.exp * 1000 + 1000));
      await expect(stage2.tokens.verify(oldServer.token, ['server'])).rejects.toMatchObject({ kind: 'Unauthenticated', message: 'token has expired' });
      expect(serverClaims.exp - Math.floor(start.getTime() / 1000)).toBe(Math.max(...Object.values(tokenLifetimes)));
      deps.setNow(start);

      // Step 3, retire: the old key is gone; a token it signed is refused even within its lifetime.
      const ring3 = await rotateTokenKeys(ring2, 'retire');
      const stage3 = await stageWith(ring3);
      expect((await jwksOf(stage3.meta)).keys.map((k) => k.kid)).toEqual([ring2.current.kid]);
      const refused = await merchantInfo(stage3, old.token);
      expect(refused.status).toBe(401);
      expect(refused.body.message).toBe('token is invalid');
      await expect(stage3.tokens.verify(oldServer.token, ['server'])).rejects.toMatchObject({ kind: 'Unauthenticated' });
      expect((await merchantInfo(stage3, fresh.token)).status).toBe(200);
    } finally {
      deps.setNow(undefined);
    }
  });

  it('refuses rotation steps out of order, so that no step drops a key whose tokens may be live', async () => {
    const ring: TokenKeyRing = { current: await generateSigningJwk() };
    await expect(rotateTokenKeys(ring, 'promote')).rejects.toThrow(/no next key/);
    await expect(rotateTokenKeys(ring, 'retire')).rejects.toThrow(/no previous key/);
    const staged = await rotateTokenKeys(ring, 'next');
    await expect(rotateTokenKeys(staged, 'next')).rejects.toThrow(/staged as next already/);
    const promoted = await rotateTokenKeys(staged, 'promote');
    const stagedAgain = await rotateTokenKeys(promoted, 'next');
    await expect(rotateTokenKeys(stagedAgain, 'promote')).rejects.toThrow(/retire it first/);
    // A compromised key: replace leaves one new key and nothing else.
    const replaced = await rotateTokenKeys(stagedAgain, 'replace');
    expect(Object.keys(replaced)).toEqual(['current']);
    expect([ring.current.kid, staged.next!.kid, stagedAgain.next!.kid]).not.toContain(replaced.current.kid);
  });

  it('chooses the key by kid: a token whose kid is unknown, missing, or names a ring key it was not signed with is refused', async () => {
    const ring = await rotateTokenKeys({ current: await generateSigningJwk() }, 'next');
    const stage = await stageWith(ring);
    const owner = await merchantWithToken(deps);
    const sign = async (key: SigningJwk, header: { kid?: string }) =>
      new SignJWT({ role: 'merchant', email: owner.email })
        .setProtectedHeader({ alg: 'ES256', ...header })
        .setIssuer(issuer)
        .setAudience('merchant')
        .setSubject(owner.accountId)
        .setIssuedAt()
        .setExpirationTime('1h')
        .sign(await importJWK(key, 'ES256'));
    const stranger = await generateSigningJwk();
    expect((await merchantInfo(stage, await sign(ring.next!, { kid: ring.next!.kid }))).status).toBe(200);
    expect((await merchantInfo(stage, await sign(stranger, { kid: stranger.kid }))).status).toBe(401);
    expect((await merchantInfo(stage, await sign(ring.current, {}))).status).toBe(401);
    // Signed by the next key but naming the current one: the kid picks the current key, whose check fails.
    expect((await merchantInfo(stage, await sign(ring.next!, { kid: ring.current.kid }))).status).toBe(401);
    expect((await merchantInfo(stage, await sign(stranger, { kid: ring.current.kid }))).status).toBe(401);
  });

  it('verifies with public keys alone where a function never issues (the TokenPublicKeys link), and refuses to issue there', async () => {
    const ring = await rotateTokenKeys({ current: await generateSigningJwk() }, 'next');
    const signer = await createTokenService({ signingKey: ring, issuer });
    const verifier = await createTokenService({ verifyKeys: signer.jwks().keys, issuer });
    const { token } = await signer.issue('game', 'user-1', { game_code: 'g1' });
    await expect(verifier.verify(token, ['game'])).resolves.toMatchObject({ sub: 'user-1', game_code: 'g1' });
    expect(verifier.jwks()).toEqual(signer.jwks());
    await expect(verifier.issue('game', 'user-1')).rejects.toThrow(/only the public token keys/);
  });

  it('refuses malformed settings naming the problem, never the key material', async () => {
    const key = await generateSigningJwk();
    const { d, ...publicOnly } = key;
    const attempts: [unknown, RegExp][] = [
      ['not json', /as JSON/],
      [publicOnly, /private JWK/],
      [{ current: publicOnly }, /current: expected a private JWK/],
      [{ current: key, next: { ...key } }, /same kid|same key/],
      [{ current: key, previous: { ...publicOnly, kid: 'other' } }, /same key appears twice/],
      [{ current: { ...key, kty: 'RSA' } }, /EC P-256/],
      [{ current: { ...key, kid: undefined } }, /no kid/],
      [{ curent: key }, /unknown field curent/],
    ];
    for (const [setting, message] of attempts) {
      let error: Error | undefined;
      try {
        parseTokenKeys(typeof setting === 'string' ? setting : JSON.stringify(setting));
      } catch (caught) {
        error = caught as Error;
      }
      expect(error?.message, JSON.stringify(setting).slice(0, 40)).toMatch(message);
      expect(error!.message).not.toContain(d);
      expect(error!.message).not.toContain(key.x!);
    }
    expect(() => parseVendorKey(JSON.stringify(publicOnly))).toThrow(/vendor key: expected a private JWK/);
    expect(parseVendorKey('')).toBeUndefined();
  });
});

describe('vendor PaymentRequest key', () => {
  const vendorApp = (on: Deps) => composeApps(on.stage, [createGroupApp(on, defineGroup('inner', 'main', innerGoodsOps), innerGoodsHandlers)]);

  it('signs with a key of its own: the public key differs from every token key, and no token key verifies the signature', async () => {
    const owner = await merchantWithProject(deps);
    const buyer = await player(deps);
    const order = await putPayOrder(deps, { userId: buyer.uid, projectName: owner.project.project_name, receiveAddress: owner.project.receive_address });
    const res = await call(vendorApp(deps), 'GET', `${base}/wallet/vendor/signature`, { token: buyer.token, query: { billNo: order.bill_no } });
    expect(res.status).toBe(200);
    const message = Buffer.from(res.body.data.message, 'hex');
    const signature = Buffer.from(res.body.data.signature, 'base64');
    const publicKey = Buffer.from(res.body.data.public_key, 'base64');

    expect(publicKey.equals(Buffer.from(compressedPublicKey(deps.vendorKey)))).toBe(true);
    expect(await new Secp256r1PublicKey(publicKey).verify(message, signature)).toBe(true);
    const tokenKeys = deps.tokens.jwks().keys;
    expect(tokenKeys.length).toBeGreaterThan(0);
    for (const key of tokenKeys) {
      expect(publicKey.equals(Buffer.from(compressedPublicKey(key)))).toBe(false);
      const nodeKey = createPublicKey({ key: { kty: 'EC', crv: 'P-256', x: key.x!, y: key.y! }, format: 'jwk' });
      expect(verify('sha256', message, { key: nodeKey, dsaEncoding: 'ieee-p1363' }, signature)).toBe(false);
    }
    // The vendor key is never published as a token key, and never verifies a token.
    expect(tokenKeys.map((k) => k.x)).not.toContain(deps.vendorKey.x);
    const forged = await new SignJWT({})
      .setProtectedHeader({ alg: 'ES256', kid: deps.vendorKey.kid })
      .setIssuer(issuer)
      .setAudience('platform')
      .setSubject(buyer.uid)
      .setExpirationTime('1h')
      .sign(await importJWK(deps.vendorKey, 'ES256'));
    await expect(deps.tokens.verify(forged, ['platform'])).rejects.toMatchObject({ kind: 'Unauthenticated' });
  });

  it('answers 503 where the stage has no vendor key, reading and writing nothing', async () => {
    const tokens = await createTokenService({ signingKey: deps.signingKey, issuer, now: deps.now });
    expect(tokens.vendor).toBeUndefined();
    const owner = await merchantWithProject(deps);
    const buyer = await player(deps);
    const order = await putPayOrder(deps, { userId: buyer.uid, projectName: owner.project.project_name, receiveAddress: owner.project.receive_address });
    const before = await itemCount(deps);
    const res = await call(vendorApp({ ...deps, tokens }), 'GET', `${base}/wallet/vendor/signature`, { token: buyer.token, query: { billNo: order.bill_no } });
    expect(res.status).toBe(503);
    expect(res.body.message).toBe('vendor payment signing is not configured on this stage');
    expect(await itemCount(deps)).toBe(before);
    await expect(tokens.signBytes(new Uint8Array([1]))).rejects.toMatchObject({ kind: 'Unavailable' });
  });

  it('refuses a vendor key that is one of the token keys', async () => {
    const ring = await rotateTokenKeys({ current: await generateSigningJwk() }, 'next');
    await expect(createTokenService({ signingKey: ring, vendorKey: ring.current, issuer })).rejects.toThrow(/key of its own/);
    await expect(createTokenService({ signingKey: ring, vendorKey: { ...ring.next!, kid: 'renamed' }, issuer })).rejects.toThrow(/key of its own/);
  });
});

describe('local keys (DATA_DIR)', () => {
  it('generates the token and vendor keys once, separately, readable by the owner only, and reads a ring written there', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'keys-'));
    const ring = await localSigningKey(dir);
    const vendor = await localVendorKey(dir);
    expect(await localSigningKey(dir)).toEqual(ring);
    expect(await localVendorKey(dir)).toEqual(vendor);
    expect(vendor.x).not.toBe(ring.current.x);
    for (const file of ['signing-key.json', 'vendor-key.json']) expect(statSync(join(dir, file)).mode & 0o777).toBe(0o600);
    // The file written before rings existed (one private JWK) is read as before.
    expect(JSON.parse(readFileSync(join(dir, 'signing-key.json'), 'utf8'))).toEqual(ring.current);
    const rotated = await rotateTokenKeys(ring, 'next');
    writeFileSync(join(dir, 'signing-key.json'), serializeTokenKeys(rotated));
    expect(await localSigningKey(dir)).toEqual(rotated);
    writeFileSync(join(dir, 'vendor-key.json'), 'garbage');
    await expect(localVendorKey(dir)).rejects.toThrow(/vendor key/);
  });
});

describe('npm run admin -- key commands', () => {
  const run = (args: string[], input?: string) =>
    new Promise<{ stdout: string; stderr: string }>((resolve, reject) => {
      const child = execFile('npx', ['tsx', 'tools/admin/cli.ts', ...args], { cwd: process.cwd() }, (error, stdout, stderr) =>
        error ? reject(Object.assign(error, { stdout, stderr })) : resolve({ stdout, stderr }),
      );
      child.stdin!.end(input ?? '');
    });

  it('generates keys and rotates a ring read from stdin: key material on stdout only, kids on stderr', async () => {
    const generated = await run(['generate-signing-key']);
    const ring0 = parseTokenKeys(generated.stdout);
    expect(generated.stderr).toContain(ring0.current.kid);
    expect(generated.stderr).not.toContain(ring0.current.d);

    const next = await run(['rotate-signing-key', '--step', 'next', '--from', '-'], generated.stdout);
    const ring1 = parseTokenKeys(next.stdout);
    expect(ring1.current).toEqual(ring0.current);
    expect(ring1.next).toMatchObject({ kid: expect.any(String), d: expect.any(String) });
    expect(ring1.next!.kid).not.toBe(ring0.current.kid);
    expect(next.stderr).toContain(`next ${ring1.next!.kid}`);
    for (const key of [ring0.current, ring1.next!]) expect(next.stderr).not.toContain(key.d);

    const dir = mkdtempSync(join(tmpdir(), 'rotate-'));
    writeFileSync(join(dir, 'ring.json'), next.stdout);
    const promoted = parseTokenKeys((await run(['rotate-signing-key', '--step', 'promote', '--from', join(dir, 'ring.json')])).stdout);
    expect(promoted.current).toEqual(ring1.next);
    expect(promoted.previous?.kid).toBe(ring0.current.kid);
    expect(promoted.previous).not.toHaveProperty('d');

    await expect(run(['rotate-signing-key', '--step', 'promote', '--from', '-'], generated.stdout)).rejects.toMatchObject({
      stderr: expect.stringContaining('no next key'),
    });

    const vendor = await run(['generate-vendor-key']);
    const vendorKey = parseVendorKey(vendor.stdout)!;
    expect(vendor.stderr).toContain(Buffer.from(compressedPublicKey(vendorKey)).toString('hex'));
    expect(vendor.stderr).not.toContain(vendorKey.d);
  }, 60_000);
});
