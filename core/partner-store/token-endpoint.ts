import type { TokenDeps } from './deps.js';
import type { ErrorData } from '../platform/errors.js';
import { oauthError } from './errors.js';
import { findClient, scopeWithin, secretMatches, type StoreClient } from './clients.js';
import { CLIENT_ID_RULE, isClientId } from './names.js';
import { codeGrant, refreshGrant } from './grants.js';
import { regionKey, signAccessToken, type StoreRegion } from './regions.js';

/**
 * The token endpoint of a region (RFC 6749 §3.2, §4.4, §5): client authentication, the grants, and the answers
 * in RFC 6749 §5.1's form. Errors are OAuthErrors (§5.2), answered `{error, error_description}` with
 * `Cache-Control: no-store` by the HTTP layer. Grants: `client_credentials` (confidential clients).
 */

export interface TokenRequest {
  grant_type?: string;
  scope?: string;
  client_id?: string;
  client_secret?: string;
  code?: string;
  redirect_uri?: string;
  code_verifier?: string;
  refresh_token?: string;
}

/**
 * Client authentication (RFC 6749 §2.3.1): HTTP Basic with the form-encoded id and secret, or `client_id` and
 * `client_secret` in the body; never both (§2.3: one method per request). A public client names itself with
 * `client_id` alone. Unknown clients and wrong secrets are the same `invalid_client`, 401, with a Basic challenge
 * when the client tried Basic (§5.2).
 */
export async function authenticateClient(deps: TokenDeps, region: StoreRegion, authorization: string | undefined, body: TokenRequest): Promise<StoreClient> {
  const basic = authorization === undefined ? undefined : basicCredentials(authorization);
  if (basic && (body.client_secret !== undefined || (body.client_id !== undefined && body.client_id !== basic.id))) {
    throw oauthError('invalid_request', 'oauth.request_invalid', 'the client authenticated with both HTTP Basic and the body: use one method');
  }
  const id = basic?.id ?? body.client_id;
  const secret = basic?.secret ?? body.client_secret;
  if (id === undefined)
    throw oauthError(
      'invalid_client',
      'oauth.client_unauthenticated',
      'client authentication is required (HTTP Basic, or client_id and client_secret)',
      challenge(authorization),
    );
  const found = await findClient(deps, region, id);
  const refused = () => oauthError('invalid_client', 'oauth.client_unauthenticated', 'client authentication failed', challenge(authorization));
  if (!found) throw refused();
  if (found.client.type === 'confidential' ? secret === undefined || !secretMatches(found.secretHash, secret) : secret !== undefined) throw refused();
  return found.client;
}

const challenge = (authorization: string | undefined): ErrorData =>
  authorization?.match(/^Basic\s/i) ? { challenge: 'Basic realm="partner store", charset="UTF-8"' } : {};

/** The client id and secret of `Authorization: Basic`, each form-urlencoded (RFC 6749 §2.3.1); undefined for another scheme. */
function basicCredentials(header: string): { id: string; secret: string } | undefined {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
  if (!match) {
    if (/^Basic\b/i.test(header))
      throw oauthError('invalid_client', 'oauth.client_unauthenticated', 'Authorization: malformed Basic credentials', challenge(header));
    return undefined;
  }
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) throw oauthError('invalid_client', 'oauth.client_unauthenticated', 'Authorization: malformed Basic credentials', challenge(header));
  let credentials: { id: string; secret: string };
  try {
    credentials = {
      id: decodeURIComponent(decoded.slice(0, colon).replace(/\+/g, ' ')),
      secret: decodeURIComponent(decoded.slice(colon + 1).replace(/\+/g, ' ')),
    };
  } catch {
    throw oauthError('invalid_client', 'oauth.client_unauthenticated', 'Authorization: malformed Basic credentials', challenge(header));
  }
  // The id is looked up by key: one no client can have is refused here, as the body's client_id is at the edge.
  if (!isClientId(credentials.id))
    throw oauthError('invalid_client', 'oauth.client_unauthenticated', `Authorization: the Basic client id must be ${CLIENT_ID_RULE}`, challenge(header));
  return credentials;
}

/**
 * The token endpoint. Grants: `authorization_code` and `refresh_token` (core/partner-store/grants.ts: public clients
 * name themselves with client_id, confidential ones authenticate), and `client_credentials` for confidential
 * clients (RFC 6749 §4.4): an access token for the client itself (its subject is the client id), no refresh
 * token (§4.4.3). `only` restricts the endpoint to some grants (server-token: client_credentials).
 */
export async function tokenEndpoint(
  deps: TokenDeps,
  region: StoreRegion,
  issuer: string,
  authorization: string | undefined,
  body: TokenRequest,
  only?: string[],
  publicOnly = false,
) {
  const key = regionKey(deps, region);
  if (body.grant_type === undefined) throw oauthError('invalid_request', 'oauth.request_invalid', 'grant_type is required');
  const client = await authenticateClient(deps, region, authorization, body);
  if (publicOnly && client.type !== 'public')
    throw oauthError(
      'invalid_client',
      'oauth.client_unauthenticated',
      'this endpoint is for public clients: a confidential client authenticates at the token endpoint',
    );
  if (only && !only.includes(body.grant_type))
    throw oauthError(
      'unsupported_grant_type',
      'oauth.grant_type_unsupported',
      `grant_type ${body.grant_type.slice(0, 64)} is not taken at this endpoint (${only.join(', ')})`,
    );
  if (body.grant_type === 'authorization_code') return codeGrant(deps, region, issuer, client, body);
  if (body.grant_type === 'refresh_token') return refreshGrant(deps, region, issuer, client, body);
  if (body.grant_type !== 'client_credentials')
    throw oauthError('unsupported_grant_type', 'oauth.grant_type_unsupported', `grant_type ${body.grant_type.slice(0, 64)} is not supported here`);
  if (client.type !== 'confidential')
    throw oauthError('unauthorized_client', 'oauth.client_unauthorized', 'client_credentials is for confidential clients (RFC 6749 §4.4)');
  const within = scopeWithin(client.scopes, body.scope);
  if ('outside' in within) throw oauthError('invalid_scope', 'oauth.scope_invalid', `scope: ${within.outside} is not a scope of this client`);
  const { scope } = within;
  const { token, expiresIn } = await signAccessToken(key, issuer, { sub: client.client_id, client_id: client.client_id, scope, kind: 'client' }, deps.now());
  return { access_token: token, token_type: 'Bearer' as const, expires_in: expiresIn, scope };
}
