import { errorCatalogue } from '../platform/errors.js';

/** The error codes of sponsored claims. */
export const sponsorErrors = errorCatalogue({
  /** the stage has no gas sponsor (no SponsorKey): claims are redeemed with the player's own gas */
  'sponsor.unconfigured': 'Unavailable',
  /** the transaction kind is not exactly the claim call the sponsor pays for; the message names what differs */
  'sponsor.transaction_refused': 'InvalidInput',
  /** a game's own daily limit is above the stage's: a studio may only lower what the stage sponsors */
  'sponsor.limit_above_stage': 'InvalidInput',
  /** the entry's game has no claim function set for sponsorship (its studio sets one in the console) */
  'sponsor.game_not_sponsored': 'Conflict',
  /** the entry has no claim that can be redeemed now: none signed yet, or it expired (sign_code signs a fresh one) */
  'sponsor.claim_not_ready': 'Conflict',
  /** the entry's reward is paid already: nothing is sponsored that the verifier would refuse */
  'sponsor.already_paid': 'Conflict',
  /** the player's or the game's sponsored claims or gas of the day are used up; Retry-After says when the day ends */
  'sponsor.over_limit': ['RateLimited', 'Retry-After'],
  /** the sponsor's balance is under the stage's threshold, or no gas coin of it was found free of a pending transaction */
  'sponsor.unavailable': ['Unavailable', 'Retry-After'],
});
export const sponsorError = sponsorErrors.fail;
