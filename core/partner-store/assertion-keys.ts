import { importJWK, type JWK } from 'jose';
import * as z from 'zod/mini';

/**
 * The public key a partner backend signs its users' sign-in assertions with (core/partner-store/sessions.ts), as an
 * operator registers it (`npm run admin -- register-store-client … --assertion-jwk`): a public JWK (RFC 7517)
 * of one of the two algorithms login verifies, ES256 (kty EC, crv P-256) or EdDSA (kty OKP, crv Ed25519).
 *
 * A private key is refused rather than stripped: whoever holds it has given the signing key away, and should
 * make a new pair instead of having it stored. Only the members that make the public key are kept, with the
 * algorithm they mean, so the stored key says nothing it was not checked for.
 */
export const AssertionJwk = z.object({
  kty: z.enum(['EC', 'OKP']),
  crv: z.enum(['P-256', 'Ed25519']),
  x: z.string(),
  y: z.optional(z.string()),
  alg: z.enum(['ES256', 'EdDSA']),
});
export type AssertionJwk = z.infer<typeof AssertionJwk>;
export type AssertionAlg = AssertionJwk['alg'];

/** Members that only a private (or symmetric) JWK has (RFC 7518 §6.2.2, §6.3.2, §6.4; RFC 8037 §2). */
const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k'];

/** The algorithms each `alg` member may name for the key's type (RFC 8037 names EdDSA; RFC 9864 Ed25519 too). */
const ALGS: Record<AssertionJwk['kty'], { crv: AssertionJwk['crv']; alg: AssertionAlg; names: string[] }> = {
  EC: { crv: 'P-256', alg: 'ES256', names: ['ES256'] },
  OKP: { crv: 'Ed25519', alg: 'EdDSA', names: ['EdDSA', 'Ed25519'] },
};

/** The algorithm a registered key verifies with. */
export const assertionAlgOf = (jwk: { kty?: unknown }): AssertionAlg => (jwk.kty === 'OKP' ? 'EdDSA' : 'ES256');

/**
 * The registered form of `value`, or an Error saying what is wrong with it: not a JSON object, a private key,
 * another key type, curve or `alg`, a `use` other than `sig`, or coordinates that make no key of its curve.
 */
export async function assertionKeyOf(value: unknown): Promise<AssertionJwk> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('expected a public JWK, a JSON object');
  const jwk = value as Record<string, unknown>;
  const secret = PRIVATE_MEMBERS.find((member) => member in jwk);
  if (secret) throw new Error(`this JWK has a private member (${secret}): register the public key only, and keep the private key with the partner`);
  const kty = String(jwk.kty);
  if (kty !== 'EC' && kty !== 'OKP') throw new Error(`kty ${kty.slice(0, 16)}: the key must be ES256 (kty EC, crv P-256) or EdDSA (kty OKP, crv Ed25519)`);
  const expected = ALGS[kty];
  if (jwk.crv !== expected.crv) throw new Error(`crv ${String(jwk.crv).slice(0, 16)}: an ${kty} key here is ${expected.crv} (${expected.alg})`);
  if (jwk.alg !== undefined && !expected.names.includes(String(jwk.alg)))
    throw new Error(`alg ${String(jwk.alg).slice(0, 16)}: a ${expected.crv} key signs with ${expected.alg}`);
  if (jwk.use !== undefined && jwk.use !== 'sig') throw new Error(`use ${String(jwk.use).slice(0, 16)}: an assertion key is a signature key (use sig)`);
  const coordinates = kty === 'EC' ? ['x', 'y'] : ['x'];
  for (const name of coordinates)
    if (typeof jwk[name] !== 'string') throw new Error(`${name}: missing (a ${expected.crv} public key has ${coordinates.join(' and ')})`);
  const key: AssertionJwk = { kty, crv: expected.crv, x: jwk.x as string, ...(kty === 'EC' ? { y: jwk.y as string } : {}), alg: expected.alg };
  try {
    await importJWK(key as JWK, expected.alg);
  } catch (error) {
    throw new Error(`not a valid ${expected.crv} public key (${(error as Error).message.slice(0, 120)})`);
  }
  return key;
}
