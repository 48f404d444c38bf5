import type { DomainError, ErrorKind } from '../platform/errors.js';

/**
 * The one place an error's kind becomes an HTTP status (docs/api.md, "Error codes"). Domain code throws kinds
 * (core/platform/errors.ts) and never names a status.
 */
export const statusOfKind = {
  InvalidInput: 400,
  Unauthenticated: 401,
  Forbidden: 403,
  NotFound: 404,
  Conflict: 409,
  PayloadTooLarge: 413,
  UnsupportedMediaType: 415,
  RequestReused: 422,
  RateLimited: 429,
  Unavailable: 503,
  Internal: 500,
} as const satisfies Record<ErrorKind, number>;

/** The headers an error's data becomes: Retry-After for `retryAfterSeconds`, WWW-Authenticate for `challenge`. */
export function headersOf(error: DomainError): Record<string, string> {
  return {
    ...(error.retryAfterSeconds !== undefined && { 'Retry-After': String(error.retryAfterSeconds) }),
    ...(error.challenge !== undefined && { 'WWW-Authenticate': error.challenge }),
  };
}
