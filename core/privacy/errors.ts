import { errorCatalogue } from '../platform/errors.js';

/** The error codes of a player's data rights: the deletion's proof of control and its run. */
export const privacyErrors = errorCatalogue({
  /** the caller has no account (no wallet was ever bound): there is nothing that could prove control of it */
  'deletion.no_account': 'NotFound',
  /** no live deletion message for the account's address; ask deletion/challenge for one */
  'deletion.message_missing': 'Unauthenticated',
  /** the signature is not the account's wallet's signature of its live deletion message */
  'deletion.signature_invalid': 'Unauthenticated',
  /** the account signs in another way: a zkLogin account proves control with an id_token, a wallet account with a signature */
  'deletion.proof_kind_wrong': 'Conflict',
  /** the id_token is of another identity than the account's zkLogin identity */
  'deletion.proof_other_account': 'Forbidden',
  /** the id_token was issued too long ago to count as a fresh proof; sign in with the provider again */
  'deletion.proof_stale': 'Unauthenticated',
  /** the deletion of this account is running in another request; Retry-After says when to ask again */
  'deletion.running': ['Conflict', 'Retry-After'],
});
export const privacyError = privacyErrors.fail;
