import { storeError } from './errors.js';

/**
 * The challenge of a refused store bearer (docs/api.md "Partner store: the authorization servers", "Bearer
 * challenges"), what OAuth clients such as oauth4webapi read before the body: `Bearer realm="partner store"`
 * alone when the request carried no Bearer token (no error code then), with `error="invalid_token"` and its
 * description when the token is not one the operation takes (401), and `error="insufficient_scope"` with the
 * `scope` needed when an access token lacks it (403). The description is the body's message, kept to the
 * characters a quoted header value may hold (printable ASCII without `"` or `\`).
 */
export const STORE_REALM = 'partner store';

type ChallengeError = { error: 'invalid_token' | 'insufficient_scope'; description: string; scope?: string };

export function bearerChallenge(error?: ChallengeError): string {
  const quoted = (value: string) => `"${value.replace(/[^\x20\x21\x23-\x5b\x5d-\x7e]/g, ' ')}"`;
  const params = [`realm=${quoted(STORE_REALM)}`];
  if (error)
    params.push(`error=${quoted(error.error)}`, `error_description=${quoted(error.description)}`, ...(error.scope ? [`scope=${quoted(error.scope)}`] : []));
  return `Bearer ${params.join(', ')}`;
}

type ChallengedCode = 'store.token_missing' | 'store.token_invalid' | 'store.scope_insufficient';
export const challenged = (code: ChallengedCode, message: string, error?: ChallengeError) => storeError(code, message, { challenge: bearerChallenge(error) });
export const invalidToken = (message: string) => challenged('store.token_invalid', message, { error: 'invalid_token', description: message });
export const insufficientScope = (scope: string) => {
  const message = `token: insufficient scope (needs ${scope})`;
  return challenged('store.scope_insufficient', message, { error: 'insufficient_scope', description: message, scope });
};

/**
 * The refusal of a token whose store user has deleted their store account (or whose deletion has started): the
 * bearer check reads the user, and a write for the user that races the deletion's start is refused by its
 * condition with the same answer.
 */
export const userGone = () => invalidToken('token: its store user has deleted their store account');
