import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { arrivalsKey, cohortPartition, openLeagueSeasonKey, rulesKey, tierKey } from '../core/leagues/keys.js';
import { placeNewPlayers } from '../core/leagues/placement.js';
import { LEAGUE_GRACE_MS, settleLeagueSeason } from '../core/leagues/settlement.js';
import { scoreKey } from '../core/rankings/keys.js';
import { type Season, weekOf } from '../core/rankings/seasons.js';
import { createLocalDeps, type LocalDeps } from '../test/support/local-deps.js';
import { commandCounter } from '../test/support/rankings.js';
import { putItems } from './board-loader.js';
import { capacityMeter } from './capacity-meter.js';
import { round } from './stats.js';

/**
 * Part 9 (not run by default: loading takes minutes), a league of `players` players in cohorts of `cohortSize`
 * (100,000 in 2,000 cohorts by default), on a table of its own:
 * 1. the season's score items bulk-loaded as placement leaves them (tier, cohort and the cohort's index entry),
 *    with each tier's arrivals, outside the timing;
 * 2. the season settled at once after it ended (core/leagues/settlement.ts): its time, every cohort settled, and a
 *    sample of cohorts checked against ranks computed here;
 * 3. what settlement costs per player, measured with the capacity meter on a league of `meteredPlayers` (the
 *    units per player do not depend on the league's size): write units for the tiers and the cohorts' markers,
 *    apart from the reward entries';
 * 4. placement of `placed` first scores in one stream batch (core/leagues/placement.ts): its requests and write
 *    units per player.
 */
export interface LeagueBenchResult {
  players: number;
  cohorts: number;
  loadSeconds: number;
  settleSeconds: number;
  settledCohorts: number;
  sampleCorrect: boolean;
  perPlayer: { write: number; read: number; entriesWrite: number; meteredPlayers: number };
  placement: { players: number; requests: Record<string, number>; writePerPlayer: number; seconds: number };
}

const TIERS = 5;
const tiers = Array.from({ length: TIERS }, (_, i) => ({
  name: `Tier ${i + 1}`,
  promote: i === TIERS - 1 ? 0 : 5,
  demote: i === 0 ? 0 : 5,
  rewards: [
    { rank: 1, amount: 1_000 * (i + 1) },
    { rank: 2, amount: 500 * (i + 1) },
    { rank: 3, amount: 250 * (i + 1) },
  ],
}));

/** A deterministic score, with ties. */
const killsOf = (i: number) => 1 + ((Math.imul(i, 0x9e3779b1) >>> 0) % 500);

async function putRules(deps: LocalDeps, game: string, season: Season, cohortSize: number) {
  await deps.db.send(
    new PutCommand({
      TableName: deps.table,
      Item: {
        ...rulesKey(game, season.start),
        type: 'league_rules',
        game_code: game,
        board: 'kills',
        season_type: 1,
        cohort_size: cohortSize,
        idle_drop: 1,
        start_tier: 1,
        tiers,
        from: season.start.toISOString(),
        updated_at: season.start.toISOString(),
      },
    }),
  );
}

/** Player `i` of a loaded league: tier `i % TIERS + 1`, the `i / TIERS`th arrival of that tier. */
const playerOf = (i: number) => ({ id: `league-${i}`, tier: (i % TIERS) + 1, arrival: Math.floor(i / TIERS) });

/** Loads a settled-ready league season: score items as placement leaves them, the tiers' arrivals, the season to settle. */
async function loadLeague(deps: LocalDeps, game: string, season: Season, players: number, cohortSize: number) {
  await putRules(deps, game, season, cohortSize);
  await putItems(
    deps,
    players,
    (i) => {
      const player = playerOf(i);
      const cohort = cohortPartition(game, season, player.tier, Math.floor(player.arrival / cohortSize));
      return {
        ...scoreKey(game, season, player.id, 1),
        game_code: game,
        season_type: season.type,
        season_range: season.range,
        game_player_id: player.id,
        game_player_name: `Player ${i}`,
        kills: killsOf(i),
        killsAt: new Date(season.start.getTime() + (i % 86_400) * 1000).toISOString(),
        tier: player.tier,
        cohort,
        gsi3pk: cohort,
        gsi3sk: player.id,
      };
    },
    16,
  );
  for (let tier = 1; tier <= TIERS; tier++) {
    const arrived = Math.floor(players / TIERS) + (tier - 1 < players % TIERS ? 1 : 0);
    await deps.db.send(new PutCommand({ TableName: deps.table, Item: { ...arrivalsKey(game, season, tier), type: 'league_arrivals', arrived } }));
  }
  await deps.db.send(
    new PutCommand({
      TableName: deps.table,
      Item: { ...openLeagueSeasonKey(game, season), type: 'league_season', game_code: game, season_type: 1, season_range: season.range },
    }),
  );
}

/** A cohort's players' next tiers as computed here: the boards' order, the top 5 up, the bottom 5 down. */
async function cohortCorrect(deps: LocalDeps, game: string, players: number, cohortSize: number, tier: number, cohort: number): Promise<boolean> {
  const members = Array.from({ length: players }, (_, i) => i).filter(
    (i) => playerOf(i).tier === tier && Math.floor(playerOf(i).arrival / cohortSize) === cohort,
  );
  const at = (i: number) => (i % 86_400) * 1000;
  members.sort((a, b) => killsOf(b) - killsOf(a) || at(a) - at(b) || (`league-${a}` < `league-${b}` ? -1 : 1));
  const up = tier < TIERS ? 5 : 0;
  const down = tier > 1 ? 5 : 0;
  for (const [rank, i] of members.entries()) {
    const expected = rank < up ? tier + 1 : rank >= members.length - down ? tier - 1 : tier;
    const stored = (await deps.db.send(new GetCommand({ TableName: deps.table, Key: tierKey(`league-${i}`, game) }))).Item;
    if (stored?.tier !== expected) return false;
  }
  return true;
}

export async function benchLeague(
  endpoint: string,
  options: { players: number; cohortSize: number; meteredPlayers: number; placed: number },
): Promise<LeagueBenchResult> {
  const deps = await createLocalDeps(endpoint, { tablePrefix: 'bench-league', conflicts: false });
  const season = weekOf(new Date('2031-03-12T12:00:00.000Z'));
  deps.setNow(new Date(season.start.getTime() + 86_400_000));

  const loadStarted = performance.now();
  await loadLeague(deps, 'league-big', season, options.players, options.cohortSize);
  const loadSeconds = round((performance.now() - loadStarted) / 1000, 1);

  deps.setNow(new Date(season.end.getTime() + LEAGUE_GRACE_MS + 1_000));
  const settleStarted = performance.now();
  const settled = await settleLeagueSeason(deps, 'league-big', season);
  const settleSeconds = round((performance.now() - settleStarted) / 1000, 1);
  const perTier = Math.ceil(options.players / TIERS / options.cohortSize);
  const samples = [
    [1, 0],
    [3, Math.floor(perTier / 2)],
    [TIERS, perTier - 1],
  ] as const;
  let sampleCorrect = true;
  for (const [tier, cohort] of samples) sampleCorrect &&= await cohortCorrect(deps, 'league-big', options.players, options.cohortSize, tier, cohort);

  // Units per player on a smaller league: the meter reads each item it charges, which would double the big run.
  deps.setNow(new Date(season.start.getTime() + 86_400_000));
  await loadLeague(deps, 'league-metered', season, options.meteredPlayers, options.cohortSize);
  deps.setNow(new Date(season.end.getTime() + LEAGUE_GRACE_MS + 1_000));
  const meter = capacityMeter(deps.db, endpoint);
  meter.start();
  await settleLeagueSeason(deps, 'league-metered', season);
  const tally = await meter.stop();
  meter.detach();
  const entriesWrite = tally.charges
    .filter((charge) => charge.key.startsWith('HISTORYID') || charge.key.startsWith('COUNTER'))
    .reduce((sum, c) => sum + c.write, 0);

  // Placement: one stream batch of first scores, as reports leave them (no cohort yet).
  deps.setNow(new Date(season.start.getTime() + 86_400_000));
  await putRules(deps, 'league-placed', season, options.cohortSize);
  const items = Array.from({ length: options.placed }, (_, i) => ({
    ...scoreKey('league-placed', season, `new-${i}`, 1),
    game_code: 'league-placed',
    season_type: season.type,
    season_range: season.range,
    game_player_id: `new-${i}`,
    game_player_name: `New ${i}`,
    kills: 1,
  }));
  await putItems(deps, items.length, (i) => items[i]!, 16);
  const counter = commandCounter(deps);
  const placeMeter = capacityMeter(deps.db, endpoint);
  counter.start();
  placeMeter.start();
  const placeStarted = performance.now();
  await placeNewPlayers(
    deps,
    items.map((after) => ({ after })),
  );
  const placeSeconds = round((performance.now() - placeStarted) / 1000, 1);
  const placeTally = await placeMeter.stop();
  placeMeter.detach();
  const requests = counter.stop();

  return {
    players: options.players,
    cohorts: settled.cohorts,
    loadSeconds,
    settleSeconds,
    settledCohorts: settled.settled_now,
    sampleCorrect,
    perPlayer: {
      write: round((tally.write - entriesWrite) / options.meteredPlayers, 2),
      read: round(tally.read / options.meteredPlayers, 2),
      entriesWrite: round(entriesWrite, 1),
      meteredPlayers: options.meteredPlayers,
    },
    placement: { players: options.placed, requests, writePerPlayer: round(placeTally.write / options.placed, 2), seconds: placeSeconds },
  };
}
