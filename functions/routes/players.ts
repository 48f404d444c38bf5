import { consoleAuth, owns } from '../../core/http/auth.js';
import type { OperationSpec } from '../../core/http/operation.js';
import { PlayerTicketsGrant, PlayerView, PlayerViewQuery, TicketGrant } from '../../core/payments/models.js';
import { merchantToken } from './errors.js';

/**
 * A studio's players (docs/api.md "Studios: a player's tickets"), console operations of the inner group: the studio
 * looks a player up (only what concerns its own projects and games) and grants or takes back tickets with a
 * reason. Handlers: functions/handlers/players.ts.
 */
export const innerPlayersOps = {
  player_view: {
    name: 'player_view',
    method: 'GET',
    path: '/merchant/players/view',
    tag: 'tickets and payments',
    auth: consoleAuth([owns.own, owns.self('query.user_id')], { whileSuspended: true }),
    summary: "A player as the caller's studio sees them: balances, orders, ledger, scores (extra operation)",
    description:
      'Names the player by `user_id` or by `address` (the Sui address of their wallet, `0x` + 64 hex), exactly one. ' +
      "Answers only what concerns the caller's own projects and games: the player's ticket balances per project and level, " +
      'a page of their recharge orders (as merchant_orders shows an order), newest first, a page of their ledger (each change of a balance: time, change, ' +
      'what made it (`operation`, from its reference), the reason and the granting account of a studio grant, the balance after it where stored), ' +
      "and their kills and wins on the current week's and month's boards of the studio's 50 newest games (boards without a score left out). " +
      '`limit` (1-50, 20 by default) bounds each page; `ledger_cursor` and `orders_cursor` are the `next` of the section’s previous page (null on the last). ' +
      "A page holds at most `limit` orders or ledger lines; it reads at most `limit` of the player's orders or ledger entries and keeps the studio's, so it may hold fewer (even none) with a `next`. " +
      'The ledger starts with the newest deductions made without an Idempotency-Key (kept with their balance, balance by balance), then follows the ledger’s references (grouped by what made them); each page newest first. ' +
      'A player who deleted their account is 404 `player.deleted` by id, and unknown by address (their wallet binding is gone). A suspended merchant may still read it.',
    query: PlayerViewQuery,
    status: 200,
    envelope: 'merchant',
    response: PlayerView,
    errors: {
      400: 'neither or both of user_id and address, either malformed, limit out of range, or a cursor that is not the `next` of a previous page of that section for this player',
      ...merchantToken,
      404: 'no player has that id or address, or the player deleted their account',
    },
    codes: ['tickets.player_unknown'],
  },
  player_tickets_grant: {
    name: 'player_tickets_grant',
    method: 'POST',
    path: '/merchant/players/tickets',
    tag: 'tickets and payments',
    auth: consoleAuth([owns.self('body.userId'), owns.project('body.projectName')], { movesValue: true }),
    summary: "Grant a player tickets of one of the caller's projects, or take some back, with a reason (extra operation)",
    description:
      '`amount` positive grants, negative takes back (never 0; at most 1,000,000 either way); `reason` (1-200 characters) is kept on the ledger entry with the console account that granted. ' +
      'Written once, in one transaction, to the balance and the ledger (reference `grant#<Idempotency-Key>`). ' +
      'The `Idempotency-Key` header is required (400 without it): the same key with the same body again writes nothing and answers the first answer; ' +
      'the key reused by the studio for another body (another userId, projectName, level, amount or reason) is 422; while the first request is still running, 409. ' +
      'Taking back more than the balance is 409 `tickets.balance_short` and writes nothing. A player who deleted their account receives nothing (404 `player.deleted`; ' +
      '409 `tickets.player_deleted` when the deletion starts during the request). A suspended merchant moves no tickets (403).',
    body: PlayerTicketsGrant,
    headers: {
      'Idempotency-Key':
        "required: the studio's key for this grant (1-128 of [A-Za-z0-9_.:-]), made once per grant and sent again on its retries: a retry grants once and answers the first answer",
    },
    status: 200,
    envelope: 'merchant',
    response: TicketGrant,
    errors: {
      400: 'a field is missing or malformed, amount is 0 or out of range, or the Idempotency-Key is missing or malformed',
      ...merchantToken,
      403: "another merchant's project, or the merchant is suspended",
      404: 'no such project, level or player, or the player deleted their account',
      409: 'taking back more than the balance, the player’s deletion started, or a request with the same Idempotency-Key is still running (retry)',
      422: 'the Idempotency-Key was used by this studio for another grant (another userId, projectName, level, amount or reason)',
    },
    codes: [
      'data.changed_concurrently',
      'idempotency.key_reused',
      'idempotency.still_running',
      'tickets.balance_short',
      'tickets.level_unknown',
      'tickets.player_deleted',
      'tickets.player_unknown',
    ],
  },
} as const satisfies Record<string, OperationSpec>;
