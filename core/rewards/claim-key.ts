import { createPrivateKey, createPublicKey, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';

/**
 * The stage's claim key: an Ed25519 key that signs reward claims (sign_code) so that a Move contract can
 * check them with `sui::ed25519::ed25519_verify(&signature, &public_key, &message)`. It is a key of its own
 * (the ClaimSigningKey secret deployed, `claim-key.json` in DATA_DIR locally), not the token key: rotating
 * one never invalidates the other, and the contract holds only this public key.
 *
 * The setting is either a private JWK as JSON (`{"kty":"OKP","crv":"Ed25519","d":…,"x":…}`, what
 * generateClaimKey writes) or a Sui private key in bech32 (`suiprivkey1…`, what `sui keytool generate
 * ed25519` and `sui keytool export` print), so an operator can use a key made with Sui's own tools.
 */
export interface ClaimSigner {
  readonly scheme: 'ed25519';
  /** The raw public key, 32 bytes: what the Move contract stores. */
  readonly publicKey: Uint8Array;
  /** A pure Ed25519 signature (64 bytes) of `message` itself: no hashing, no Sui intent prefix. */
  sign(message: Uint8Array): Promise<Uint8Array>;
}

/** A new claim key, as the JSON of its private JWK. */
export function generateClaimKey(): string {
  const { privateKey } = generateKeyPairSync('ed25519');
  return JSON.stringify(privateKey.export({ format: 'jwk' }));
}

/** The signer of a claim key setting; an Error naming the problem when the setting is not a usable key. */
export async function createClaimSigner(setting: string): Promise<ClaimSigner> {
  const key = await privateKeyOf(setting.trim());
  const x = createPublicKey(key).export({ format: 'jwk' }).x;
  if (!x) throw new Error('claim key: not an Ed25519 key');
  const publicKey = new Uint8Array(Buffer.from(x, 'base64url'));
  return {
    scheme: 'ed25519',
    publicKey,
    sign: async (message) => new Uint8Array(sign(null, message, key)),
  };
}

/** createClaimSigner for an optional setting: blank or unset means the stage signs no claims (sign_code is 503). */
export async function claimSignerFromSetting(setting: string | undefined): Promise<ClaimSigner | undefined> {
  return setting?.trim() ? createClaimSigner(setting) : undefined;
}

/** PKCS#8 DER of an Ed25519 private key is this prefix and the 32-byte seed (RFC 8410). */
const PKCS8_ED25519_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

async function privateKeyOf(setting: string): Promise<KeyObject> {
  if (setting.startsWith('suiprivkey')) {
    // Only a stage configured with Sui's bech32 form loads the SDK's decoder.
    const { decodeSuiPrivateKey } = await import('@mysten/sui/cryptography');
    let decoded: { schema: string; secretKey: Uint8Array };
    try {
      decoded = decodeSuiPrivateKey(setting);
    } catch {
      throw new Error('claim key: not a valid suiprivkey');
    }
    if (decoded.schema !== 'ED25519') throw new Error(`claim key: expected an ED25519 key, got ${decoded.schema}`);
    return createPrivateKey({ key: Buffer.concat([PKCS8_ED25519_PREFIX, Buffer.from(decoded.secretKey)]), format: 'der', type: 'pkcs8' });
  }
  let jwk: Record<string, unknown>;
  try {
    jwk = JSON.parse(setting) as Record<string, unknown>;
  } catch {
    throw new Error('claim key: expected a private Ed25519 JWK (JSON) or a suiprivkey1… key');
  }
  if (jwk.kty !== 'OKP' || jwk.crv !== 'Ed25519' || typeof jwk.d !== 'string') throw new Error('claim key: expected a private JWK with kty OKP, crv Ed25519 and d');
  return createPrivateKey({ key: jwk as import('node:crypto').JsonWebKey, format: 'jwk' });
}
