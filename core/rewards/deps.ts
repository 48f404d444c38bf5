import type { ChainDeps } from '../chain/deps.js';
import type { ClaimSigner } from './claim-key.js';

/** What rewards need besides the platform's part: the chain (claim events) and the claim key. */
export interface RewardsDeps extends ChainDeps {
  /** The stage's claim key (sign_code); undefined where none is configured: claims answer 503. */
  claims?: ClaimSigner;
}
