/**
 * Domain errors. Domain modules throw these: each is of one KIND (its class: what went wrong, in words) and
 * carries a stable `code` (`<area>.<reason>`, snake_case) a client can match instead of the message. No status
 * and no headers here: the HTTP layer maps each kind to its status (core/http/error-statuses.ts) and turns the
 * data an error carries (`retryAfterSeconds`, `challenge`) into headers. Messages are shown to callers, so they
 * name the field or rule that failed and never carry secrets.
 *
 * Each domain declares its codes in one place, its `errors.ts` (a catalogue made with `errorCatalogue`), and
 * throws through that catalogue's `fail`, so every code thrown is one the catalogue lists (docs/api.md, "Error
 * codes", is generated from the catalogues and the meanings written above each code).
 */
export type ErrorKind =
  | 'InvalidInput'
  | 'Unauthenticated'
  | 'Forbidden'
  | 'NotFound'
  | 'Conflict'
  | 'PayloadTooLarge'
  | 'UnsupportedMediaType'
  | 'RequestReused'
  | 'RateLimited'
  | 'Unavailable'
  | 'Internal';

/** What an error may carry besides its message, for the HTTP layer to turn into headers. */
export interface ErrorData {
  /** When to try again (Retry-After), for RateLimited and Unavailable. */
  retryAfterSeconds?: number;
  /** The WWW-Authenticate challenge of a refused credential (Unauthenticated, Forbidden). */
  challenge?: string;
}

export abstract class DomainError extends Error {
  abstract readonly kind: ErrorKind;
  readonly retryAfterSeconds?: number;
  readonly challenge?: string;
  constructor(
    readonly code: string,
    message: string,
    data: ErrorData = {},
  ) {
    super(message);
    this.name = new.target.name;
    if (data.retryAfterSeconds !== undefined) this.retryAfterSeconds = data.retryAfterSeconds;
    if (data.challenge !== undefined) this.challenge = data.challenge;
  }
}

/** The request is malformed or breaks a rule of its fields. */
export class InvalidInput extends DomainError {
  readonly kind = 'InvalidInput';
}
/** No credential, or one that is not valid here. */
export class Unauthenticated extends DomainError {
  readonly kind = 'Unauthenticated';
}
/** The caller is known but may not do this. */
export class Forbidden extends DomainError {
  readonly kind = 'Forbidden';
}
export class NotFound extends DomainError {
  readonly kind = 'NotFound';
}
/** The request is valid but the state of what it names refuses it (or changed meanwhile). */
export class Conflict extends DomainError {
  readonly kind = 'Conflict';
}
export class PayloadTooLarge extends DomainError {
  readonly kind = 'PayloadTooLarge';
}
export class UnsupportedMediaType extends DomainError {
  readonly kind = 'UnsupportedMediaType';
}
/** A key or reference that names one request came back with another. */
export class RequestReused extends DomainError {
  readonly kind = 'RequestReused';
}
export class RateLimited extends DomainError {
  readonly kind = 'RateLimited';
}
/** Not now: something the operation needs is not configured or did not answer. */
export class Unavailable extends DomainError {
  readonly kind = 'Unavailable';
}
/** A fault of the server (answered 500 without details). */
export class Internal extends DomainError {
  readonly kind = 'Internal';
}

type KindClass = new (code: string, message: string, data?: ErrorData) => DomainError;
const classOfKind: Record<ErrorKind, KindClass> = {
  InvalidInput,
  Unauthenticated,
  Forbidden,
  NotFound,
  Conflict,
  PayloadTooLarge,
  UnsupportedMediaType,
  RequestReused,
  RateLimited,
  Unavailable,
  Internal,
};

/** One code of a catalogue, its kind, and whether its answers carry a Retry-After header. */
export interface ErrorEntry {
  readonly code: string;
  readonly kind: ErrorKind;
  readonly retryAfter: boolean;
}

/**
 * A code's declaration: its kind, or its kind and `'Retry-After'` for a code whose errors always carry
 * `retryAfterSeconds` (the OpenAPI document declares the header on the answers that may carry such a code).
 */
type Declaration = ErrorKind | readonly [ErrorKind, 'Retry-After'];

export interface ErrorCatalogue<C extends string> {
  /** The area's codes, in the order declared. */
  readonly entries: readonly ErrorEntry[];
  /** The error of `code`, of the kind the catalogue declares for it. */
  fail(code: C, message: string, data?: ErrorData): DomainError;
}

/**
 * A domain's error surface: `{code: kind}` (or `[kind, 'Retry-After']`), each code with what it means in a doc
 * comment above it (docs/api.md's "Error codes" table is generated from those comments,
 * tools/admin/error-table.ts). The meanings live in comments, not strings, so they cost the deployed bundles
 * nothing. `fail` makes the errors.
 */
export function errorCatalogue<const T extends Record<string, Declaration>>(codes: T): ErrorCatalogue<keyof T & string> {
  const kindOf = (declared: Declaration) => (typeof declared === 'string' ? declared : declared[0]);
  return {
    entries: Object.entries(codes).map(([code, declared]) => ({ code, kind: kindOf(declared), retryAfter: typeof declared !== 'string' })),
    fail: (code, message, data) => new classOfKind[kindOf(codes[code]!)](code, message, data),
  };
}

/** The codes of the platform itself: input rules, idempotency, the table, concurrent changes. */
export const platformErrors = errorCatalogue({
  /** a field, parameter or header is missing or breaks its rule (the message names it) */
  'input.invalid': 'InvalidInput',
  /** concurrent requests kept changing the same items; nothing was written; retry */
  'data.changed_concurrently': 'Conflict',
  /** the Idempotency-Key header is not 1-128 letters, digits, _ . : or - */
  'idempotency.key_invalid': 'InvalidInput',
  /** the Idempotency-Key was used for another request of this caller and operation */
  'idempotency.key_reused': 'RequestReused',
  /** the reference was used for another grant with other contents */
  'idempotency.reference_reused': 'RequestReused',
  /** the first request with this Idempotency-Key is still running; retry */
  'idempotency.still_running': 'Conflict',
  /** the table throttled the request, did not answer, or was writing the same items; Retry-After says when to try again */
  'table.busy': ['Unavailable', 'Retry-After'],
  /** the bearer token has expired */
  'auth.token_expired': 'Unauthenticated',
  /** the bearer token is not valid, or not of a kind this operation takes */
  'auth.token_invalid': 'Unauthenticated',
  /** vendor payment signing is not configured on this stage */
  'vendor.signing_unconfigured': 'Unavailable',
  /** the stage has no chain node configured for what the operation reads */
  'chain.unconfigured': 'Unavailable',
  /** the chain node could not be read (it failed or did not answer in time); Retry-After says when to try again */
  'chain.unreadable': ['Unavailable', 'Retry-After'],
  /** the player the request names deleted their account; nothing about them is kept or written */
  'player.deleted': 'NotFound',
  /** the operator console's files were not built for this deployment (docs/console.md) */
  'console.unbuilt': 'Unavailable',
});
export const platformError = platformErrors.fail;

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
 * `{error, error_description}` with `error` the RFC's code (`oauthCode`), and our own code beside it in
 * `error_code`. It wraps the domain error it is (its kind gives the status: `invalid_client` is
 * Unauthenticated, with a Basic challenge when the client authenticated with HTTP Basic, RFC 6749 §5.2).
 */
export class OAuthError extends DomainError {
  readonly kind: ErrorKind;
  constructor(
    readonly oauthCode: OAuthErrorCode,
    error: DomainError,
  ) {
    super(error.code, error.message, error);
    this.kind = error.kind;
  }
}
