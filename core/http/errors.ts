import { errorCatalogue } from '../platform/errors.js';

/** The codes of errors the HTTP layer raises itself: bodies, routes, bearer tokens, the policy, faults. */
export const httpErrors = errorCatalogue({
  /** the body is not valid JSON, multipart or form data, or has not the media type its Content-Type says */
  'body.malformed': 'InvalidInput',
  /** the body is larger than the operation takes */
  'body.too_large': 'PayloadTooLarge',
  /** the Content-Type is not one the operation takes */
  'body.unsupported_type': 'UnsupportedMediaType',
  /** no operation has this method and path */
  'route.not_found': 'NotFound',
  /** the operation needs a bearer token and none was sent */
  'auth.token_missing': 'Unauthenticated',
  /** the token was issued before its account signed out everywhere or was suspended */
  'auth.token_revoked': 'Unauthenticated',
  /** the token's player deleted their account; signing in again makes a new account */
  'auth.account_deleted': 'Unauthenticated',
  /** the operation is for admin accounts */
  'auth.admin_only': 'Forbidden',
  /** a valid token of a kind this operation refuses on purpose (the message says why) */
  'auth.kind_refused': 'Forbidden',
  /** an unexpected fault of the server (logged; the answer says nothing more) */
  'server.internal': 'Internal',
});
export const httpError = httpErrors.fail;

/** The code of an error Hono raised itself (a status below 500), by its status. */
export function codeOfHttpException(status: number): string {
  if (status === 413) return 'body.too_large';
  if (status === 415) return 'body.unsupported_type';
  if (status === 401) return 'auth.token_missing';
  if (status === 404) return 'route.not_found';
  return 'body.malformed';
}
