import type { HeroesDeps } from '../heroes/deps.js';
import type { IdentityDeps } from '../identity/deps.js';

/** What a player's data rights need: identity's (proofs of control) and the heroes' (NFT bindings released). */
export type PrivacyDeps = IdentityDeps & HeroesDeps;
