import { randomUUID } from 'node:crypto';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { tierKey } from '../core/leagues/keys.js';
import { placeNewPlayers } from '../core/leagues/placement.js';
import { LEAGUE_GRACE_MS, settleDueLeagueSeasons, settleLeagueSeason } from '../core/leagues/settlement.js';
import { readItems } from '../core/platform/batch.js';
import { goneKey } from '../core/platform/players.js';
import { weekOf } from '../core/rankings/seasons.js';
import { createAllApps } from '../functions/apps.js';
import { recordedScoreBatches } from '../tools/local/score-stream.js';
import { createTestDeps, itemCount, itemsOfType, type TestDeps } from './support/deps.js';
import { call } from './support/http.js';
import { faults, injectFaults } from './support/table-faults.js';
import { restoreAll, scanAll } from './support/table-snapshot.js';
import { gameWithServer, streamRecords } from './support/rankings.js';

/**
 * Leagues (core/leagues): a studio's rules, which apply from the next season; placement of each player's first score
 * of a season into a cohort of their tier, by the score stream's consumer; and a player's standing, their cohort's
 * whole board with their own rank exact and current.
 */
let deps: TestDeps;
let app: ReturnType<typeof createAllApps>;
const base = '/v2-testing/merchant/games';
const WEEK = 7 * 86_400_000;
/** A Wednesday: the league set then runs from the Monday after. */
const setAt = new Date('2031-03-05T10:00:00.000Z');
const running = new Date(setAt.getTime() + WEEK);

beforeAll(async () => {
  deps = await createTestDeps({ stream: true });
  app = createAllApps(deps);
});

const rules = (game: string, overrides: Record<string, unknown> = {}) => ({
  game_code: game,
  board: 'kills',
  cohort_size: 10,
  idle_drop: 1,
  tiers: [
    { name: 'Bronze', promote: 3, rewards: [{ rank: 1, amount: 500 }] },
    {
      name: 'Silver',
      promote: 2,
      demote: 2,
      rewards: [
        { rank: 1, amount: 2_000 },
        { rank: 2, amount: 1_000 },
      ],
    },
    { name: 'Gold', demote: 3, rewards: [{ rank: 1, amount: 10_000 }] },
  ],
  ...overrides,
});

/** A game of its own with its console and server tokens, issued at the deps' clock. */
async function leagueGame(at: Date) {
  deps.setNow(at);
  const game = await gameWithServer(deps);
  const consoleToken = async () => (await deps.tokens.issue('merchant', game.owner.accountId, { role: 'merchant', email: game.owner.email })).token;
  const serverToken = async () => (await deps.tokens.issue('server', game.owner.accountId, { merchant_id: game.owner.merchant.id })).token;
  return { ...game, consoleToken, serverToken };
}

async function report(server: string, game: string, players: { id: string; kills: number }[]) {
  const res = await call(app, 'POST', '/v2-testing/chain/game/score', {
    token: server,
    body: {
      game_code: game,
      result_id: randomUUID(),
      scores: players.map((p) => ({ game_player_id: p.id, game_player_name: `name ${p.id.slice(0, 4)}`, kills: p.kills, wins: 0 })),
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

const standing = async (token: string, game: string, player: string) =>
  call(app, 'GET', `${base}/league/standing`, { token, query: { game_code: game, game_player_id: player } });

describe('a league’s rules', () => {
  it('apply from the next season: now none runs, the change waits; a later change replaces the waiting one', async () => {
    const game = await leagueGame(setAt);
    try {
      const set = await call(app, 'POST', `${base}/league`, { token: game.owner.token, body: rules(game.code) });
      expect(set.status, JSON.stringify(set.body)).toBe(200);
      expect(set.body.data.current).toBeNull();
      const next = set.body.data.next;
      expect(next).toMatchObject({ board: 'kills', season_type: 1, cohort_size: 10, idle_drop: 1, start_tier: 1, from: '2031-03-10T00:00:00.000Z' });
      expect(next.tiers.map((t: { tier: number; name: string; promote: number; demote: number }) => [t.tier, t.name, t.promote, t.demote])).toEqual([
        [1, 'Bronze', 3, 0],
        [2, 'Silver', 2, 2],
        [3, 'Gold', 0, 3],
      ]);
      expect(next.tiers[1].rewards).toEqual([
        { rank: 1, amount: 2000, amount_base: '2000' },
        { rank: 2, amount: 1000, amount_base: '1000' },
      ]);
      const monthly = await call(app, 'POST', `${base}/league`, { token: game.owner.token, body: rules(game.code, { season_type: 2, cohort_size: 20 }) });
      expect(monthly.body.data.next).toMatchObject({ season_type: 2, cohort_size: 20, from: '2031-04-01T00:00:00.000Z' });
      expect((await itemsOfType(deps, 'league_rules')).filter((item) => item.game_code === game.code)).toHaveLength(1);

      // In force once its season begins; a change made then waits for the next season, the current keeps its rules.
      await call(app, 'POST', `${base}/league`, { token: game.owner.token, body: rules(game.code) });
      deps.setNow(running);
      const token = await game.consoleToken();
      await call(app, 'POST', `${base}/league`, { token, body: rules(game.code, { cohort_size: 50 }) });
      const got = await call(app, 'GET', `${base}/league`, { token, query: { game_code: game.code } });
      expect(got.status).toBe(200);
      expect(got.body.data.current).toMatchObject({ cohort_size: 10, from: '2031-03-10T00:00:00.000Z' });
      expect(got.body.data.next).toMatchObject({ cohort_size: 50, from: '2031-03-17T00:00:00.000Z' });
    } finally {
      deps.setNow(undefined);
    }
  });

  it('refuses rules that cannot hold with a 400 naming the field, writing nothing', async () => {
    const game = await leagueGame(setAt);
    try {
      const cases: [Record<string, unknown>, RegExp][] = [
        [{ cohort_size: 9 }, /cohort_size/],
        [{ cohort_size: 101 }, /cohort_size/],
        [{ tiers: [] }, /tiers/],
        [{ tiers: Array.from({ length: 11 }, (_, i) => ({ name: `T${i}` })) }, /tiers/],
        [{ tiers: [{ name: 'Top', promote: 1 }] }, /tiers\.0\.promote.*top tier/],
        [{ tiers: [{ name: 'Low', demote: 1 }, { name: 'High' }] }, /tiers\.0\.demote.*lowest tier/],
        [{ tiers: [{ name: 'Same' }, { name: 'Same' }] }, /tiers\.1\.name/],
        [
          {
            tiers: [
              { name: 'A', promote: 1 },
              { name: 'B', promote: 6, demote: 5 },
              { name: 'C', demote: 1 },
            ],
          },
          /tiers\.1\.demote.*exceed/,
        ],
        [{ tiers: [{ name: 'A', rewards: [{ rank: 11, amount: 1 }] }] }, /tiers\.0\.rewards\.0\.rank.*cohort_size/],
        [
          {
            tiers: [
              {
                name: 'A',
                rewards: [
                  { rank: 1, amount: 1 },
                  { rank: 1, amount: 2 },
                ],
              },
            ],
          },
          /tiers\.0\.rewards\.1\.rank.*twice/,
        ],
        [{ tiers: [{ name: 'A', rewards: [{ rank: 1, amount: 0 }] }] }, /tiers\.0\.rewards\.0\.amount/],
        [{ start_tier: 4 }, /start_tier/],
        [{ idle_drop: -1 }, /idle_drop/],
        [{ board: 'deaths' }, /board/],
        [{ season_type: 3 }, /season_type/],
      ];
      const other = await gameWithServer(deps);
      const before = await itemCount(deps);
      for (const [change, field] of cases) {
        const res = await call(app, 'POST', `${base}/league`, { token: game.owner.token, body: rules(game.code, change) });
        expect([res.status, res.body.code === undefined ? res.body.error : 'merchant'], JSON.stringify(change)).toEqual([400, 'merchant']);
        expect(JSON.stringify(res.body), JSON.stringify(change)).toMatch(field);
      }
      expect(await itemCount(deps)).toBe(before);
      const foreign = await call(app, 'POST', `${base}/league`, { token: other.owner.token, body: rules(game.code) });
      expect(foreign.status).toBe(403);
      expect(await itemCount(deps)).toBe(before);
    } finally {
      deps.setNow(undefined);
    }
  });
});

describe('placement and standing', () => {
  it('places each player’s first score of the season in a cohort of their tier, cohorts filled in arrival order, never overfilled, even placed twice at once', async () => {
    const game = await leagueGame(setAt);
    try {
      await call(app, 'POST', `${base}/league`, { token: game.owner.token, body: rules(game.code) });
      deps.setNow(running);
      const server = await game.serverToken();
      const ids = Array.from({ length: 25 }, () => randomUUID());
      // A player the last settlement moved to Silver, and one it put in Gold for the season before, idle in it: Silver now.
      const season = weekOf(running);
      await putTier(ids[0]!, game.code, 2, season.start);
      await putTier(ids[1]!, game.code, 3, new Date(season.start.getTime() - WEEK));
      for (let i = 0; i < ids.length; i += 5)
        await report(
          server,
          game.code,
          ids.slice(i, i + 5).map((id, j) => ({ id, kills: i + j + 1 })),
        );
      const records = (await streamRecords(deps)).filter((change) => change.after?.game_code === game.code);
      expect(await placeNewPlayers(deps, records)).toBe(25);
      // The same batch again, to two consumers at once (a retried batch racing its first delivery): no one twice.
      expect(await Promise.all([placeNewPlayers(deps, records), placeNewPlayers(deps, records)])).toEqual([0, 0]);

      let all = await scoresOf(game.code);
      let scores = all.filter((item) => item.season_type === 1);
      expect(scores).toHaveLength(25);
      const tierOf = (id: string) => scores.find((item) => item.game_player_id === id)!.tier;
      expect(tierOf(ids[0]!)).toBe(2);
      expect(tierOf(ids[1]!)).toBe(2);
      expect(
        ids
          .slice(2)
          .map(tierOf)
          .every((tier) => tier === 1),
      ).toBe(true);
      // The first ten of a tier to arrive (in the stream's order) fill its first cohort, the next ten the second.
      const arrivals = [
        ...new Set(records.filter((r) => r.after?.season_type === 1 && r.after?.tier === undefined).map((r) => String(r.after!.game_player_id))),
      ];
      const bronze = arrivals.filter((id) => tierOf(id) === 1);
      const cohortOf = (id: string) => String(scores.find((item) => item.game_player_id === id)!.cohort);
      expect(bronze.map(cohortOf)).toEqual(bronze.map((_, k) => cohortOf(bronze[Math.floor(k / 10) * 10]!)));
      expect(new Set(bronze.map(cohortOf)).size).toBe(3);
      // The month's score items are no league's: never placed.
      expect(all.filter((item) => item.season_type === 2 && item.cohort !== undefined)).toEqual([]);

      // Thirty more newcomers, their records split over three consumers placing at once: each placed once, no cohort over ten.
      const more: string[] = Array.from({ length: 30 }, () => randomUUID());
      for (let i = 0; i < more.length; i += 10)
        await report(
          server,
          game.code,
          more.slice(i, i + 10).map((id) => ({ id, kills: 1 })),
        );
      const newcomers = (await streamRecords(deps)).filter((change) => more.includes(String(change.after?.game_player_id)));
      const thirds = [0, 1, 2].map((k) => newcomers.filter((_, i) => i % 3 === k));
      expect((await Promise.all(thirds.map((third) => placeNewPlayers(deps, third)))).reduce((a, b) => a + b, 0)).toBe(30);
      all = await scoresOf(game.code);
      scores = all.filter((item) => item.season_type === 1);
      const cohorts = new Map<string, string[]>();
      for (const item of scores) cohorts.set(String(item.cohort), [...(cohorts.get(String(item.cohort)) ?? []), String(item.game_player_id)]);
      expect(scores.every((item) => typeof item.cohort === 'string')).toBe(true);
      for (const [cohort, members] of cohorts) expect(members.length, cohort).toBeLessThanOrEqual(10);
      expect([...cohorts.values()].flat()).toHaveLength(55);

      // A player's standing: the whole cohort by total, their own rank exact and total current before the stream has it.
      const me = ids[10]!;
      const token = (await deps.tokens.issue('platform', me)).token;
      await report(server, game.code, [{ id: me, kills: 100 }]);
      const mine = await standing(token, game.code, me);
      expect(mine.status, JSON.stringify(mine.body)).toBe(200);
      const view = mine.body.data;
      expect(view).toMatchObject({ tier: 1, tier_name: 'Bronze', tiers: 3, placed: true, rank: 1, total: '111', promote: 3, demote: 0, board: 'kills' });
      expect(view.rewards).toEqual([{ rank: 1, amount: 500, amount_base: '500' }]);
      const members = cohorts.get(view.cohort)!;
      expect(view.players.map((p: { game_player_id: string }) => p.game_player_id).sort()).toEqual([...members].sort());
      expect(view.players.map((p: { rank: number }) => p.rank)).toEqual(members.map((_, i) => i + 1));
      const totals = view.players.map((p: { total: string }) => Number(p.total));
      expect([...totals].sort((a, b) => b - a)).toEqual(totals);

      // Another player's standing: a server token of the game's merchant may; a player token may not.
      expect((await standing(server, game.code, ids[3]!)).status).toBe(200);
      expect((await standing(token, game.code, ids[3]!)).status).toBe(403);

      // A player with no score yet: their tier, not placed.
      const newcomer = randomUUID();
      const fresh = await standing(server, game.code, newcomer);
      expect(fresh.body.data).toMatchObject({ placed: false, cohort: null, rank: null, total: '0', players: [], tier: 1 });
    } finally {
      deps.setNow(undefined);
    }
  });

  it('answers a console session of the game’s studio for any of its players, as its server; another studio’s console is 403', async () => {
    const game = await leagueGame(setAt);
    try {
      await call(app, 'POST', `${base}/league`, { token: game.owner.token, body: rules(game.code) });
      deps.setNow(running);
      const server = await game.serverToken();
      const [first, second] = [randomUUID(), randomUUID()];
      await report(server, game.code, [
        { id: first, kills: 5 },
        { id: second, kills: 2 },
      ]);
      await placeUnplaced(game.code);
      const studio = await game.consoleToken();
      const seen = await standing(studio, game.code, second);
      expect(seen.status, JSON.stringify(seen.body)).toBe(200);
      expect(seen.body.data).toMatchObject({ placed: true, tier_name: 'Bronze', rank: 2, total: '2' });
      expect(seen.body.data.players.map((p: { game_player_id: string }) => p.game_player_id)).toEqual([first, second]);
      expect(seen.body.data).toEqual((await standing(server, game.code, second)).body.data);

      // Another studio's console: this game's standing is refused; its own game's is answered (no league runs there).
      const other = await leagueGame(running);
      const stranger = await other.consoleToken();
      const refused = await standing(stranger, game.code, second);
      expect([refused.status, refused.body.error]).toEqual([403, 'access.other_owner']);
      const none = await standing(stranger, other.code, second);
      expect([none.status, none.body.error]).toEqual([404, 'league.not_running']);
    } finally {
      deps.setNow(undefined);
    }
  });

  it('places through the local server’s stream loop as the deployed consumer does, and answers 404 where no league runs', async () => {
    const game = await leagueGame(setAt);
    try {
      const server = await game.serverToken();
      const none = await standing(server, game.code, randomUUID());
      expect([none.status, none.body.error ?? none.body.code]).toContainEqual(404);
      expect(JSON.stringify(none.body)).toMatch(/league\.not_running/);
      await call(app, 'POST', `${base}/league`, { token: game.owner.token, body: rules(game.code, { start_tier: 2 }) });
      deps.setNow(running);
      const later = await game.serverToken();
      const id = randomUUID();
      await report(later, game.code, [{ id, kills: 3 }]);
      const records = (await streamRecords(deps)).filter((change) => change.after?.game_code === game.code);
      await recordedScoreBatches(deps)(records, 0);
      const view = (await standing(later, game.code, id)).body.data;
      expect(view).toMatchObject({ placed: true, tier: 2, tier_name: 'Silver', rank: 1, total: '3' });
      expect(view.players).toHaveLength(1);
    } finally {
      deps.setNow(undefined);
    }
  });
});

/** A player's tier as a settlement writes it: `tier` from the season beginning at `from`. */
const putTier = (player: string, game: string, tier: number, from: Date) =>
  deps.db.send(
    new PutCommand({ TableName: deps.table, Item: { ...tierKey(player, game), type: 'league_tier', game_code: game, tier, from: from.toISOString() } }),
  );

/** The game's score items (a test-only Scan). */
const scoresOf = async (game: string) => (await scanAll(deps)).filter((item) => String(item.pk).startsWith('SCORE#') && item.game_code === game);

describe('a league season’s settlement', () => {
  // A table of its own: the seasons other tests left due would settle with this one's. Without a stream: the runs
  // below rewrite the table many times, and DynamoDB Local would keep a record of each write for every test file.
  beforeAll(async () => {
    deps = await createTestDeps();
    app = createAllApps(deps);
  });

  /** The table as compared between runs: history ids (a counter's blocks, wasted by a lost race) named alike. */
  const normalized = (items: Record<string, unknown>[]) =>
    items
      .filter((item) => item.pk !== 'COUNTER#history_rank')
      .map((item) => (item.type === 'history_rank' ? { ...item, pk: 'HISTORYID#*', id: 0, gsi1sk: String(item.gsi1sk).replace(/#\d+$/, '#*') } : item))
      .map((item) => JSON.stringify(item))
      .sort();

  it('moves exactly the top and bottom of each cohort, pays its ranks once, skips the deleted; again or at once it writes nothing more; a fault at any command is finished by the next run', async () => {
    const game = await leagueGame(setAt);
    try {
      await call(app, 'POST', `${base}/league`, { token: game.owner.token, body: rules(game.code) });
      deps.setNow(running);
      const season = weekOf(running);
      const server = await game.serverToken();
      const silver = Array.from({ length: 12 }, () => randomUUID());
      const bronze = Array.from({ length: 10 }, () => randomUUID());
      for (const id of silver) await putTier(id, game.code, 2, season.start);
      // Totals with ties: a tie goes to who reached the total first.
      await report(
        server,
        game.code,
        silver.map((id, i) => ({ id, kills: 1 + (i % 6) })),
      );
      await report(
        server,
        game.code,
        bronze.map((id, i) => ({ id, kills: 10 + i })),
      );
      await placeUnplaced(game.code);
      // A Bronze player deletes their account as the season ends: never promoted, no entry.
      const deleted = bronze[9]!;
      await deps.db.send(new PutCommand({ TableName: deps.table, Item: { ...goneKey(deleted), type: 'gone', deleted_at: 1 } }));

      deps.setNow(new Date(season.end.getTime() + LEAGUE_GRACE_MS + 1_000));
      const snapshot = await scanAll(deps);
      const first = await settleDueLeagueSeasons(deps);
      expect(first).toEqual({ settled: [{ game_code: game.code, season_range: season.range, cohorts: 3, settled_now: 3 }], failed: 0 });
      const reference = await scanAll(deps);

      // The tiers each player starts the next season in, against ranks computed here from the score items.
      const all = (await scoresOf(game.code)).filter((item) => item.season_type === 1);
      const tierNext = new Map(
        reference.filter((item) => item.type === 'league_tier' && item.game_code === game.code).map((item) => [String(item.pk).slice(5), item]),
      );
      for (const cohort of new Set(all.map((item) => String(item.cohort)))) {
        const members = all
          .filter((item) => item.cohort === cohort && item.game_player_id !== deleted)
          .sort(
            (a, b) =>
              Number(b.kills) - Number(a.kills) ||
              String(a.killsAt).localeCompare(String(b.killsAt)) ||
              String(a.game_player_id).localeCompare(String(b.game_player_id)),
          );
        const tier = Number(members[0]!.tier);
        const [up, down] = tier === 1 ? [3, 0] : tier === 2 ? [2, 2] : [0, 3];
        members.forEach((item, i) => {
          const expected = i < up ? tier + 1 : i >= members.length - down ? tier - 1 : tier;
          expect(tierNext.get(String(item.game_player_id)), `${cohort} rank ${i + 1}`).toMatchObject({ tier: expected, from: season.end.toISOString() });
        });
      }
      expect(tierNext.has(deleted)).toBe(false);
      // Entries: Bronze pays rank 1, Silver ranks 1 and 2, each in its cohort's listing and the player's rewards.
      const entries = reference.filter((item) => item.type === 'history_rank' && item.game_code === game.code);
      expect(entries.map((entry) => [entry.rank, Number(entry.reward_amount)]).sort()).toEqual(
        [
          [1, 2000],
          [1, 2000],
          [1, 500],
          [2, 1000],
          [2, 1000],
        ].sort(),
      );
      for (const entry of entries) {
        expect(String(entry.gsi2pk)).toMatch(/^LEAGUEHISTORY#/);
        expect(entry.gsi1pk).toBe(`REWARDS#${entry.platform_player_id}`);
        expect(entry.platform_player_id).not.toBe(deleted);
      }
      expect((await scanAll(deps)).filter((item) => item.pk === 'LEAGUE_SEASONS')).toEqual([]);

      // Again: nothing written. The season is no longer due, and settling it by name writes nothing either.
      expect(await settleDueLeagueSeasons(deps)).toEqual({ settled: [], failed: 0 });
      expect((await settleLeagueSeason(deps, game.code, season)).settled_now).toBe(0);
      expect(await scanAll(deps)).toEqual(reference);

      // Twice at once, from before: the same table but for the history ids.
      await restoreAll(deps, snapshot);
      const both = await Promise.all([settleLeagueSeason(deps, game.code, season), settleLeagueSeason(deps, game.code, season)]);
      expect(both[0].settled_now + both[1].settled_now).toBe(3);
      expect(normalized(await scanAll(deps))).toEqual(normalized(reference));

      // Cut short at each command in turn, then run again: as the uninterrupted run.
      const injector = injectFaults(deps.db);
      let through = false;
      let cut = 0;
      for (let n = 0; !through; n++) {
        await restoreAll(deps, snapshot);
        injector.arm(faults['service error']!, n);
        through = await settleLeagueSeason(deps, game.code, season).then(
          () => true,
          () => false,
        );
        injector.disarm();
        if (!through) {
          cut++;
          await settleLeagueSeason(deps, game.code, season);
        }
        expect(normalized(await scanAll(deps)), `a fault at command ${n}`).toEqual(normalized(reference));
      }
      expect(cut).toBeGreaterThan(10);

      // The next season: a promoted player's first score places them in their new tier.
      const promoted = [...tierNext].find(([, item]) => item.tier === 3)![0];
      deps.setNow(new Date(season.end.getTime() + 86_400_000));
      const next = await game.serverToken();
      await report(next, game.code, [{ id: promoted, kills: 1 }]);
      await placeUnplaced(game.code);
      expect((await standing(next, game.code, promoted)).body.data).toMatchObject({ tier: 3, tier_name: 'Gold', placed: true, rank: 1 });
    } finally {
      deps.setNow(undefined);
    }
  }, 300_000);

  it('counts an idle player’s drop when they are next seen, writing nothing for them meanwhile', async () => {
    const game = await leagueGame(setAt);
    try {
      await call(app, 'POST', `${base}/league`, { token: game.owner.token, body: rules(game.code) });
      const later = new Date(running.getTime() + 2 * WEEK);
      deps.setNow(later);
      const season = weekOf(later);
      const server = await game.serverToken();
      // Gold from two seasons ago, idle since: two seasons idle, one tier each: Bronze (1) now.
      const idle = randomUUID();
      await putTier(idle, game.code, 3, new Date(season.start.getTime() - 2 * WEEK));
      const view = (await standing(server, game.code, idle)).body.data;
      expect(view).toMatchObject({ tier: 1, tier_name: 'Bronze', placed: false });
      // The settlement wrote nothing for them meanwhile: the stored tier is as it was.
      const [stored] = await readItems(deps, [tierKey(idle, game.code)]);
      expect(stored).toMatchObject({ tier: 3 });
    } finally {
      deps.setNow(undefined);
    }
  });
});

describe('rank_around within a cohort', () => {
  it('ranks the player among their cohort, with those just above and below; another season is no league', async () => {
    const game = await leagueGame(setAt);
    try {
      await call(app, 'POST', `${base}/league`, { token: game.owner.token, body: rules(game.code) });
      deps.setNow(running);
      const server = await game.serverToken();
      const ids = Array.from({ length: 12 }, () => randomUUID());
      await report(
        server,
        game.code,
        ids.map((id, i) => ({ id, kills: 10 * (i + 1) })),
      );
      await placeUnplaced(game.code);
      // The full cohort of the two (which players fill it depends on the order they are given in).
      const placed = (await scoresOf(game.code)).filter((item) => typeof item.cohort === 'string');
      const sizes = new Map<string, number>();
      for (const item of placed) sizes.set(String(item.cohort), (sizes.get(String(item.cohort)) ?? 0) + 1);
      const cohort = [...sizes].find(([, size]) => size === 10)![0];
      const mates = placed.filter((item) => item.cohort === cohort).sort((a, b) => Number(b.kills) - Number(a.kills));
      const me = mates[4]!;
      const around = await call(app, 'GET', `${base}/rank/around`, {
        token: server,
        query: { game_code: game.code, board: 'kills', season_type: 1, game_player_id: String(me.game_player_id), around: 2, scope: 'cohort' },
      });
      expect(around.status, JSON.stringify(around.body)).toBe(200);
      expect(around.body.data).toMatchObject({ ranked: true, rank: 5, total: String(me.kills), players: mates.length, standings: 'cohort' });
      expect(around.body.data.above.map((e: { game_player_id: string }) => e.game_player_id)).toEqual([mates[2]!.game_player_id, mates[3]!.game_player_id]);
      expect(around.body.data.below.map((e: { rank: number }) => e.rank)).toEqual([6, 7]);
      const month = await call(app, 'GET', `${base}/rank/around`, {
        token: server,
        query: { game_code: game.code, board: 'kills', season_type: 2, game_player_id: String(me.game_player_id), scope: 'cohort' },
      });
      expect(month.status).toBe(404);
      expect(JSON.stringify(month.body)).toMatch(/league\.not_running/);
    } finally {
      deps.setNow(undefined);
    }
  });
});

/** What the stream's consumer does, on a table without a stream: the game's score items with no cohort, placed. */
const placeUnplaced = async (game: string) =>
  placeNewPlayers(
    deps,
    (await scoresOf(game)).filter((item) => item.cohort === undefined).map((after) => ({ after })),
  );
