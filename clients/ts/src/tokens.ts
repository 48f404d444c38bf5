/** A bearer token and when it stops being accepted, as the platform's sign-in operations answer them. */
export interface Token {
  accessToken: string;
  /** ISO 8601 */
  expiresAt: string;
}

/** How long before its expiry a token is renewed, so that a call never leaves with a token about to expire. */
const RENEW_BEFORE_MS = 60_000;

/**
 * A token that renews itself: `get()` answers the current one while it has more than a minute left, otherwise
 * the renewal's (one renewal at a time, however many calls wait for it). A failed renewal is thrown to the
 * callers waiting and tried again by the next `get()`.
 */
export class RenewingToken {
  #current: Token | undefined;
  #renewing: Promise<Token> | undefined;

  constructor(
    private readonly renew: () => Promise<Token>,
    first?: Token,
    private readonly now: () => number = Date.now,
  ) {
    this.#current = first;
  }

  /** The current token, valid for at least another minute. */
  async get(): Promise<string> {
    const current = this.#current;
    if (current && Date.parse(current.expiresAt) - this.now() > RENEW_BEFORE_MS) return current.accessToken;
    return (await this.refresh()).accessToken;
  }

  /** A new token now (after a 401 saying the token expired: the clocks disagree). */
  refresh(): Promise<Token> {
    this.#renewing ??= this.renew()
      .then((token) => (this.#current = token))
      .finally(() => (this.#renewing = undefined));
    return this.#renewing;
  }

  /** Forgets the token (signing out). */
  clear() {
    this.#current = undefined;
  }
}

/** A token that never changes (a game server's server token). */
export const fixedToken = (accessToken: string) => ({ get: async () => accessToken, refresh: undefined });

/** What a client takes its bearer from. */
export interface TokenSource {
  get(): Promise<string>;
  /** Present when the token can be renewed: called once after a 401 `auth.token_expired`. */
  refresh?: (() => Promise<unknown>) | undefined;
}
