/**
 * The partner store's names and input rules that its models, its domain code and the operator console agree
 * on: its regions, the scopes a client may hold, and what a client id and a redirect URI may be. Plain values
 * and functions only, so a browser bundle may take them.
 */

/** The store's regions: each its own issuer, signing key and client registry (core/partner-store/regions.ts). */
export const STORE_REGIONS = ['default', 'chengdu'] as const;
export type StoreRegion = (typeof STORE_REGIONS)[number];

/**
 * What a client id may be wherever one comes in (a query, a form, HTTP Basic, an assertion's `iss`): printable
 * ASCII characters, at most 64 of them (docs/api.md "Partner store: the authorization servers"). Ours are `sc_` and 16 base64url characters;
 * the bound keeps any id asked for far inside DynamoDB's 2,048-byte limit on a key (`STORECLIENT#…`, and the
 * sign-in keys that hold the id), so a made-up one is refused as input instead of failing the read.
 */
export const CLIENT_ID_MAX = 64;
export const CLIENT_ID_PATTERN = new RegExp(`^[\\x20-\\x7e]{1,${CLIENT_ID_MAX}}$`);
export const CLIENT_ID_RULE = `1-${CLIENT_ID_MAX} printable ASCII characters`;
export const isClientId = (id: string) => CLIENT_ID_PATTERN.test(id);

/** The scopes a partner client may be granted. */
export const STORE_SCOPES = ['profile', 'currencies', 'items', 'pets', 'grants'] as const;

/** The loopback hosts a redirect URI may name with plain http (a native app's local listener). */
const LOOPBACK_HOSTS = ['localhost', '127.0.0.1', '[::1]'];

/** redirectUriProblem's rule in words, for the OpenAPI document (a generated client keeps descriptions). */
export const REDIRECT_URI_RULE =
  "An absolute URI without a fragment (#…); plain http only for a loopback host (localhost, 127.0.0.1, [::1]); another scheme (https, or a native app's own such as com.example.app:/cb) for any host.";

/**
 * What is wrong with a redirect URI a client is registered with, or undefined when nothing is: it must be an
 * absolute URI without a fragment (the authorization server appends the code to it as a query); plain http only
 * for a loopback host (anywhere else the code would cross the network unprotected); a native app's own scheme
 * (`com.example.app:/cb`) is allowed. The body's model (core/partner-store/models.ts) and registerClient both
 * apply it.
 */
export function redirectUriProblem(uri: string): string | undefined {
  if (!URL.canParse(uri)) return 'expected an absolute URI';
  const url = new URL(uri);
  if (url.hash || uri.includes('#')) return 'must not have a fragment';
  if (url.protocol === 'http:' && !LOOPBACK_HOSTS.includes(url.hostname)) return 'http is for loopback addresses only (localhost, 127.0.0.1, [::1])';
  return undefined;
}
