import { randomBytes, randomUUID } from 'node:crypto';
import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod/mini';
import type { PartnerStoreDeps } from './deps.js';
import { RedirectAnswer } from '../platform/redirect.js';
import { storeError } from './errors.js';
import { readItems } from '../platform/batch.js';
import { transactOrFailures } from '../platform/transactions.js';
import { findClient, scopeWithin } from './clients.js';
import { playerItemsKeys } from '../platform/players.js';
import { userGone } from './challenges.js';
import { STORE_REGIONS, type StoreRegion } from './regions.js';
import { liveUserCheck } from './sessions.js';
import { requestKey, codeKey } from './keys.js';

/**
 * The authorization code flow's front half (RFC 6749 §4.1.1-§4.1.2, RFC 7636, RFC 9207): authorize2 checks the
 * partner app's request and keeps it for the user's decision; accept is that decision, by the signed-in store
 * user, and issues the code.
 *
 * Access patterns: "a pending authorization request": pk `STOREAUTHZ#<request_id>`, sk `STOREAUTHZ` (TTL 10
 * minutes); "an authorization code": pk `STORECODE#<SHA-256 of the code>`, sk `STORECODE` (TTL: kept a day past
 * its 60 s life, so a second use is still recognised and revokes what the first issued). Codes are 32 random
 * bytes; only their hash is stored. A code holds its user's uid, so it is in "a player's items that no key leads
 * to" (core/platform/players.ts, gsi6 `STORECODE`), where the user's deletion finds it. A pending request holds no
 * user (it is the partner app's until the user decides), and expires.
 */
export const CODE_SECONDS = 60;
const REQUEST_SECONDS = 600;
/** How long a used or expired code is remembered, to recognise a replay (RFC 6749 §4.1.2). */
const CODE_MEMORY_SECONDS = 24 * 3600;

/** "a code" (codeKey): what it was issued for, until when (`validUntil`), and the family its use started. */
export const StoredCode = z.object({
  region: z.string(),
  client_id: z.string(),
  redirect_uri: z.string(),
  scope: z.string(),
  code_challenge: z.string(),
  uid: z.string(),
  validUntil: z.number(),
  family: z.optional(z.string()),
});

export interface AuthorizeQuery {
  response_type?: string;
  client_id?: string;
  redirect_uri?: string;
  scope?: string;
  state?: string;
  code_challenge?: string;
  code_challenge_method?: string;
}

/** A pending authorization request, as the consent page shows it and (with its expiry) as stored: requestKey. */
const PendingRequest = z.object({
  request_id: z.string(),
  region: z.enum(STORE_REGIONS),
  client_id: z.string(),
  client_name: z.string(),
  redirect_uri: z.string(),
  scope: z.string(),
  state: z.optional(z.string()),
  code_challenge: z.string(),
});
export type PendingRequest = z.infer<typeof PendingRequest>;
export const StoredRequest = z.extend(PendingRequest, { expiresAt: z.number() });

/** Where the user agent goes next: the client's redirect URI with the response's parameters (and `iss`, RFC 9207). */
export function redirectTo(redirectUri: string, issuer: string, params: Record<string, string | undefined>): string {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries({ ...params, iss: issuer })) if (value !== undefined) url.searchParams.set(name, value);
  return url.href;
}

/**
 * authorize2: the client and the redirect URI are checked first, and a problem with either is a 400 answered
 * here (never a redirect: the URI is not trusted, §4.1.2.1); the redirect URI must equal a registered one exactly
 * (§3.1.2.3), and may be left out only when the client has exactly one. Then every other problem redirects
 * there (a RedirectAnswer) with `error` (unsupported_response_type, invalid_request, invalid_scope), the state and `iss`: PKCE is
 * required, with S256 only. A valid request is kept for the user's decision and answered with its id.
 */
export async function authorize(deps: PartnerStoreDeps, region: StoreRegion, issuer: string, query: AuthorizeQuery): Promise<PendingRequest> {
  if (!query.client_id) throw storeError('authorize.client_invalid', 'query.client_id: required');
  const found = await findClient(deps, region, query.client_id);
  if (!found) throw storeError('authorize.client_invalid', `query.client_id: no client ${query.client_id.slice(0, 64)} in this region`);
  const client = found.client;
  const redirectUri = query.redirect_uri ?? (client.redirect_uris.length === 1 ? client.redirect_uris[0] : undefined);
  if (!redirectUri) throw storeError('authorize.redirect_uri_invalid', 'query.redirect_uri: required (the client has several)');
  if (!client.redirect_uris.includes(redirectUri))
    throw storeError('authorize.redirect_uri_invalid', 'query.redirect_uri: not a redirect URI registered for this client (exact match)');
  const fail = (error: string, description: string) =>
    new RedirectAnswer(redirectTo(redirectUri, issuer, { error, error_description: description, state: query.state }));
  if (query.response_type !== 'code') throw fail('unsupported_response_type', 'response_type must be code');
  if (!query.code_challenge) throw fail('invalid_request', 'code_challenge is required (PKCE, RFC 7636)');
  if (query.code_challenge_method !== 'S256') throw fail('invalid_request', 'code_challenge_method must be S256');
  if (!/^[A-Za-z0-9_-]{43}$/.test(query.code_challenge)) throw fail('invalid_request', 'code_challenge must be a base64url SHA-256 (43 characters)');
  const within = scopeWithin(client.scopes, query.scope);
  if ('outside' in within) throw fail('invalid_scope', 'a scope asked is not a scope of this client');
  const { scope } = within;

  const pending: PendingRequest = {
    request_id: randomUUID(),
    region,
    client_id: client.client_id,
    client_name: client.name,
    redirect_uri: redirectUri,
    scope,
    ...(query.state === undefined ? {} : { state: query.state }),
    code_challenge: query.code_challenge,
  };
  const expiresAt = Math.floor(deps.now().getTime() / 1000) + REQUEST_SECONDS;
  await deps.db.send(new PutCommand({ TableName: deps.table, Item: { ...requestKey(pending.request_id), type: 'store_authz', ...pending, expiresAt } }));
  return pending;
}

/**
 * What accept reads first (core/http/operation.ts FirstReads): the pending request, strongly consistent. The
 * authorization layer reads it with the session's user, so it costs no request of its own.
 */
export const acceptReads = (requestId: string) => [requestKey(requestId)];

/**
 * accept: the signed-in store user's decision on a pending request of this region. Allowed: a code (single use,
 * CODE_SECONDS) bound to the user, the client, the redirect URI, the scope and the PKCE challenge; denied:
 * `access_denied`. Either way the request is used up (it is deleted with the code written, on condition it is
 * still there), and the answer says where to send the user agent.
 */
export async function accept(
  deps: PartnerStoreDeps,
  region: StoreRegion,
  issuer: string,
  uid: string,
  input: { request_id: string; decision: 'allow' | 'deny' },
) {
  const [read] = await readItems(deps, acceptReads(input.request_id));
  const item = read && StoredRequest.parse(read);
  const now = deps.now();
  if (!item || item.region !== region || item.expiresAt * 1000 <= now.getTime())
    throw storeError('authorize.request_not_found', 'request_id: no pending authorization request (unknown, used or expired)');
  if (input.decision === 'deny') {
    await deps.db.send(new DeleteCommand({ TableName: deps.table, Key: requestKey(input.request_id) }));
    return {
      redirect_to: redirectTo(item.redirect_uri, issuer, { error: 'access_denied', error_description: 'the user denied the request', state: item.state }),
    };
  }
  const code = randomBytes(32).toString('base64url');
  const nowSeconds = Math.floor(now.getTime() / 1000);
  const failed = await transactOrFailures(deps, [
    { Delete: { TableName: deps.table, Key: requestKey(input.request_id), ConditionExpression: 'attribute_exists(pk)' } },
    {
      Put: {
        TableName: deps.table,
        Item: {
          ...codeKey(code),
          type: 'store_code',
          ...playerItemsKeys(uid, 'STORECODE'),
          region,
          client_id: item.client_id,
          redirect_uri: item.redirect_uri,
          scope: item.scope,
          code_challenge: item.code_challenge,
          uid,
          validUntil: nowSeconds + CODE_SECONDS,
          expiresAt: nowSeconds + CODE_MEMORY_SECONDS,
        },
      },
    },
    liveUserCheck(deps, uid),
  ]);
  if (failed.some((failure) => failure.index === 2)) throw userGone();
  if (failed.length > 0) throw storeError('authorize.request_not_found', 'request_id: no pending authorization request (used meanwhile)');
  return { redirect_to: redirectTo(item.redirect_uri, issuer, { code, state: item.state }) };
}
