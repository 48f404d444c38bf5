import { errorCatalogue } from '../platform/errors.js';

/** The error codes of season rewards: history entries, their on-chain claims and the settlement of seasons. */
export const rewardErrors = errorCatalogue({
  'claim.unconfigured': ['Unavailable', 'reward claims are not configured on this stage'],
  'claim.game_gone': ['Conflict', 'the game of the history entry no longer exists'],
  'claim.game_without_object': ['Conflict', 'the game of the history entry has no on-chain object to pay the claim'],
  'claim.no_reward': ['Conflict', 'the history entry has no reward to claim'],
  'claim.not_claimable': ['Conflict', 'the history entry is not unclaimed'],
  'claim.no_wallet': ['Conflict', 'the player has no wallet address to pay the reward to'],
  'claim.wallet_not_sui': ['Conflict', "the player's wallet address is not a Sui address"],
  'claim.signings_exhausted': ['Conflict', 'the claim was signed the most times it may be without being redeemed'],
  'claim.not_signed': ['Conflict', 'the history entry has no signed claim yet'],
  'season.range_invalid': ['InvalidInput', 'the season range is not one of its kind (YYYY-MM-DD-MM-DD of its first and last day)'],
  'season.not_ended': ['Conflict', 'the season has not ended yet'],
  'season.test_on_production': ['Forbidden', 'settling a season on demand (history/test) is refused on production stages'],
});
export const rewardError = rewardErrors.fail;
