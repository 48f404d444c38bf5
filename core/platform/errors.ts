/**
 * Domain errors. Domain modules throw these; the HTTP layer maps each to its status code and to the
 * envelope of the path that failed (core/http/envelopes.ts). Messages are shown to callers, so they name
 * the field or rule that failed and never carry secrets.
 */
export class AppError extends Error {
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 409 | 413 | 415 | 422 | 429 | 503,
    message: string,
    /** Extra response headers, e.g. Retry-After for a locked account. */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export const badRequest = (message: string) => new AppError(400, message);
export const unauthorized = (message = 'a valid bearer token is required') => new AppError(401, message);
export const forbidden = (message: string) => new AppError(403, message);
export const notFound = (message: string) => new AppError(404, message);
export const conflict = (message: string) => new AppError(409, message);

/** The error codes of RFC 6749 §5.2 (token endpoint) and §4.1.2.1 (authorization endpoint). */
export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'unsupported_response_type'
  | 'invalid_scope'
  | 'access_denied'
  | 'server_error'
  | 'temporarily_unavailable';

/**
 * An error of an OAuth endpoint (an operation with `errorEnvelope: 'oauth'`): answered as RFC 6749 §5.2's
 * `{error, error_description}`. `invalid_client` is 401 with a `WWW-Authenticate` challenge when the client
 * authenticated with HTTP Basic (RFC 6749 §5.2), else 400 or 401 as the caller says.
 */
export class OAuthError extends AppError {
  constructor(
    readonly code: OAuthErrorCode,
    message: string,
    status: 400 | 401 | 503 = 400,
    headers: Record<string, string> = {},
  ) {
    super(status, message, headers);
  }
}
