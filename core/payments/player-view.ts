import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { findAccount, userOfAddress } from '../identity/accounts.js';
import { userKey } from '../identity/keys.js';
import { readItems } from '../platform/batch.js';
import { decodeCursor, encodeCursor } from '../platform/cursors.js';
import type { TokenClaims } from '../platform/tokens.js';
import { balancesOf, type StoredLedger } from '../tickets/balances.js';
import { ticketError } from '../tickets/errors.js';
import { grantTickets } from '../tickets/grants.js';
import { isLedgerPosition, LEDGER_POSITION, type LedgerPosition, ledgerLinesPage } from '../tickets/ledger-page.js';
import { toStudioOrder } from './console-orders.js';
import type { PaymentsDeps } from './deps.js';
import type { PlayerLedgerLine, PlayerTicketsGrant, PlayerView, PlayerViewQuery, TicketGrant } from './models.js';
import { levelKey, StoredOrder, userOrdersPartition } from './order-keys.js';
import { projectsOf } from './projects.js';

/**
 * A studio's view of one player (player_view) and its grants and take-backs of the player's tickets
 * (player_tickets_grant): only what concerns the studio's own projects. Reads, each bounded:
 * - the player: by user id, their account (`USER#<uid>` `ACCOUNT`); by address, the address's binding
 *   (`WALLET#<address>`) then the account: 1 or 2 GetItems;
 * - the studio's projects (gsi2 `MERCHANT_PROJECTS#<accountId>`): 1 Query;
 * - the player's balances (`USER#<uid>`, `TICKETS#…`): 1 Query, kept to the studio's projects; the ledger
 *   entries they hold are the first lines of the ledger;
 * - a page of at most `limit` (50) lines of the player's ledger (core/tickets/ledger-page.ts): the held entries,
 *   then the ledger items (`USER#<uid>`, `LEDGER#…`, backwards), a page item as its entries: 1 Query of at most
 *   `limit` + 1 items, sent beside the balances' read (unused when the held entries fill the page);
 * - a page of their orders (gsi1 `USER_ORDERS#<uid>`, newest first): 1 Query of at most `limit` orders.
 * Both pages are kept to the studio's projects after the read (the held entries before), so a page may hold
 * fewer (even none) with a `next`.
 * The scores are the rankings domain's (core/rankings/player-scores.ts).
 */

/** The player a studio names: their user id and wallet address; 404 when the platform has no such player. */
export async function studioPlayer(deps: PaymentsDeps, query: Pick<PlayerViewQuery, 'user_id' | 'address'>) {
  const uid = query.user_id ?? (query.address === undefined ? undefined : await userOfAddress(deps, query.address));
  const account = uid === undefined ? undefined : await findAccount(deps, uid);
  if (uid === undefined || !account) {
    throw ticketError('tickets.player_unknown', query.user_id !== undefined ? 'user_id: no player has this id' : 'address: no player has this address');
  }
  return { uid, address: account.wallet_address || null };
}

const scopeOf = (section: string, uid: string) => `player#${section}#${uid}`;

/** player_view without the scores: the player's balances, a page of their orders and one of their ledger. */
export async function studioPlayerView(
  deps: PaymentsDeps,
  accountId: string,
  player: { uid: string; address: string | null },
  query: PlayerViewQuery,
): Promise<Omit<PlayerView, 'scores'>> {
  const ledgerFrom = query.ledger_cursor === undefined ? undefined : ledgerPosition(deps, accountId, player.uid, query.ledger_cursor);
  const ordersAfter =
    query.orders_cursor === undefined
      ? undefined
      : decodeCursor(deps, query.orders_cursor, {
          owner: accountId,
          scope: scopeOf('orders', player.uid),
          attributes: ['pk', 'sk', 'gsi1pk', 'gsi1sk'],
          within: (key) => key.gsi1pk === userOrdersPartition(player.uid),
        });
  const projects = new Set((await projectsOf(deps, accountId)).map((project) => project.project_name));
  const balancesRead = balancesOf(deps, player.uid);
  const [balances, ledger, orders] = await Promise.all([
    balancesRead,
    ledgerLinesPage(deps, player.uid, query.limit, ledgerFrom, balancesRead, (project) => projects.has(project)),
    deps.db.send(
      new QueryCommand({
        TableName: deps.table,
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :pk',
        ExpressionAttributeValues: { ':pk': userOrdersPartition(player.uid) },
        ScanIndexForward: false,
        Limit: query.limit,
        ...(ordersAfter ? { ExclusiveStartKey: ordersAfter } : {}),
      }),
    ),
  ]);
  const orderItems = (orders.Items ?? []).map((item) => ({ ...StoredOrder.parse(item), gsi2sk: typeof item.gsi2sk === 'string' ? item.gsi2sk : undefined }));
  const ordersNext = orders.LastEvaluatedKey;
  return {
    user_id: player.uid,
    address: player.address,
    balances: balances
      .filter((b) => projects.has(b.projectName))
      .map((b) => ({ project_name: b.projectName, level: b.level, balance: b.balance }))
      .sort((a, b) => (a.project_name < b.project_name ? -1 : a.project_name > b.project_name ? 1 : a.level - b.level)),
    orders: {
      items: orderItems.filter((order) => projects.has(order.project_name)).map(toStudioOrder),
      next:
        ordersNext === undefined
          ? null
          : encodeCursor(deps, accountId, scopeOf('orders', player.uid), {
              pk: String(ordersNext.pk),
              sk: String(ordersNext.sk),
              gsi1pk: String(ordersNext.gsi1pk),
              gsi1sk: String(ordersNext.gsi1sk),
            }),
    },
    ledger: {
      items: ledger.lines.map(toLedgerLine).sort((a, b) => (a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : 0)),
      next: ledger.next === undefined ? null : encodeCursor(deps, accountId, scopeOf('ledger', player.uid), { sk: ledger.next.sk, line: ledger.next.line }),
    },
  };
}

/** The position a ledger cursor names (sealed for this studio and player; else 400). */
function ledgerPosition(deps: PaymentsDeps, accountId: string, uid: string, cursor: string): LedgerPosition {
  const key = decodeCursor(deps, cursor, { owner: accountId, scope: scopeOf('ledger', uid), attributes: LEDGER_POSITION, within: isLedgerPosition });
  return { sk: key.sk!, line: key.line! };
}

function toLedgerLine(entry: StoredLedger): PlayerLedgerLine {
  return {
    ref: entry.ref,
    project_name: entry.projectName,
    level: entry.level,
    change: entry.change,
    created_at: entry.created_at,
    operation: entry.ref.split('#')[0]!,
    reason: entry.reason ?? null,
    granted_by: entry.granted_by ?? null,
    balance_after: entry.balance_after ?? null,
  };
}

/**
 * What player_tickets_grant reads first (its first reads, core/http/operation.ts FirstReads, as rechargeOrderReads):
 * the project's level and the player's account, read in the authorization layer's fresh batch.
 */
export const grantReads = (input: { projectName: string; level: number; userId: string }) => [levelKey(input.projectName, input.level), userKey(input.userId)];

/**
 * player_tickets_grant: the project's level and the player's account (grantReads: answered from the authorization
 * layer's batch, no request of its own; 404 when either is missing), then the grant's one transaction
 * (core/tickets/grants.ts). The project's owner and the player's deletion are the authorization layer's checks,
 * made before.
 */
export async function studioGrant(
  deps: PaymentsDeps,
  caller: TokenClaims,
  input: PlayerTicketsGrant,
  idempotencyKey: string | undefined,
): Promise<TicketGrant> {
  const [level, account] = await readItems(deps, grantReads(input));
  if (!account) throw ticketError('tickets.player_unknown', 'userId: no player has this id');
  if (!level) throw ticketError('tickets.level_unknown', `level: project ${input.projectName} has no level ${input.level}`);
  return grantTickets(deps, caller, input, idempotencyKey);
}
