import * as z from 'zod/mini';
import { EXAMPLE, example } from '../shared/examples.js';
import { answered } from '../shared/fields.js';

const tokenSet = z.enum(['server', 'console']);

/** Revoke the caller's own tokens: its merchant's server tokens, or its console sessions. */
export const RevokeBody = z.lazy(() => z.object({ tokens: tokenSet }));
/** An admin revokes the tokens of any console account. */
export const AdminRevokeBody = z.lazy(() =>
  z.object({ account_id: z.string().check(z.regex(/^[A-Za-z0-9-]{1,64}$/, 'expected a console account id'), example(EXAMPLE.accountId)), tokens: tokenSet }),
);
export const Revoked = z.lazy(() => z.object({ account_id: answered.accountId, tokens: tokenSet, revoked_before: answered.time }));
