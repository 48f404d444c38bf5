import createClient, { type Client, type Middleware } from 'openapi-fetch';
import { errorCodeOf } from './errors.js';
import type { paths as HeroPaths } from './generated/hero.js';
import type { paths as MainPaths } from './generated/main.js';
import { heroOperations, mainOperations } from './generated/operations.js';
import { type RetryPolicy, retryingFetch } from './retry.js';
import { fixedToken, type TokenSource } from './tokens.js';

/** A client of the main base: every operation of the main OpenAPI document, typed. */
export type MainClient = Client<MainPaths>;
/** A client of the hero game's base. */
export type HeroClient = Client<HeroPaths>;

/** The token kinds of the platform (a token's audience). */
export type TokenKind = 'merchant' | 'server' | 'platform' | 'game' | 'hero' | 'store';

/** Picks the token to send to an operation from the kinds it takes (undefined: send none). */
export type TokenChooser = (kinds: readonly TokenKind[]) => TokenSource | undefined;

type Fetch = (request: Request) => Promise<Response>;

export interface ClientOptions {
  /** The base URL: `https://<api>/<stage>` for the main base, `https://<hero api>/hero-<environment>` for the hero game. */
  baseUrl: string;
  /**
   * The bearer of every call that has no Authorization of its own: a token, a source that renews it, or a chooser
   * given the token kinds each operation takes (a player's session: the platform token where it is taken, else
   * the game token).
   */
  token?: string | TokenSource | TokenChooser;
  /** When calls are sent again (a 503 with Retry-After, a 409 the platform marks retryable). */
  retry?: RetryPolicy;
  /** The fetch to send requests with (default the global fetch). */
  fetch?: Fetch;
}

/** What the runtime knows of a base's operations (generated from its document). */
interface OperationFacts {
  idempotent: readonly string[];
  tokenKinds: Readonly<Record<string, string>>;
}

const withBearer = async (request: Request, source: TokenSource) => {
  const headers = new Headers(request.headers);
  headers.set('authorization', `Bearer ${await source.get()}`);
  return new Request(request, { headers });
};

/**
 * Per call, before it is sent: an Idempotency-Key of its own for an operation that takes one (unless the caller
 * set one), so that its retries, sent with the same key, are answered the first answer instead of being done
 * again; and the bearer, of a kind the operation takes, unless the caller set an Authorization. The source a
 * request's bearer came from is kept for renewingFetch.
 */
function perCall(facts: OperationFacts, choose: TokenChooser, sources: WeakMap<Request, TokenSource>): Middleware {
  const keyed = new Set(facts.idempotent);
  return {
    async onRequest({ request, schemaPath }) {
      const operation = `${request.method} ${schemaPath}`;
      if (keyed.has(operation) && !request.headers.has('idempotency-key')) request.headers.set('idempotency-key', crypto.randomUUID());
      const kinds = facts.tokenKinds[operation]?.split(' ') as TokenKind[] | undefined;
      const source = kinds && !request.headers.has('authorization') ? choose(kinds) : undefined;
      if (!source) return request;
      const authorized = await withBearer(request, source);
      sources.set(authorized, source);
      return authorized;
    },
  };
}

/**
 * When the answer is 401 `auth.token_expired` (the token expired on the way, or the clocks disagree), renews the
 * request's token and sends the request once more.
 */
function renewingFetch(sources: WeakMap<Request, TokenSource>, inner: Fetch): Fetch {
  return async (request) => {
    const source = sources.get(request);
    if (!source?.refresh) return inner(request);
    const response = await inner(request.clone());
    if (response.status !== 401 || (await errorCodeOf(response)) !== 'auth.token_expired') return response;
    await response.body?.cancel();
    await source.refresh();
    return inner(await withBearer(request, source));
  };
}

function chooserOf(token: ClientOptions['token']): TokenChooser {
  if (token === undefined) return () => undefined;
  if (typeof token === 'function') return token;
  const source = typeof token === 'string' ? fixedToken(token) : token;
  return () => source;
}

function clientOf<Paths extends {}>(options: ClientOptions, facts: OperationFacts): Client<Paths> {
  const sources = new WeakMap<Request, TokenSource>();
  const base: Fetch = options.fetch ?? ((request) => globalThis.fetch(request));
  const client = createClient<Paths>({ baseUrl: options.baseUrl, fetch: renewingFetch(sources, retryingFetch(base, options.retry)) });
  client.use(perCall(facts, chooserOf(options.token), sources));
  return client;
}

/** A typed client of the main base (players, game servers, consoles, the partner store). */
export const createMainClient = (options: ClientOptions): MainClient => clientOf<MainPaths>(options, mainOperations);

/** A typed client of the hero game's base. */
export const createHeroClient = (options: ClientOptions): HeroClient => clientOf<HeroPaths>(options, heroOperations);
