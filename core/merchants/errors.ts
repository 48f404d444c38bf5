import { errorCatalogue } from '../platform/errors.js';

/** The error codes of merchant accounts (console sign-up and sign-in), merchants and their uploads. */
export const merchantErrors = errorCatalogue({
  /** the password has fewer than 8 characters */
  'account.password_too_short': 'InvalidInput',
  /** an account with this email exists already */
  'account.email_taken': 'Conflict',
  /** the email or the password is wrong */
  'account.credentials_wrong': 'Unauthenticated',
  /** a password change's current password is wrong (it counts as a failed sign-in) */
  'account.password_wrong': 'Forbidden',
  /** too many failed sign-ins to this account from this address; Retry-After says when to try again */
  'account.sign_in_throttled': ['RateLimited', 'Retry-After'],
  /** too many concurrent sign-ins to this account from this address; Retry-After says when to try again */
  'account.sign_in_contended': ['RateLimited', 'Retry-After'],
  /** the account has a merchant already */
  'merchant.exists': 'Conflict',
  /** the account has no merchant yet */
  'merchant.none': 'NotFound',
  /** no merchant has this id */
  'merchant.not_found': 'NotFound',
  /** only admins may read another merchant */
  'merchant.other_merchant': 'Forbidden',
  /** the merchant is suspended */
  'merchant.suspended': 'Forbidden',
  /** the merchant has more games than one status change moves */
  'merchant.too_many_games': 'Conflict',
  /** the body has no single, non-empty file part named "file" */
  'upload.file_invalid': 'InvalidInput',
  /** the file is larger than an upload may be */
  'upload.too_large': 'PayloadTooLarge',
  /** the file is not a png, jpeg, webp or gif image */
  'upload.not_image': 'UnsupportedMediaType',
});
export const merchantError = merchantErrors.fail;
