import { createGame } from '../core/games/games.js';
import { GameCreate } from '../core/games/models.js';
import type { Deps } from '../core/platform/deps.js';
import { gamePayload, newCode as newGameCode } from '../test/support/games.js';
import { createLocalDeps, type LocalDeps } from '../test/support/local-deps.js';
import { startOAuthIssuer, type TestIssuer } from '../test/support/oauth-issuer.js';
import { accountWithToken, merchantWithToken } from '../test/support/merchants.js';

export { accountWithToken, merchantWithToken, gamePayload };

export interface BenchDeps extends LocalDeps {
  /** A loopback OpenID Connect issuer the deps accept id_tokens of (provider `bench`, client `bench-client`). */
  issuer: TestIssuer;
}

/** Deps as the tests build them (fresh table, signing key, file folder, a loopback issuer), outside vitest. */
export async function createBenchDeps(endpoint: string): Promise<BenchDeps> {
  const issuer = await startOAuthIssuer();
  const deps = await createLocalDeps(endpoint, { tablePrefix: 'bench', oauthProviders: [issuer.provider('bench', ['bench-client'])] });
  return { ...deps, issuer };
}

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
