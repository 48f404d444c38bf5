import { open, storeAuth } from '../../core/http/auth.js';
import { defineGroup, type OperationSpec } from '../../core/http/operation.js';
import { LoginBody, LoginResult, ServerMetadata, StoreJwks, StoreUser, TokenRequestBody, TokenResponse } from '../../core/store/models.js';
import { regionPath, type StoreRegion } from '../../core/store/regions.js';

const tokenErrors = {
  400: 'invalid_request (a parameter missing, malformed or given twice; two client authentication methods), unsupported_grant_type, unauthorized_client (a public client asking for client_credentials), invalid_scope (a scope the client does not have)',
  401: 'invalid_client: unknown client, wrong secret, or no client authentication (with a Basic challenge when Basic was used)',
  503: 'temporarily_unavailable: the partner store is not configured on this stage (the StoreKeys setting)',
} as const;

/** The operations every region has, under its path (`/store` or `/store/chengdu`); `suffix` names the region's variants. */
function regionOps(region: StoreRegion) {
  const at = regionPath(region);
  const suffix = region === 'default' ? '' : `-${region}`;
  const which = region === 'default' ? 'the default region' : `the ${region} region`;
  const token = (name: string, path: string, summary: string, description: string) =>
    ({
      name,
      method: 'POST',
      path: `${at}${path}`,
      auth: open,
      summary,
      description,
      body: TokenRequestBody,
      bodyType: 'form',
      errorEnvelope: 'oauth',
      status: 200,
      envelope: 'bare',
      response: TokenResponse,
      errors: tokenErrors,
    }) as const satisfies OperationSpec;
  return {
    metadata: {
      name: `store metadata${suffix}`,
      method: 'GET',
      path: `${at}/.well-known/oauth-authorization-server`,
      auth: open,
      summary: `Authorization server metadata of ${which} (RFC 8414)`,
      description: 'The issuer is this URL without the well-known suffix: the origin the request came to, the stage base path and the region path.',
      status: 200,
      envelope: 'bare',
      response: ServerMetadata,
      errors: { 503: 'the partner store is not configured on this stage (the StoreKeys setting)' },
    },
    jwks: {
      name: `store jwks${suffix}`,
      method: 'GET',
      path: `${at}/jwks.json`,
      auth: open,
      summary: `The public key of ${which}: its access tokens (RFC 9068, typ at+jwt) verify with it and no other`,
      status: 200,
      envelope: 'bare',
      response: StoreJwks,
      errors: { 503: 'the partner store is not configured on this stage (the StoreKeys setting)' },
    },
    tokens: token(
      `tokens${suffix}`,
      '/oauth/token',
      `Token endpoint of ${which} (RFC 6749 §3.2)`,
      'Form parameters (`application/x-www-form-urlencoded`), each once. Clients authenticate with HTTP Basic (`client_secret_basic`, the id and secret form-encoded) or `client_id` and `client_secret` in the body (`client_secret_post`), one method per request. Grants: `client_credentials` (confidential clients: an access token whose subject is the client, no refresh token). Errors are RFC 6749 §5.2 `{error, error_description}`; every answer carries `Cache-Control: no-store`.',
    ),
    clientToken_serve: token(
      `clientToken_serve${suffix}`,
      '/oauth/server-token',
      `Client-credentials token for a confidential partner server (${which})`,
      'The token endpoint for `grant_type=client_credentials` (RFC 6749 §4.4), as `tokens` answers it: a confidential client authenticates with its secret (Basic or in the body) and gets an access token for itself, with the scopes asked (space-delimited) within its own, or all of them.',
    ),
    login: {
      name: `login${suffix}`,
      method: 'POST',
      path: `${at}/login`,
      auth: open,
      summary: `A partner store user signs in (${which})`,
      description:
        "The partner store's backend vouches for its user with a signed assertion, a JWT: header `alg` ES256 or EdDSA (the key registered with its client); claims `iss` its client_id, `sub` its user id (1-128 characters), `aud` this region's issuer, `iat`, `exp` at most 5 minutes later, a unique `jti` (single use), optionally `name`. The first sign-in of a partner's user creates the store user. Answers a store session (a JWT of the region, an hour) for consenting to partner apps and reading the user's own records.",
      body: LoginBody,
      status: 200,
      envelope: 'bare',
      response: LoginResult,
      errors: {
        400: 'assertion missing or not a JWT',
        401: 'assertion refused: unknown partner, wrong key or audience, expired, too long-lived, or its jti used already',
        503: 'the partner store is not configured on this stage (the StoreKeys setting)',
      },
    },
    getUser: {
      name: `getUser${suffix}`,
      method: 'GET',
      path: `${at}/user`,
      auth: storeAuth({ region, session: true, scope: 'profile' }),
      summary: `The signed-in store user (${which})`,
      description: 'With the store session, or a partner app\'s access token for the user with the `profile` scope.',
      status: 200,
      envelope: 'bare',
      response: StoreUser,
      errors: { 401: 'no token, or not a session or access token of this region', 403: 'an access token without the profile scope, or a client token', 404: 'the store user no longer exists' },
    },
  } satisfies Record<string, OperationSpec>;
}

/**
 * The partner store group (API.md "partner store"): one OAuth 2.0 authorization server per region, on the main
 * base. Built so far: each region's metadata, JWKS and token endpoint with the client-credentials grant.
 */
const main = regionOps('default');
const chengdu = regionOps('chengdu');
export const partnerStoreRoutes = defineGroup('partner-store', 'main', {
  metadata: main.metadata,
  jwks: main.jwks,
  tokens: main.tokens,
  clientToken_serve: main.clientToken_serve,
  'metadata-chengdu': chengdu.metadata,
  'jwks-chengdu': chengdu.jwks,
  'tokens-chengdu': chengdu.tokens,
  'clientToken_serve-chengdu': chengdu.clientToken_serve,
  login: main.login,
  'login-chengdu': chengdu.login,
  getUser: main.getUser,
  'getUser-chengdu': chengdu.getUser,
});
