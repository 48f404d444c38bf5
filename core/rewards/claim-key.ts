import { createPrivateKey, createPublicKey, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';

/**
 * The stage's claim key: an Ed25519 key that signs reward claims (sign_code) so that a Move contract can
 * check them with `sui::ed25519::ed25519_verify(&signature, &public_key, &message)`. It is a key of its own
 * (the ClaimSigningKey secret deployed, `claim-key.json` in DATA_DIR locally), not the token key: rotating
 * one never invalidates the other, and the contract holds only this public key.
 *
 * The setting is one of:
 * - a private JWK as JSON (`{"kty":"OKP","crv":"Ed25519","d":…,"x":…}`, what generateClaimKey writes);
 * - a Sui private key in bech32 (`suiprivkey1…`, what `sui keytool generate ed25519` and `sui keytool export`
 *   print), so an operator can use a key made with Sui's own tools;
 * - the claim settings as JSON: `{"key": <either form above, the JWK as an object or as text>, "chain":
 *   "sui:mainnet", "coin_type": "0x2::sui::SUI"}`. `chain` names the network the stage's claims are redeemed
 *   on (RewardClaim.chain, docs/claims.md): `<namespace>:<network>` as wallets name chains, `sui:mainnet`,
 *   `sui:testnet`, `sui:devnet`, `sui:localnet`; `coin_type` the Move type of the coin rewards are paid in
 *   (RewardClaim.coin_type). Either may be left out: claims then bind the defaults of core/rewards/claims.ts
 *   (`sui:mainnet` on production stages, `sui:testnet` elsewhere; `0x2::sui::SUI`).
 */
export interface ClaimSigner {
  readonly scheme: 'ed25519';
  /** The raw public key, 32 bytes: what the Move contract stores. */
  readonly publicKey: Uint8Array;
  /** The network claims are redeemed on, e.g. `sui:mainnet`; undefined: the stage's default (claims.ts). */
  readonly chain?: string;
  /** The Move type of the payout coin, e.g. `0x2::sui::SUI`; undefined: SUI. */
  readonly coinType?: string;
  /** A pure Ed25519 signature (64 bytes) of `message` itself: no hashing, no Sui intent prefix. */
  sign(message: Uint8Array): Promise<Uint8Array>;
}

/** `sui:mainnet`: a namespace and a network name, lower case (CAIP-2 style, as the wallet standard names chains). */
export const CHAIN_NAME = /^[a-z0-9-]{1,16}:[a-z0-9_-]{1,32}$/;
/** A Move coin type such as `0x2::sui::SUI` or `0xabc::usdc::USDC`. */
export const COIN_TYPE = /^0x[0-9a-fA-F]{1,64}::\w+::\w+(<.+>)?$/;

/** A new claim key, as the JSON of its private JWK. */
export function generateClaimKey(): string {
  const { privateKey } = generateKeyPairSync('ed25519');
  return JSON.stringify(privateKey.export({ format: 'jwk' }));
}

/** The signer of a claim key setting; an Error naming the problem when the setting is not a usable key. */
export async function createClaimSigner(setting: string): Promise<ClaimSigner> {
  const { key: keySetting, chain, coinType } = claimSettingsOf(setting.trim());
  const key = await privateKeyOf(keySetting);
  const x = createPublicKey(key).export({ format: 'jwk' }).x;
  if (!x) throw new Error('claim key: not an Ed25519 key');
  const publicKey = new Uint8Array(Buffer.from(x, 'base64url'));
  return {
    scheme: 'ed25519',
    publicKey,
    ...(chain === undefined ? {} : { chain }),
    ...(coinType === undefined ? {} : { coinType }),
    sign: async (message) => new Uint8Array(sign(null, message, key)),
  };
}

/** The key part of a setting and the optional chain and coin of the claim settings form. */
function claimSettingsOf(setting: string): { key: string; chain?: string; coinType?: string } {
  if (!setting.startsWith('{')) return { key: setting };
  let json: Record<string, unknown>;
  try {
    json = JSON.parse(setting) as Record<string, unknown>;
  } catch {
    throw new Error('claim key: expected a private Ed25519 JWK (JSON), a suiprivkey1… key or the claim settings {key, chain, coin_type}');
  }
  // A bare JWK: the key alone.
  if (!('key' in json)) return { key: setting };
  const { key, chain, coin_type: coinType, ...rest } = json;
  const unknown = Object.keys(rest);
  if (unknown.length > 0) throw new Error(`claim settings: unknown field ${unknown[0]}; expected key, chain and coin_type`);
  if (typeof key !== 'string' && (typeof key !== 'object' || key === null || Array.isArray(key))) {
    throw new Error('claim settings: key must be a private Ed25519 JWK (object or JSON text) or a suiprivkey1… key');
  }
  if (chain !== undefined && (typeof chain !== 'string' || !CHAIN_NAME.test(chain))) {
    throw new Error('claim settings: chain must name a network such as sui:mainnet, sui:testnet, sui:devnet or sui:localnet');
  }
  if (coinType !== undefined && (typeof coinType !== 'string' || !COIN_TYPE.test(coinType) || coinType.length > 300)) {
    throw new Error('claim settings: coin_type must be a Move coin type such as 0x2::sui::SUI');
  }
  return {
    key: typeof key === 'string' ? key.trim() : JSON.stringify(key),
    ...(chain === undefined ? {} : { chain }),
    ...(coinType === undefined ? {} : { coinType }),
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
    let decoded: { scheme: string; secretKey: Uint8Array };
    try {
      decoded = decodeSuiPrivateKey(setting);
    } catch {
      throw new Error('claim key: not a valid suiprivkey');
    }
    if (decoded.scheme !== 'ED25519') throw new Error(`claim key: expected an ED25519 key, got ${decoded.scheme}`);
    return createPrivateKey({ key: Buffer.concat([PKCS8_ED25519_PREFIX, Buffer.from(decoded.secretKey)]), format: 'der', type: 'pkcs8' });
  }
  let jwk: Record<string, unknown>;
  try {
    jwk = JSON.parse(setting) as Record<string, unknown>;
  } catch {
    throw new Error('claim key: expected a private Ed25519 JWK (JSON) or a suiprivkey1… key');
  }
  if (jwk.kty !== 'OKP' || jwk.crv !== 'Ed25519' || typeof jwk.d !== 'string')
    throw new Error('claim key: expected a private JWK with kty OKP, crv Ed25519 and d');
  return createPrivateKey({ key: jwk as import('node:crypto').JsonWebKey, format: 'jwk' });
}
