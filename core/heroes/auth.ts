import type { HeroesDeps } from './deps.js';

/** hero auth: a hero token (audience `hero`) for the platform token's user. */
export async function heroToken(deps: Pick<HeroesDeps, 'tokens'>, uid: string) {
  const { token, expiresAt } = await deps.tokens.issue('hero', uid);
  return { accessToken: token, expiresAt, userId: uid };
}
