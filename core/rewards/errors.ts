import { errorCatalogue } from '../platform/errors.js';

/** The error codes of season rewards: history entries, their on-chain claims and the settlement of seasons. */
export const rewardErrors = errorCatalogue({
  /** reward claims are not configured on this stage */
  'claim.unconfigured': 'Unavailable',
  /** the game of the history entry no longer exists */
  'claim.game_gone': 'Conflict',
  /** the game of the history entry has no on-chain object to pay the claim */
  'claim.game_without_object': 'Conflict',
  /** the history entry has no reward to claim */
  'claim.no_reward': 'Conflict',
  /** the history entry is not unclaimed */
  'claim.not_claimable': 'Conflict',
  /** the player has no wallet address to pay the reward to */
  'claim.no_wallet': 'Conflict',
  /** the player's wallet address is not a Sui address */
  'claim.wallet_not_sui': 'Conflict',
  /** the claim was signed the most times it may be without being redeemed */
  'claim.signings_exhausted': 'Conflict',
  /** the history entry has no signed claim yet */
  'claim.not_signed': 'Conflict',
  /** the season has not ended yet */
  'season.not_ended': 'Conflict',
  /** settling a season on demand (history/test) is refused on production stages */
  'season.test_on_production': 'Forbidden',
});
export const rewardError = rewardErrors.fail;
