import * as z from 'zod/mini';
import { idToken } from '../identity/models.js';

/** deletion/challenge's answer: the single-use message the account's wallet signs to delete the account. */
export const DeletionChallenge = z.object({ address: z.string(), nonce: z.string(), message: z.string(), expiresAt: z.string() });

/**
 * account delete's body: exactly one proof of control. A wallet account signs its deletion message; a zkLogin
 * account sends a fresh id_token of its identity.
 */
export const DeletionBody = z.lazy(() =>
  z.object({ signature: z.optional(z.string().check(z.minLength(1), z.maxLength(4096))), id_token: z.optional(idToken) }).check(
    z.refine((body) => (body.signature === undefined) !== (body.id_token === undefined), {
      message: 'send exactly one of signature (a wallet account) or id_token (a zkLogin account)',
      path: ['signature'],
    }),
  ),
);
export type DeletionBody = z.infer<typeof DeletionBody>;

/** The tickets a deletion forfeited in one project level. */
const Forfeit = z.object({ projectName: z.string(), level: z.int(), tickets: z.int() });

/** account delete's answer (the same for every retry of the request). */
export const DeletionResult = z.object({
  deleted: z.literal(true),
  deleted_at: z.string(),
  /** Every unspent ticket, all project levels together. */
  forfeited_tickets: z.int(),
  forfeited: z.array(Forfeit),
  /** Hero NFTs released (they stay the wallet's on chain). */
  heroes_released: z.int(),
});
export type DeletionResult = z.infer<typeof DeletionResult>;

/** A studio's deleted player: the id the studio knew them by, and when. */
const DeletedPlayer = z.object({ game_player_id: z.string(), deleted_at: z.string() });

/** player deletions' page: newest first; `next` names the page after it (null on the last). */
export const DeletionNotices = z.object({ data: z.array(DeletedPlayer), next: z.nullable(z.string()) });

/** Where a page of the studio's deletions starts: after `before` (a page's `next`), or since `since`. */
export const DeletionNoticesQuery = z.lazy(() =>
  z.object({
    before: z.optional(z.string().check(z.regex(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z#[\w:.-]{1,128}$/, "expected a page's `next`"))),
    since: z.optional(z.iso.datetime()),
    pageSize: z.optional(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(100))),
  }),
);
