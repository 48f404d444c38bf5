import { createGame } from '../core/games/games.js';
import { GameCreate } from '../core/games/models.js';
import type { Deps } from '../core/platform/deps.js';
import { gamePayload, newCode as newGameCode } from '../test/support/games.js';
import { createLocalDeps, type LocalDeps } from '../test/support/local-deps.js';
import { accountWithToken, merchantWithToken } from '../test/support/merchants.js';

export { accountWithToken, merchantWithToken, gamePayload };

export type BenchDeps = LocalDeps;

/** Deps as the tests build them (fresh table, signing key and file folder), outside vitest. */
export const createBenchDeps = (endpoint: string): Promise<BenchDeps> => createLocalDeps(endpoint, { tablePrefix: 'bench' });

export const newCode = () => newGameCode('bench');

type Owner = Awaited<ReturnType<typeof merchantWithToken>>;

/** A game of the owner's merchant, made through the domain (live when the merchant is active). */
export const gameOf = (deps: Deps, owner: Owner, code = newCode()) => createGame(deps, owner.claims, GameCreate.parse(gamePayload(code)));

/** An active merchant with `games` games. */
export async function merchantWithGames(deps: Deps, games: number, status?: number) {
  const owner = await merchantWithToken(deps, status);
  const made = [];
  for (let i = 0; i < games; i++) made.push(await gameOf(deps, owner));
  return { ...owner, games: made };
}
