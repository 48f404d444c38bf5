import type { PlatformDeps } from '../platform/deps.js';
import type { IdTokenVerifier } from './id-tokens.js';

/** What identity needs besides the platform's part. */
export interface IdentityDeps extends PlatformDeps {
  /** OpenID Connect id_tokens of the stage's configured providers (zkLogin, social binding). */
  idTokens: IdTokenVerifier;
}
