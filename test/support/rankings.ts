import { createGame } from '../../core/games/games.js';
import { GameCreate } from '../../core/games/models.js';
import type { Deps } from '../../core/deps.js';
import { newCode, gamePayload } from './games.js';
import { merchantWithToken } from './merchants.js';

/** An active merchant with one game and a server token of the merchant (what the game's servers send). */
export async function gameWithServer(deps: Deps) {
  const owner = await merchantWithToken(deps);
  const code = newCode('rank');
  await createGame(deps, owner.claims, GameCreate.parse(gamePayload(code)));
  const server = (await deps.tokens.issue('server', owner.accountId, { merchant_id: owner.merchant.id })).token;
  return { owner, code, server };
}

/** Counts the DynamoDB commands the deps' client sends while `start()`ed, by name (GetItem, Query, …); the bench counts with it too. */
export function commandCounter(deps: Deps) {
  let counts: Record<string, number> | undefined;
  deps.db.middlewareStack.add(
    (next, context) => async (args) => {
      if (counts) {
        const name = (context.commandName ?? 'unknown').replace(/Command$/, '');
        counts[name] = (counts[name] ?? 0) + 1;
      }
      return next(args);
    },
    { step: 'initialize', name: `rankingsCounter${Math.random()}` },
  );
  return {
    start: () => void (counts = {}),
    stop: () => {
      const result = counts ?? {};
      counts = undefined;
      return result;
    },
  };
}
