import { type ClientOptions, createHeroClient, createMainClient, type HeroClient, type MainClient, type TokenKind } from './client.js';
import { unwrap } from './errors.js';
import { RenewingToken } from './tokens.js';

/** The options of a player's clients: those of any client, without the token (the session's). */
export type SessionOptions = Omit<ClientOptions, 'token'>;

/** What a sign-in takes besides its proof: the clients' options, and the game the player is in. */
export interface SignInOptions extends SessionOptions {
  /** The game the player is playing (`game_code`): operations that take a game token are sent with this game's. */
  gameCode?: string;
}

/**
 * A signed-in player: clients that send, for each operation, a token of a kind it takes (the platform token where
 * it is taken, else the game token of the session's game), each token renewed before it expires. The platform
 * token is renewed by signing in again (the wallet signs a new nonce; zkLogin asks for a fresh id_token); the game
 * and hero tokens are asked for with the platform token.
 */
export class PlayerSession {
  /** The main base, as this player. */
  readonly api: MainClient;
  readonly #games = new Map<string, RenewingToken>();
  readonly #heroes = new Map<string, HeroClient>();
  readonly #tokens: RenewingToken[] = [];
  /** The clients' options (the game is per client). */
  readonly #options: SessionOptions;

  constructor(
    /** The player's user id. */
    readonly userId: string,
    private readonly platformToken: RenewingToken,
    { gameCode, ...options }: SignInOptions,
  ) {
    this.#options = options;
    this.#tokens.push(platformToken);
    this.api = this.#clientFor(gameCode);
  }

  /** The main base as this player in another game: operations that take a game token get that game's. */
  inGame(gameCode: string): MainClient {
    return this.#clientFor(gameCode);
  }

  /** The hero game's base (`https://<hero api>/hero-<environment>`), with the player's hero token. */
  hero(heroBaseUrl: string): HeroClient {
    let client = this.#heroes.get(heroBaseUrl);
    if (!client) {
      const auth = createHeroClient({ ...this.#options, baseUrl: heroBaseUrl, token: this.platformToken });
      const heroToken = this.#keep(new RenewingToken(() => unwrap(auth.POST('/auth'))));
      client = createHeroClient({ ...this.#options, baseUrl: heroBaseUrl, token: heroToken });
      this.#heroes.set(heroBaseUrl, client);
    }
    return client;
  }

  /** Forgets every token of the session (each stays valid until it expires: the platform keeps no sign-out). */
  signOut() {
    for (const token of this.#tokens) token.clear();
  }

  #clientFor(gameCode: string | undefined): MainClient {
    return createMainClient({
      ...this.#options,
      token: (kinds: readonly TokenKind[]) => {
        if (kinds.includes('platform') || !kinds.includes('game')) return this.platformToken;
        if (gameCode === undefined) throw new Error('this operation takes a game token: give the sign-in a gameCode, or use inGame(gameCode)');
        return this.#gameToken(gameCode);
      },
    });
  }

  #gameToken(gameCode: string): RenewingToken {
    let token = this.#games.get(gameCode);
    if (!token) {
      const platform = this.api;
      token = this.#keep(new RenewingToken(() => unwrap(platform.GET('/account/chainwallet/token', { params: { query: { game_code: gameCode } } }))));
      this.#games.set(gameCode, token);
    }
    return token;
  }

  #keep(token: RenewingToken): RenewingToken {
    this.#tokens.push(token);
    return token;
  }
}
