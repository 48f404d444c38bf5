import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { generateClaimKey } from '../../core/rewards/claim-key.js';

/**
 * The local server's claim key (sign_code): generated on first start and kept in the data folder (readable by
 * its owner only), so signed claims stay verifiable across restarts. Deployed stages use the ClaimSigningKey
 * secret instead. Returns the setting createClaimSigner takes.
 */
export async function localClaimKey(dataDir: string): Promise<string> {
  const path = join(dataDir, 'claim-key.json');
  try {
    return await readFile(path, 'utf8');
  } catch {
    const key = generateClaimKey();
    await mkdir(dataDir, { recursive: true });
    await writeFile(path, key, { mode: 0o600 });
    return key;
  }
}
