import * as z from 'zod/mini';
import type { PlatformDeps } from '../platform/deps.js';
import { queryItems } from '../platform/query.js';
import { ledgerKey } from '../tickets/balances.js';

/** A forfeit's ledger entry (erase.ts): minus the balance the player left in a project level. */
const ForfeitEntry = z.object({ projectName: z.string(), level: z.number(), change: z.number() });

/** The tickets a deletion forfeited, per project level and in all, from its ledger entries under the pseudonym. */
export async function forfeitsOf(deps: Pick<PlatformDeps, 'db' | 'table'>, pseudonym: string) {
  const forfeits = ledgerKey(pseudonym, 'forfeit#');
  const entries = await queryItems(deps, {
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :forfeit)',
    ExpressionAttributeValues: { ':pk': forfeits.pk, ':forfeit': forfeits.sk },
    ConsistentRead: true,
  });
  const forfeited = entries
    .map((item) => ForfeitEntry.parse(item))
    .map((entry) => ({ projectName: entry.projectName, level: entry.level, tickets: -entry.change }));
  return { forfeited_tickets: forfeited.reduce((sum, entry) => sum + entry.tickets, 0), forfeited };
}
