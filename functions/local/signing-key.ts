import { readFile, writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { generateSigningJwk, type SigningJwk } from '../../core/platform/tokens.js';

/**
 * The local server's token key: generated on first start and kept in the data folder (readable by its owner
 * only) so that tokens stay valid across restarts. Deployed stages use the TokenSigningKey secret instead.
 */
export async function localSigningKey(dataDir: string): Promise<SigningJwk> {
  const path = join(dataDir, 'signing-key.json');
  try {
    return JSON.parse(await readFile(path, 'utf8')) as SigningJwk;
  } catch {
    const key = await generateSigningJwk();
    await mkdir(dataDir, { recursive: true });
    await writeFile(path, JSON.stringify(key), { mode: 0o600 });
    return key;
  }
}
