import { errorCatalogue } from '../platform/errors.js';

/** The error codes of merchant accounts (console sign-up and sign-in), merchants and their uploads. */
export const merchantErrors = errorCatalogue({
  'account.password_too_short': ['InvalidInput', 'the password has fewer than 8 characters'],
  'account.email_taken': ['Conflict', 'an account with this email exists already'],
  'account.credentials_wrong': ['Unauthenticated', 'the email or the password is wrong'],
  'account.sign_in_throttled': ['RateLimited', 'too many failed sign-ins to this account from this address; Retry-After says when to try again'],
  'account.sign_in_contended': ['RateLimited', 'too many concurrent sign-ins to this account from this address; Retry-After says when to try again'],
  'merchant.exists': ['Conflict', 'the account has a merchant already'],
  'merchant.none': ['NotFound', 'the account has no merchant yet'],
  'merchant.not_found': ['NotFound', 'no merchant has this id'],
  'merchant.other_merchant': ['Forbidden', 'only admins may read another merchant'],
  'merchant.suspended': ['Forbidden', 'the merchant is suspended'],
  'merchant.too_many_games': ['Conflict', 'the merchant has more games than one status change moves'],
  'upload.file_invalid': ['InvalidInput', 'the body has no single, non-empty file part named "file"'],
  'upload.too_large': ['PayloadTooLarge', 'the file is larger than an upload may be'],
  'upload.not_image': ['UnsupportedMediaType', 'the file is not a png, jpeg, webp or gif image'],
});
export const merchantError = merchantErrors.fail;
