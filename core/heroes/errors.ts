import { errorCatalogue } from '../platform/errors.js';

/** The error codes of the hero game: its configuration, hero NFTs bound to players, heroes and upgrades. */
export const heroErrors = errorCatalogue({
  /** the hero game is not configured on this stage */
  'hero.unconfigured': 'Unavailable',
  /** the project has no price level the configuration names */
  'hero.price_level_not_found': 'NotFound',
  /** the hero game of this stage is not of the project named */
  'hero.other_project': 'NotFound',
  /** no player has this user id */
  'hero.player_not_found': 'NotFound',
  /** no live object of this id is on chain */
  'hero.object_not_found': 'NotFound',
  /** the object is not a hero NFT */
  'hero.object_not_hero': 'NotFound',
  /** the object is of another type than the hero NFT */
  'hero.object_wrong_type': 'InvalidInput',
  /** the caller has no registered wallet address to own the NFT */
  'hero.no_wallet': 'Conflict',
  /** the hero NFT is bound to another player */
  'hero.bound_to_other': 'Conflict',
  /** the hero NFT is not owned by the caller's wallet address */
  'hero.not_owned': 'Forbidden',
  /** no hero NFT of this id is bound to the caller */
  'hero.not_bound': 'NotFound',
  /** the user has no hero of this id */
  'hero.not_found': 'NotFound',
  /** the upgrade names a hero more than once */
  'hero.item_repeated': 'InvalidInput',
  /** the hero is at the maximum level */
  'hero.max_level': 'Conflict',
});
export const heroError = heroErrors.fail;
