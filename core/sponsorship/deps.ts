import type { RewardsDeps } from '../rewards/deps.js';
import type { GasSponsor } from './sponsor-key.js';

/** What sponsored claims need besides rewards' part: the stage's gas sponsor. */
export interface SponsorshipDeps extends RewardsDeps {
  /** The stage's sponsor (SponsorKey); undefined where none is configured: sponsored claims answer 503. */
  sponsor?: GasSponsor;
}
