import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod/mini';
import { readItems } from '../platform/batch.js';
import { dayOf, type DayLimit, StoredGameDay } from './days.js';
import type { SponsorshipDeps } from './deps.js';
import { sponsorError } from './errors.js';
import { gameDayKey, sponsorshipKey } from './keys.js';
import type { Sponsorship, SponsorshipSave } from './models.js';
import type { GasSponsor } from './sponsor-key.js';

/**
 * A game's sponsorship, set by its studio (console): the claim function its verifier object is of, which is the one
 * call sponsored for its players, and its own daily limits, which may only lower the stage's.
 */

/** "a game's sponsorship" as stored. */
export const StoredSponsorship = z.object({ target: z.string(), daily_count: z.optional(z.int()), daily_gas: z.optional(z.string()) });
type StoredSponsorship = z.infer<typeof StoredSponsorship>;

const sponsorOf = (deps: SponsorshipDeps): GasSponsor => {
  if (!deps.sponsor) throw sponsorError('sponsor.unconfigured', 'the stage sponsors no claims (it has no SponsorKey)');
  return deps.sponsor;
};

/** The game's daily limit in force: its own where set, else the stage's. */
export const gameLimit = (stored: StoredSponsorship | undefined, sponsor: GasSponsor): DayLimit => ({
  count: stored?.daily_count ?? sponsor.limits.gameDailyCount,
  gas: stored?.daily_gas === undefined ? sponsor.limits.gameDailyGas : BigInt(stored.daily_gas),
});

/** The game's sponsorship as stored (strongly consistent: a studio's change applies to the next claim). */
export async function storedSponsorship(deps: SponsorshipDeps, game: string): Promise<StoredSponsorship | undefined> {
  const out = await deps.db.send(new GetCommand({ TableName: deps.table, Key: sponsorshipKey(game), ConsistentRead: true }));
  return out.Item ? StoredSponsorship.parse(out.Item) : undefined;
}

export async function setSponsorship(deps: SponsorshipDeps, body: z.infer<typeof SponsorshipSave>): Promise<Sponsorship> {
  const sponsor = sponsorOf(deps);
  if (body.daily_count !== undefined && body.daily_count > sponsor.limits.gameDailyCount)
    throw sponsorError('sponsor.limit_above_stage', `daily_count: at most the stage's ${sponsor.limits.gameDailyCount}`);
  if (body.daily_gas !== undefined && BigInt(body.daily_gas) > sponsor.limits.gameDailyGas)
    throw sponsorError('sponsor.limit_above_stage', `daily_gas: at most the stage's ${sponsor.limits.gameDailyGas}`);
  await deps.db.send(
    new PutCommand({
      TableName: deps.table,
      Item: {
        ...sponsorshipKey(body.game_code),
        type: 'sponsorship',
        game_code: body.game_code,
        target: body.target,
        ...(body.daily_count === undefined ? {} : { daily_count: body.daily_count }),
        ...(body.daily_gas === undefined ? {} : { daily_gas: body.daily_gas }),
        updated_at: deps.now().toISOString(),
      },
    }),
  );
  return sponsorshipOf(deps, body.game_code);
}

/** The game's sponsorship, its limits in force and what it signed today. */
export async function sponsorshipOf(deps: SponsorshipDeps, game: string): Promise<Sponsorship> {
  const sponsor = sponsorOf(deps);
  const [stored, today] = await readItems(deps, [sponsorshipKey(game), gameDayKey(game, dayOf(deps.now()))]);
  const settings = stored ? StoredSponsorship.parse(stored) : undefined;
  const signed = today && StoredGameDay.parse(today);
  const limit = gameLimit(settings, sponsor);
  return {
    game_code: game,
    target: settings?.target ?? null,
    daily_count: limit.count,
    daily_gas: limit.gas.toString(),
    stage: {
      daily_count: sponsor.limits.gameDailyCount,
      daily_gas: sponsor.limits.gameDailyGas.toString(),
      gas_cap: sponsor.limits.gasCap.toString(),
    },
    today: { count: signed?.claims ?? 0, gas: String(signed?.gas ?? 0), gas_spent: String(signed?.gas_spent ?? 0) },
  };
}
