import { readFile, writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { exportJWK, generateKeyPair, type JWK } from 'jose';
import { generateSigningJwk, parseTokenKeys, parseVendorKey, type SigningJwk, type TokenKeyRing } from '../../core/platform/tokens.js';

/**
 * The local server's keys, each generated on first start and kept in the data folder (readable by its owner only)
 * so that tokens and signatures stay valid across restarts. Deployed stages use the TokenSigningKey and
 * VendorSigningKey secrets instead.
 *
 * `signing-key.json` holds the token keys in either form the secret takes (one private JWK, or the ring
 * `{"current", "next"?, "previous"?}`), so a ring made by `npm run admin -- rotate-signing-key` can be tried
 * locally by writing it there. `vendor-key.json` holds the vendor PaymentRequest key, a key of its own.
 */
export async function localSigningKey(dataDir: string): Promise<TokenKeyRing> {
  return parseTokenKeys(await keyFile(join(dataDir, 'signing-key.json'), dataDir, async () => JSON.stringify(await generateSigningJwk('token'))));
}

export async function localVendorKey(dataDir: string): Promise<SigningJwk> {
  return parseVendorKey(await keyFile(join(dataDir, 'vendor-key.json'), dataDir, async () => JSON.stringify(await generateSigningJwk('vendor'))))!;
}

/** The development sign-in provider's RS256 key (`dev-sign-in-key.json`, a private JWK), generated on first start. */
export async function localSignInKey(dataDir: string): Promise<JWK> {
  const generate = async () => {
    const { privateKey } = await generateKeyPair('RS256', { extractable: true });
    return JSON.stringify({ ...(await exportJWK(privateKey)), alg: 'RS256', kid: `dev-${Date.now().toString(36)}` });
  };
  return JSON.parse(await keyFile(join(dataDir, 'dev-sign-in-key.json'), dataDir, generate)) as JWK;
}

/** The file's text; a new key written there first if there is no file (a file that does not parse is an error, not replaced). */
async function keyFile(path: string, dataDir: string, generate: () => Promise<string>): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const text = await generate();
  await mkdir(dataDir, { recursive: true });
  try {
    // `wx`: two servers starting on one folder never overwrite each other's key.
    await writeFile(path, text, { mode: 0o600, flag: 'wx' });
    return text;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return readFile(path, 'utf8');
  }
}

/** The gas sponsor's key (`sponsor-key.txt`, Sui's `suiprivkey1…`), generated on first start: the SponsorKey setting's form. */
export async function localSponsorKey(dataDir: string): Promise<string> {
  const { generateSponsorKey } = await import('../../core/sponsorship/sponsor-key.js');
  return keyFile(join(dataDir, 'sponsor-key.txt'), dataDir, generateSponsorKey);
}

/** The partner store's region keys (`store-keys.json`, in the StoreKeys secret's form), generated on first start. */
export async function localStoreKeys(dataDir: string): Promise<string> {
  const { generateStoreKeys } = await import('../../core/partner-store/regions.js');
  return keyFile(join(dataDir, 'store-keys.json'), dataDir, generateStoreKeys);
}
