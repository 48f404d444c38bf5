import { type ClientOptions, createHeroClient, createMainClient, type HeroClient, type MainClient } from './client.js';
import { unwrap } from './errors.js';
import { RenewingToken } from './tokens.js';

/** The options of a player's clients: those of any client, without the token (the session's). */
export type SessionOptions = Omit<ClientOptions, 'token'>;

/**
 * A signed-in player: clients that call with the player's tokens, each renewed before it expires. The platform
 * token is renewed by signing in again (the wallet signs a new nonce; zkLogin asks for a fresh id_token); a game
 * token and the hero token are asked for with the platform token when needed.
 */
export class PlayerSession {
  /** Calls with the platform token (buying tickets, the player's own records). */
  readonly platform: MainClient;
  readonly #games = new Map<string, MainClient>();
  readonly #heroes = new Map<string, HeroClient>();
  readonly #tokens: RenewingToken[] = [];

  constructor(
    /** The player's user id. */
    readonly userId: string,
    private readonly platformToken: RenewingToken,
    private readonly options: SessionOptions,
  ) {
    this.#tokens.push(platformToken);
    this.platform = createMainClient({ ...options, token: platformToken });
  }

  /** Calls with the player's game token for a game (`game_code`): spending tickets in it, its scores. */
  game(gameCode: string): MainClient {
    let client = this.#games.get(gameCode);
    if (!client) {
      const token = this.#track(
        new RenewingToken(async () => {
          const { data } = await unwrap(this.platform.GET('/account/chainwallet/token', { params: { query: { game_code: gameCode } } }));
          return data;
        }),
      );
      client = createMainClient({ ...this.options, token });
      this.#games.set(gameCode, client);
    }
    return client;
  }

  /** Calls the hero game's base (`https://<hero api>/hero-<environment>`) with the player's hero token. */
  hero(heroBaseUrl: string): HeroClient {
    let client = this.#heroes.get(heroBaseUrl);
    if (!client) {
      const token = this.#track(
        new RenewingToken(async () => {
          const auth = createHeroClient({ ...this.options, baseUrl: heroBaseUrl, token: this.platformToken });
          return unwrap(auth.POST('/auth'));
        }),
      );
      client = createHeroClient({ ...this.options, baseUrl: heroBaseUrl, token });
      this.#heroes.set(heroBaseUrl, client);
    }
    return client;
  }

  /** Forgets every token of the session (they stay valid until they expire: the platform has no sign-out). */
  signOut() {
    for (const token of this.#tokens) token.clear();
  }

  #track(token: RenewingToken): RenewingToken {
    this.#tokens.push(token);
    return token;
  }
}
