import * as z from 'zod/mini';
import { EXAMPLE, example } from '../shared/examples.js';
import { answered, pageCursor } from '../shared/fields.js';

const tokenSet = z.enum(['server', 'console']);

/** Revoke the caller's own tokens: its merchant's server tokens, or its console sessions. */
export const RevokeBody = z.lazy(() => z.object({ tokens: tokenSet }));
/** An admin revokes the tokens of any console account. */
export const AdminRevokeBody = z.lazy(() =>
  z.object({ account_id: z.string().check(z.regex(/^[A-Za-z0-9-]{1,64}$/, 'expected a console account id'), example(EXAMPLE.accountId)), tokens: tokenSet }),
);
export const Revoked = z.lazy(() => z.object({ account_id: answered.accountId, tokens: tokenSet, revoked_before: answered.time }));

/**
 * A server token's id (its `jti`): 9 characters of its issue time (epoch milliseconds in base 36, so ids sort by
 * issue time) and 16 random ones (core/access/server-tokens.ts).
 */
const serverTokenId = z.string().check(z.regex(/^[0-9a-z]{9}[A-Za-z0-9_-]{16}$/, 'expected a server token id'), example('0mi7k2x0aQm3v9Zt-Lk2Pq8Rw'));
/** What a studio calls a server token (the game server or the stage it is for): 1-64 characters, no control characters. */
const serverTokenName = z
  .string()
  .check(z.regex(/^(?=.*\S)[^\p{Cc}]{1,64}$/u, 'expected 1-64 characters, not all spaces, no control characters'), example('eu-production'));

/** Issue a named server token. */
export const ServerTokenCreate = z.lazy(() => z.object({ name: serverTokenName }));
/** Revoke one server token, by its id. */
export const ServerTokenRevokeBody = z.lazy(() => z.object({ id: serverTokenId }));
/** A page of the caller's server tokens. */
export const ServerTokenQuery = z.lazy(() => z.object({ cursor: z.optional(pageCursor) }));

/** A server token as listed: never the token itself. `name` is empty for those get_token issued. */
export const ServerTokenEntry = z.lazy(() =>
  z.object({
    id: z.string().check(example('0mi7k2x0aQm3v9Zt-Lk2Pq8Rw')),
    name: z.string().check(example('eu-production')),
    issued_at: answered.time,
    expires_at: answered.time,
    /** Revoked by its id, or by a revocation of all the merchant's server tokens made after it was issued. */
    revoked: z.boolean(),
  }),
);
/** The caller's live (unexpired) server tokens, newest first; `next` the cursor of the page after, null on the last. */
export const ServerTokenPage = z.lazy(() => z.object({ items: z.array(ServerTokenEntry), next: z.nullable(answered.cursor) }));
/** A named server token, issued: the token is answered this once. */
export const ServerTokenIssued = z.lazy(() =>
  z.object({
    accessToken: answered.accessToken,
    expiresAt: answered.time,
    merchant_id: z.int(),
    id: z.string().check(example('0mi7k2x0aQm3v9Zt-Lk2Pq8Rw')),
    name: z.string().check(example('eu-production')),
    issued_at: answered.time,
  }),
);

/** A password change: the current password, and the new one (at least 8 characters, as an account's creation takes). */
export const PasswordChange = z.lazy(() =>
  z.object({
    current_password: z.string().check(z.minLength(1), z.maxLength(256)),
    new_password: z.string().check(z.minLength(8, 'must be at least 8 characters'), z.maxLength(256)),
  }),
);
/** The password changed: every console session issued before it is revoked; this is the caller's new one. */
export const PasswordChanged = z.lazy(() =>
  z.object({
    accessToken: answered.accessToken,
    expiresAt: answered.time,
    account_id: answered.accountId,
    role: z.enum(['merchant', 'admin']),
    /** Console sessions issued up to this instant are refused (the one answered here was issued after it). */
    sessions_revoked_before: answered.time,
  }),
);
