import { errorCatalogue } from '../platform/errors.js';

/** The error codes of sign-in: wallets, zkLogin and social id_tokens, and the bindings of users to them. */
export const identityErrors = errorCatalogue({
  /** zkLogin/social sign-in is not configured on this stage */
  'sign_in.unconfigured': 'Unavailable',
  /** the id_token is not readable, not of a known issuer, or does not verify */
  'id_token.invalid': 'Unauthenticated',
  /** the id_token has expired */
  'id_token.expired': 'Unauthenticated',
  /** the issuer's signing keys could not be fetched */
  'id_token.keys_unavailable': 'Unavailable',
  /** the id_token cannot be used for zkLogin */
  'zklogin.token_unusable': 'InvalidInput',
  /** the address has no live sign-in nonce */
  'wallet.nonce_missing': 'Unauthenticated',
  /** the signature is not of the sign-in message by this address */
  'wallet.signature_invalid': 'Unauthenticated',
  /** the sign-in message was used already */
  'wallet.message_used': 'Unauthenticated',
  /** the address, or the user, is bound to another user or address */
  'wallet.bound_to_other_user': 'Conflict',
  /** the platform holds records for this user: only the user may bind a wallet to it */
  'wallet.user_has_records': 'Conflict',
  /** the uuid is of a user who deleted their account: a deleted user id is never signed in to again; sign in with a new uuid */
  'account.deleted': 'Conflict',
  /** the social account is bound to another user */
  'social.bound_to_other_user': 'Conflict',
  /** no user is bound to the social account */
  'social.not_bound': 'NotFound',
});
export const identityError = identityErrors.fail;
