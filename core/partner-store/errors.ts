import { OAuthError, errorCatalogue, type ErrorData, type OAuthErrorCode } from '../platform/errors.js';

/**
 * The error codes of the partner pet store: its OAuth endpoints (where the answer's `error` is RFC 6749's code
 * and ours is `error_code`), its bearer tokens, sessions, pets and wallet.
 */
export const storeErrors = errorCatalogue({
  /** the partner store is not configured on this stage */
  'store.unconfigured': 'Unavailable',
  /** the path names another stage than this one */
  'store.stage_unknown': 'NotFound',
  /** the token request misses a parameter or authenticates the client twice */
  'oauth.request_invalid': 'InvalidInput',
  /** the client did not authenticate, or is unknown, or its secret is wrong */
  'oauth.client_unauthenticated': 'Unauthenticated',
  /** the client may not use this grant type */
  'oauth.client_unauthorized': 'InvalidInput',
  /** the code or refresh token is not valid (unknown, used, expired, revoked or of another client) */
  'oauth.grant_invalid': 'InvalidInput',
  /** the endpoint does not take this grant type */
  'oauth.grant_type_unsupported': 'InvalidInput',
  /** the scope asked for is wider than the client or the grant */
  'oauth.scope_invalid': 'InvalidInput',
  /** the authorization request names no client of this region */
  'authorize.client_invalid': 'InvalidInput',
  /** the authorization request names no redirect URI registered for the client */
  'authorize.redirect_uri_invalid': 'InvalidInput',
  /** no pending authorization request has this id (unknown, used or expired) */
  'authorize.request_not_found': 'NotFound',
  /** the operation needs a Bearer token and none was sent */
  'store.token_missing': 'Unauthenticated',
  /** the Bearer token is malformed, or not one this operation takes */
  'store.token_invalid': 'Unauthenticated',
  /** the access token lacks the scope the operation needs */
  'store.scope_insufficient': 'Forbidden',
  /** the operation is for a partner backend's own token (client_credentials) */
  'store.token_not_client': 'Forbidden',
  /** the operation acts for a user, and a client's own token acts for none */
  'store.token_not_user': 'Forbidden',
  /** the sign-in assertion is not valid, or was used already */
  'store.assertion_invalid': 'Unauthenticated',
  /** no store user of this id is in the region (or of this partner's user: never signed in, or deleted) */
  'store.user_not_found': 'NotFound',
  /** the store user's deletion has started and not finished: user/delete again finishes it, and nothing else is done for the user until then */
  'store.user_deleting': 'Conflict',
  /** the grant gives nothing */
  'store.grant_empty': 'InvalidInput',
  /** a client's assertion key is not a public ES256 or EdDSA JWK (a private key, another key type, curve or algorithm, or no point of its curve) */
  'store.assertion_key_invalid': 'InvalidInput',
  /** an assertion key was given for a public client: only a confidential client (a partner backend) signs users in */
  'store.assertion_key_public_client': 'InvalidInput',
  /** the caller has no pet of this id */
  'pet.not_found': 'NotFound',
  /** the item is not food */
  'pet.not_food': 'InvalidInput',
  /** the pet was fed too recently */
  'pet.fed_recently': 'Conflict',
  /** the premium balance is less than an adoption costs */
  'pet.gems_short': 'Conflict',
  /** the caller holds fewer of the item than asked for */
  'pet.items_short': 'Conflict',
});
export const storeError = storeErrors.fail;

/** An OAuth endpoint's error: RFC 6749's `oauthCode`, with our code of the catalogue. */
export const oauthError = (oauthCode: OAuthErrorCode, code: Parameters<typeof storeError>[0], message: string, data?: ErrorData) =>
  new OAuthError(oauthCode, storeError(code, message, data));
