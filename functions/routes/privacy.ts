import { allow, owns } from '../../core/http/auth.js';
import type { OperationSpec } from '../../core/http/operation.js';
import { DeletedPlayersPage, DeletionsQuery, ExportAnswer, ExportQuery } from '../../core/privacy/models.js';
import { batchRead, platformToken } from './errors.js';

/**
 * Players' data (docs/api.md, "Players' data: export and deletion"): a player's export of what the platform
 * holds about them, and a studio's list of its players who deleted their account. Operations of the withoutkey
 * group, beside the deletion's.
 */
/** A player's data rights are the player's: a game server's token is refused them (403), not merely not taken. */
export const playersOnly = "a game server cannot export or delete a player's data; the player does, with their own token";

export const withoutkeyPrivacyOps = {
  account_export: {
    name: 'account_export',
    method: 'GET',
    path: '/account/export',
    tag: 'players',
    auth: allow(['platform'], [owns.own], { refused: { server: playersOnly } }),
    summary: 'Everything the platform holds about the caller, as one JSON document (extra operation)',
    description:
      '`format` `player-export/1`. The account, wallet, zkLogin, social bindings, params, ticket balances and heroes in full; the long sections ' +
      '(`ledger`, `orders`, `payments`, `vendor_orders`, `vendor_rewards`, `history`, `scores`) as their first page, `{items, next}`, 100 items at most. ' +
      "`?section=<name>&cursor=<next>` answers the section's following page, `{section, items, next}`, 500 items at most (`?section=<name>` alone its first); " +
      "`next` is null on the last page. A cursor is opaque and good only for its section of the caller's export. Records are as stored, without the table's keys, " +
      "`type`, `expiresAt` and request fingerprints. Partner store users are the partner's, not the platform's players: they are not in it.",
    query: ExportQuery,
    status: 200,
    envelope: 'data',
    response: ExportAnswer,
    errors: {
      400: "section is not one of the export's, cursor is given without its section, or cursor is not the `next` of a page of that section of the caller's export",
      ...platformToken,
      ...batchRead,
    },
  },
  player_deletions: {
    name: 'player_deletions',
    method: 'GET',
    path: '/merchant/players/deletions',
    tag: 'players',
    auth: allow(['merchant', 'server'], [owns.own], { whileSuspended: true }),
    summary: "The studio's players who deleted their account, newest first (extra operation)",
    description:
      "A console token or the studio's server token. Each player who used one of the studio's games or projects and deleted their account, by id only " +
      '(`game_player_id`, `deleted_at`), for 30 days after the deletion: delete what you hold about them. 100 a page, newest first; `next` is the cursor of ' +
      'the following page, null on the last. `since` (ISO 8601, an instant from 0000-01-01T00:00:00Z to 9999-12-31T23:59:59.999Z) keeps only those deleted after it. ' +
      "A suspended merchant's console token may still read it.",
    query: DeletionsQuery,
    status: 200,
    envelope: 'merchant',
    response: DeletedPlayersPage,
    errors: {
      400: "since is not an ISO 8601 date and time, or names an instant outside the years 0000 to 9999 (UTC), or cursor is not the `next` of a page of the caller's list with the same since",
      401: 'no token, or an invalid or expired merchant or server token',
    },
  },
} as const satisfies Record<string, OperationSpec>;
