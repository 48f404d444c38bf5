import { chargeDays } from '../core/sponsorship/days.js';
import { rewardGame } from '../test/support/rewards.js';
import { accountWithToken } from './fixtures.js';
import type { OperationBench } from './operation-bench.js';

const TARGET = `0x${'c1'.repeat(32)}::verifier::redeem`;

/** The sponsorship operations that read and write only the table (docs/claims.md "Sponsored claims"). */
export const sponsorshipOperations: OperationBench[] = [
  {
    group: 'pay',
    op: 'sponsorship_set',
    minimum: 2,
    reason: "the game's sponsorship Put, then the answer's BatchGetItem (the sponsorship and the game's day); the owner is checked by the authorization layer",
    units: { write: 1, read: 2, why: 'one Put under 1 KB (1) + two items read strongly consistent (2)' },
    prepare: async (deps) => {
      const game = await rewardGame(deps);
      return { token: game.owner.token, body: { game_code: game.code, target: TARGET, daily_count: 10 } };
    },
  },
  {
    group: 'pay',
    op: 'sponsorship_get',
    minimum: 1,
    reason: "one BatchGetItem: the game's sponsorship and its sponsored day",
    units: { write: 0, read: 2, why: 'two items under 4 KB, strongly consistent (2)' },
    prepare: async (deps) => {
      const game = await rewardGame(deps);
      return { token: game.owner.token, query: { game_code: game.code } };
    },
  },
  {
    group: 'admin-console',
    op: 'sponsored_day',
    minimum: 1,
    reason: "one Query of the day's partition: every game's sponsored day",
    units: { write: 0, read: 0.5, why: "three games' days, under 4 KB in all, eventually consistent: a moment behind is fine for the stage screen (0.5)" },
    prepare: async (deps) => {
      for (let i = 0; i < 3; i++) {
        const game = await rewardGame(deps);
        await chargeDays(
          deps,
          { uid: `bench-${i}`, game: game.code, gas: 1_000_000n },
          { player: { count: 5, gas: 10_000_000n }, game: { count: 100, gas: 10_000_000n } },
        );
      }
      return { token: (await accountWithToken(deps, 'admin')).token, query: {} };
    },
  },
];
