import * as z from 'zod/mini';
import type { PlatformDeps } from '../platform/deps.js';
import { queryItems } from '../platform/query.js';
import { ledgerKey } from '../tickets/balances.js';

/** A forfeit's ledger entry (core/tickets/items.ts `ticketBalance`): minus the balance the player left in a project level. */
const ForfeitEntry = z.object({ projectName: z.string(), level: z.number(), change: z.number() });

/**
 * The tickets a deletion forfeited, per project level and in all, from its ledger entries under the pseudonym: a
 * level forfeited in more than one round (a credit that landed during the deletion) is summed into one line.
 */
export async function forfeitsOf(deps: Pick<PlatformDeps, 'db' | 'table'>, pseudonym: string) {
  const forfeits = ledgerKey(pseudonym, 'forfeit#');
  const entries = await queryItems(deps, {
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :forfeit)',
    ExpressionAttributeValues: { ':pk': forfeits.pk, ':forfeit': forfeits.sk },
    ConsistentRead: true,
  });
  const perLevel = new Map<string, { projectName: string; level: number; tickets: number }>();
  for (const entry of entries.map((item) => ForfeitEntry.parse(item))) {
    const key = JSON.stringify([entry.projectName, entry.level]);
    const line = perLevel.get(key) ?? { projectName: entry.projectName, level: entry.level, tickets: 0 };
    perLevel.set(key, { ...line, tickets: line.tickets - entry.change });
  }
  const forfeited = [...perLevel.values()];
  return { forfeited_tickets: forfeited.reduce((sum, entry) => sum + entry.tickets, 0), forfeited };
}
