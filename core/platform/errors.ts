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
