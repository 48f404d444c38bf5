/**
 * The envelopes (docs/api.md, "Bases, envelopes, errors"). Which one a response uses depends on the base and
 * the path:
 * - merchant paths (`/merchant/...`): `{code, message, data}`, `code` equal to the HTTP status; errors carry
 *   `data: null`, or the `data` the operation declares for that status (OperationSpec `errorData`);
 * - account, wallet and store paths: the bare record, or `{data, statusCode, message, totalPage}` for lists and
 *   the contract's wrapped operations; errors are `{statusCode, message}`;
 * - the hero base: bare JSON; errors are `{message, statusCode}`;
 * - OAuth endpoints (an operation's `errorEnvelope: 'oauth'`): RFC 6749 §5.2's `{error, error_description}`.
 * Every error answer carries its stable code (docs/api.md, "Error codes") too: in `error` beside the envelope's
 * fields, and in `error_code` on OAuth endpoints, whose `error` is the RFC's code.
 */
export type ErrorEnvelope = 'merchant' | 'account' | 'hero' | 'oauth';

/** The RFC 6749 error code of a status, where the error carries none of its own (OAuthError does). */
export function oauthCodeOf(status: number): string {
  if (status === 401) return 'invalid_client';
  if (status === 503) return 'temporarily_unavailable';
  if (status >= 500) return 'server_error';
  return 'invalid_request';
}
/**
 * How an operation wraps its result: the merchant envelope; `paged`, a list in `{data, statusCode, message,
 * totalPage}`; `data`, one record in that envelope with totalPage 1; or the bare record.
 */
export type SuccessEnvelope = 'merchant' | 'paged' | 'data' | 'bare';

export function errorEnvelopeOf(base: 'main' | 'hero' | 'root', pathInBase: string): ErrorEnvelope {
  if (base === 'hero') return 'hero';
  return pathInBase === '/merchant' || pathInBase.startsWith('/merchant/') ? 'merchant' : 'account';
}

/**
 * An error in its envelope. `data` is what a merchant-path error carries: null, or what the operation declares
 * for that status (OperationSpec `errorData`, e.g. gamelist's 401 as the contract fixes it).
 */
export function errorBody(envelope: ErrorEnvelope, status: number, message: string, code: string, data: unknown = null, oauthCode?: string) {
  switch (envelope) {
    case 'oauth':
      return { error: oauthCode ?? oauthCodeOf(status), error_description: message, error_code: code };
    case 'merchant':
      return { code: status, message, data: data ?? null, error: code };
    case 'account':
      return { statusCode: status, message, error: code };
    case 'hero':
      return { message, statusCode: status, error: code };
  }
}

export function successBody(envelope: SuccessEnvelope, status: number, result: unknown) {
  switch (envelope) {
    case 'merchant':
      return { code: status, message: 'success', data: result };
    case 'paged': {
      const { data, totalPage } = result as { data: unknown; totalPage?: number };
      return { data, statusCode: status, message: 'success', totalPage: totalPage ?? 1 };
    }
    case 'data':
      return { data: result, statusCode: status, message: 'success', totalPage: 1 };
    case 'bare':
      return result;
  }
}
