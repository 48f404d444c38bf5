import * as z from 'zod/mini';
import type { PlatformDeps } from '../platform/deps.js';
import { queryItems } from '../platform/query.js';
import { example } from '../shared/examples.js';
import { answered } from '../shared/fields.js';
import { dayOf, StoredGameDay } from './days.js';
import { stageDayPartition } from './keys.js';

/**
 * The stage screen's view of sponsored claims: for one UTC day, each game's sponsored claims and the gas budgets
 * signed for them, the most they can have cost the sponsor, most gas first. One Query of the day's partition.
 */

export const SponsoredDayQuery = z.lazy(() =>
  z.object({ day: z.optional(z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/, 'expected a UTC day as yyyy-mm-dd'), example('2026-11-29'))) }),
);

export const SponsoredDay = z.lazy(() =>
  z.object({
    day: z.string(),
    games: z.array(
      z.object({
        game_code: answered.gameCode,
        claims: z.int(),
        /** The gas budgets signed: the most the claims can cost the sponsor. */
        gas: answered.baseUnits,
        /** What the claims seen paid on chain so far cost the sponsor. */
        gas_spent: answered.baseUnits,
      }),
    ),
  }),
);
export type SponsoredDay = z.infer<typeof SponsoredDay>;

export async function sponsoredDay(deps: Pick<PlatformDeps, 'db' | 'table' | 'now'>, query: { day?: string | undefined }): Promise<SponsoredDay> {
  const day = query.day ?? dayOf(deps.now());
  const items = await queryItems(deps, {
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': stageDayPartition(day) },
  });
  const games = items
    .map((item) => {
      const signed = StoredGameDay.parse(item);
      return { game_code: String(item.sk), claims: signed.claims, gas: BigInt(signed.gas), gas_spent: String(signed.gas_spent ?? 0) };
    })
    .sort((a, b) => (b.gas > a.gas ? 1 : b.gas < a.gas ? -1 : a.game_code.localeCompare(b.game_code)));
  return { day, games: games.map((game) => ({ ...game, gas: game.gas.toString() })) };
}
