import { open, storeAuth } from '../../core/http/auth.js';
import { defineGroup, type OperationSpec } from '../../core/http/operation.js';
import * as z from 'zod/mini';
import {
  AcceptBody,
  AcceptResult,
  AuthorizeQuery,
  LoginBody,
  LoginResult,
  MetadataQuery,
  ServerMetadata,
  StageParams,
  StoreJwks,
  StoreUser,
  TokenRequestBody,
  TokenResponse,
  UserDeleted,
  UserInfo,
} from '../../core/partner-store/models.js';
import { regionPath, STORE_REGIONS, type StoreRegion } from '../../core/partner-store/regions.js';
import { batchRead } from './errors.js';
import { storeGameOps } from './store-game.js';

const tokenErrors = {
  400: 'invalid_request (a parameter missing, malformed or given twice; two client authentication methods), invalid_grant (a code or refresh token unknown, expired, used, of another client or region; a wrong redirect_uri or code_verifier), unsupported_grant_type, unauthorized_client (a public client asking for client_credentials), invalid_scope (a scope the client does not have)',
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
      tag: 'partner store',
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
      // One token handler answers the three endpoints: what each refuses is in this list (unsupported_grant_type, …).
      codes: [
        'oauth.client_unauthenticated',
        'oauth.client_unauthorized',
        'oauth.grant_invalid',
        'oauth.grant_type_unsupported',
        'oauth.request_invalid',
        'oauth.scope_invalid',
        'store.unconfigured',
      ],
    }) as const satisfies OperationSpec;
  return {
    metadata: {
      name: `store metadata${suffix}`,
      method: 'GET',
      path: `${at}/.well-known/oauth-authorization-server`,
      tag: 'partner store',
      auth: open,
      tableFree: true,
      summary: `Authorization server metadata of ${which} (RFC 8414)`,
      description:
        'The issuer is this URL without the well-known suffix: the origin the request came to, the stage base path and the region path. Query parameters are ignored; one given twice is 400.',
      query: MetadataQuery,
      status: 200,
      envelope: 'bare',
      response: ServerMetadata,
      errors: { 503: 'the partner store is not configured on this stage (the StoreKeys setting)' },
      codes: ['store.unconfigured'],
    },
    jwks: {
      name: `store jwks${suffix}`,
      method: 'GET',
      path: `${at}/jwks.json`,
      tag: 'partner store',
      auth: open,
      tableFree: true,
      summary: `The public key of ${which}: its access tokens (RFC 9068, typ at+jwt) verify with it and no other`,
      status: 200,
      envelope: 'bare',
      response: StoreJwks,
      errors: { 503: 'the partner store is not configured on this stage (the StoreKeys setting)' },
      codes: ['store.unconfigured'],
    },
    tokens: token(
      `tokens${suffix}`,
      '/oauth/token',
      `Token endpoint of ${which} (RFC 6749 §3.2)`,
      'Form parameters (`application/x-www-form-urlencoded`), each once. Clients authenticate with HTTP Basic (`client_secret_basic`, the id and secret form-encoded) or `client_id` and `client_secret` in the body (`client_secret_post`), one method per request. Grants: `authorization_code` (the code, `redirect_uri` and the PKCE `code_verifier`; public clients send their `client_id` alone), `refresh_token` (rotated: each is used once, and one used twice revokes its whole family, access tokens included; a narrower `scope` may be asked), and `client_credentials` (confidential clients: an access token whose subject is the client, no refresh token). A code used twice is invalid_grant and revokes what its first use issued. Errors are RFC 6749 §5.2 `{error, error_description}`; every answer carries `Cache-Control: no-store`.',
    ),
    clientToken_serve: token(
      `clientToken_serve${suffix}`,
      '/oauth/server-token',
      `Client-credentials token for a confidential partner server (${which})`,
      'The token endpoint for `grant_type=client_credentials` only (RFC 6749 §4.4; other grants are unsupported_grant_type here), as `tokens` answers it: a confidential client authenticates with its secret (Basic or in the body) and gets an access token for itself, with the scopes asked (space-delimited) within its own, or all of them.',
    ),
    clientToken: token(
      `clientToken${suffix}`,
      '/oauth/client-token',
      `Token endpoint for public partner apps (${which})`,
      'The token endpoint for public clients (`token_endpoint_auth_method` none: a mobile or browser app that can keep no secret): `authorization_code` (with PKCE, required for every code) and `refresh_token`, the client naming itself with `client_id`. A confidential client is invalid_client here (it authenticates at `tokens`); client_credentials is unsupported_grant_type. Answers as `tokens` does.',
    ),
    userInfo: {
      name: `userInfo${suffix}`,
      method: 'GET',
      path: `${at}/oauth/userinfo`,
      tag: 'partner store',
      auth: storeAuth({ region, scope: 'profile' }),
      summary: `The claims of an access token's user, OpenID Connect style (${which})`,
      description:
        "A partner app's access token for the user with the `profile` scope (the store session is not an access token). `sub` is the store user id, the same as the token's.",
      status: 200,
      envelope: 'bare',
      response: UserInfo,
      errors: { 404: 'the store user no longer exists' },
      codes: ['store.user_not_found'],
    },
    authorize2: {
      name: `authorize2${suffix}`,
      method: 'GET',
      path: `${at}/oauth/authorize`,
      tag: 'partner store',
      auth: open,
      summary: `Authorization endpoint of ${which} (authorization code with PKCE)`,
      description:
        "RFC 6749 §4.1.1 with RFC 7636: `response_type=code`, `client_id`, `redirect_uri` (exactly a registered one; may be left out when the client has exactly one), `scope` (within the client's; all of them when left out), `state`, `code_challenge` and `code_challenge_method=S256` (required; plain is refused). A valid request answers the consent page (HTML), whose Allow and Deny call accept with the user's store session. An unknown client or a bad redirect URI is 400 here; every other problem redirects to the redirect URI with `error`, `error_description`, `state` and `iss` (RFC 9207).",
      query: AuthorizeQuery,
      status: 200,
      envelope: 'bare',
      response: z.string(),
      // The consent page's one script is a file of its origin (consent script): no script written in the page runs.
      page: {
        headers: {
          'Cache-Control': 'no-store',
          'Content-Security-Policy': "default-src 'none'; script-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
        },
      },
      redirect:
        'the request is refused at the client: `error` (unsupported_response_type, invalid_request, invalid_scope), `error_description`, `state`, `iss`',
      errors: {
        400: 'client_id unknown in this region, or redirect_uri missing or not registered for it',
        503: 'the partner store is not configured on this stage (the StoreKeys setting)',
      },
      codes: ['authorize.client_invalid', 'authorize.redirect_uri_invalid', 'store.unconfigured'],
    },
    consent_script: {
      name: `consent script${suffix}`,
      method: 'GET',
      path: `${at}/oauth/consent.js`,
      tag: 'partner store',
      auth: open,
      tableFree: true,
      summary: `The consent page's script (${which}): its Allow and Deny`,
      description:
        "The script authorize2's consent page loads from its own origin (its policy runs no script written in the page). `v` is the version the page asks for (a hash of the script): the answer may be kept for a year (`Cache-Control: public, max-age=31536000, immutable`), and a changed script is a new URL. Gzipped when the request accepts gzip.",
      query: z.object({ v: z.optional(z.string().check(z.maxLength(64))) }),
      status: 200,
      envelope: 'bare',
      response: z.string(),
      errors: { 400: 'v is longer than 64 characters' },
      raw: true,
      mediaTypes: ['text/javascript'],
    },
    accept: {
      name: `accept${suffix}`,
      method: 'POST',
      path: `${at}/oauth/accept`,
      tag: 'partner store',
      auth: storeAuth({ region, session: true, sessionOnly: true }),
      summary: `The signed-in store user allows or denies a pending authorization request (${which})`,
      description:
        'With the store session (login). `allow` (the default) issues the code: single use, valid 60 s, bound to the user, the client, the redirect URI, the scope and the PKCE challenge; `deny` answers `access_denied`. Either way the request is used up. Answers where to send the user agent: the redirect URI with `code` (or `error`), `state` and `iss`.',
      body: AcceptBody,
      status: 200,
      envelope: 'bare',
      response: AcceptResult,
      errors: { 400: 'request_id or decision malformed', 404: 'no pending request with that id (unknown, used or expired)' },
      codes: ['authorize.request_not_found'],
    },
    login: {
      name: `login${suffix}`,
      method: 'POST',
      path: `${at}/login`,
      tag: 'partner store',
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
        409: "the user's store account is being deleted: user/delete again finishes it, and a login after that makes a new user",
        503: 'the partner store is not configured on this stage (the StoreKeys setting)',
      },
      codes: ['store.assertion_invalid', 'store.unconfigured', 'store.user_deleting'],
    },
    userDelete: {
      name: `user_delete${suffix}`,
      method: 'POST',
      path: `${at}/user/delete`,
      tag: 'partner store',
      auth: open,
      summary: `A partner store user deletes their store account (${which})`,
      description:
        "The credential is a fresh assertion of the partner's backend, with login's claims and checks (its `jti` single use and taken by the deletion) but for its audience: `<issuer>/user/delete`, so that an assertion made to sign the user in can never delete the account. The partner vouches, now, that the person asking is its user `sub`. No store session is needed besides, and none deletes an account alone. The user's pets (and their places on the region's board), adoption count, feedings, OAuth codes, token families, refresh tokens and Idempotency-Key records are deleted; each balance above zero is forfeited; the ledger and the partner's grants are kept for accounting under a pseudonym (`former:<uuid>`) that names nobody. From the deletion's start every store session and access token of the user is refused (401), and once it has answered a login with the same partner user id makes a new, empty store user. A deletion that stopped halfway (a fault, a timeout) is finished by the same request again with a new assertion; requests at once all finish the one deletion. Answers the same for each of them: when the deletion started and what was forfeited.",
      body: LoginBody,
      status: 200,
      envelope: 'bare',
      response: UserDeleted,
      errors: {
        400: 'assertion missing or not a JWT',
        401: 'assertion refused: unknown partner, wrong key or audience, expired, too long-lived, or its jti used already',
        404: "the partner's user `sub` has no store user in this region (never signed in, or deleted already)",
        409: 'deletions of the user at once kept colliding: nothing was written (`data.changed_concurrently`), or the deletion is left unfinished (`store.user_deleting`); send it again to finish it',
        503: `the partner store is not configured on this stage (the StoreKeys setting); ${batchRead[503]}`,
      },
      codes: ['data.changed_concurrently', 'store.assertion_invalid', 'store.unconfigured', 'store.user_deleting', 'store.user_not_found'],
    },
    ...storeGameOps(region),
    getUser: {
      name: `getUser${suffix}`,
      method: 'GET',
      path: `${at}/user`,
      tag: 'partner store',
      auth: storeAuth({ region, session: true, scope: 'profile' }),
      summary: `The signed-in store user (${which})`,
      description: "With the store session, or a partner app's access token for the user with the `profile` scope.",
      status: 200,
      envelope: 'bare',
      response: StoreUser,
      errors: { 404: 'the store user no longer exists' },
      codes: ['store.user_not_found'],
    },
  } satisfies Record<string, OperationSpec>;
}

/** A region's operations, keyed by operation: the default region's keys as they are, another's with `-<region>`. */
type RegionalKeys<T> = { [K in keyof T & string as K | `${K}-${Exclude<StoreRegion, 'default'>}`]: T[K] };

/** `make` of every region (STORE_REGIONS), under the region's keys: what the route table and the handlers both list. */
export function everyRegion<T extends Record<string, unknown>>(make: (region: StoreRegion) => T): RegionalKeys<T> {
  const all: Record<string, unknown> = {};
  for (const region of STORE_REGIONS) {
    for (const [key, value] of Object.entries(make(region))) all[region === 'default' ? key : `${key}-${region}`] = value;
  }
  return all as RegionalKeys<T>;
}

/** One region's operations as a group of their own: the shape every region's handlers take. */
export const regionRoutes = (region: StoreRegion) => defineGroup('partner-store', 'main', regionOps(region));

/**
 * The partner store group (docs/api.md "Partner store"): one OAuth 2.0 authorization server per region, on the main
 * base, each region with the same operations under its path.
 */
export const partnerStoreRoutes = defineGroup(
  'partner-store',
  'main',
  everyRegion((region) => regionRoutes(region).ops),
);

/**
 * RFC 8414 §3.1: the metadata of an issuer with a path is at the host root, the well-known segment inserted
 * before that path: `/.well-known/oauth-authorization-server/<stage>/store[/chengdu]` (what oauth4webapi's
 * discovery asks). Served at the root of the main API (docs/api.md "Partner store", Metadata), beside the
 * issuer's own path.
 */
const rootMetadata = (region: StoreRegion) =>
  ({
    name: `store metadata (RFC 8414)${region === 'default' ? '' : `-${region}`}`,
    method: 'GET',
    path: `/.well-known/oauth-authorization-server/:stage${regionPath(region)}`,
    tag: 'partner store',
    auth: open,
    tableFree: true,
    summary: `Authorization server metadata of the ${region === 'default' ? 'default' : region} region, where RFC 8414 §3.1 puts it`,
    description:
      "The same document as `<issuer>/.well-known/oauth-authorization-server`; `stage` is this stage's name (another is 404). Query parameters are ignored; one given twice is 400.",
    params: StageParams,
    query: MetadataQuery,
    status: 200,
    envelope: 'bare',
    response: ServerMetadata,
    errors: { 404: 'another stage', 503: 'the partner store is not configured on this stage (the StoreKeys setting)' },
    codes: ['store.stage_unknown', 'store.unconfigured'],
  }) as const satisfies OperationSpec;

/** One region's operations at the host root. */
export const regionRootRoutes = (region: StoreRegion) => defineGroup('partner-store', 'root', { 'metadata-root': rootMetadata(region) });

export const partnerStoreRootRoutes = defineGroup(
  'partner-store',
  'root',
  everyRegion((region) => regionRootRoutes(region).ops),
);
