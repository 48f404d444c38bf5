import { errorCatalogue } from '../platform/errors.js';

/** The error codes of ownership: a record the request names, and whose it is (core/http/policy.ts, records.ts). */
export const accessErrors = errorCatalogue({
  /** the record the request names does not exist (or is not the caller's: the same answer, so ids cannot be probed) */
  'access.not_found': 'NotFound',
  /** the record the request names belongs to another merchant */
  'access.other_owner': 'Forbidden',
  /** the project is not of the game the token is for */
  'access.other_game': 'Forbidden',
  /** the merchant keeps the most revoked server tokens that have not expired: revoke them all at once instead */
  'access.too_many_revoked': 'Conflict',
  /** the request names a user other than the signed-in one */
  'auth.not_caller': 'Forbidden',
});
export const accessError = accessErrors.fail;
