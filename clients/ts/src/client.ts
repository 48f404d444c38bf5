import createClient, { type Client, type Middleware } from 'openapi-fetch';
import type { paths as HeroPaths } from './generated/hero.js';
import { idempotentOperations } from './generated/idempotent.js';
import type { paths as MainPaths } from './generated/main.js';
import { type RetryPolicy, retryingFetch } from './retry.js';
import { fixedToken, type TokenSource } from './tokens.js';

/** A client of the main base: every operation of the main OpenAPI document, typed. */
export type MainClient = Client<MainPaths>;
/** A client of the hero game's base. */
export type HeroClient = Client<HeroPaths>;

type Fetch = (request: Request) => Promise<Response>;

export interface ClientOptions {
  /** The base URL: `https://<api>/<stage>` for the main base, `https://<hero api>/hero-<environment>` for the hero game. */
  baseUrl: string;
  /** The bearer sent with every call that has no Authorization of its own: a token, or a source that renews it. */
  token?: string | TokenSource;
  /** When calls are sent again (a 503 with Retry-After, a 409 the platform marks retryable). */
  retry?: RetryPolicy;
  /** The fetch to send requests with (default the global fetch). */
  fetch?: Fetch;
}

/** Whether a JSON answer carries the given `error` code (read from a copy; the caller still reads the body). */
async function carriesCode(response: Response, code: string): Promise<boolean> {
  const body = (await response
    .clone()
    .json()
    .catch(() => undefined)) as { error?: unknown } | undefined;
  return body?.error === code;
}

/**
 * Adds the bearer to a request that has none, and when the answer is 401 `auth.token_expired` (the token expired
 * on the way, or the clocks disagree) renews the token and sends the request once more.
 */
function authorizedFetch(source: TokenSource | undefined, inner: Fetch): Fetch {
  if (!source) return inner;
  const send = async (request: Request) => {
    const headers = new Headers(request.headers);
    headers.set('authorization', `Bearer ${await source.get()}`);
    return inner(new Request(request, { headers }));
  };
  return async (request) => {
    if (request.headers.has('authorization')) return inner(request);
    const response = await send(source.refresh ? request.clone() : request);
    if (!source.refresh || response.status !== 401 || !(await carriesCode(response, 'auth.token_expired'))) return response;
    await response.body?.cancel();
    await source.refresh();
    return send(request);
  };
}

/**
 * Gives each call of an operation that takes an Idempotency-Key a key of its own (unless the caller set one), so
 * that its retries, sent with the same key, are answered the first answer instead of being done again. A caller
 * that retries a call itself (after a crash, say) passes the key it kept: `headers: {'Idempotency-Key': key}`.
 */
function idempotencyKeys(operations: readonly string[]): Middleware {
  const keyed = new Set(operations);
  return {
    onRequest({ request, schemaPath }) {
      if (keyed.has(`${request.method} ${schemaPath}`) && !request.headers.has('idempotency-key')) request.headers.set('idempotency-key', crypto.randomUUID());
      return request;
    },
  };
}

function clientOf<Paths extends {}>(options: ClientOptions, keyed: readonly string[]): Client<Paths> {
  const source = typeof options.token === 'string' ? fixedToken(options.token) : options.token;
  const base: Fetch = options.fetch ?? ((request) => globalThis.fetch(request));
  const client = createClient<Paths>({ baseUrl: options.baseUrl, fetch: retryingFetch(authorizedFetch(source, base), options.retry) });
  client.use(idempotencyKeys(keyed));
  return client;
}

/** A typed client of the main base (players, game servers, consoles, the partner store). */
export const createMainClient = (options: ClientOptions): MainClient => clientOf<MainPaths>(options, idempotentOperations.main);

/** A typed client of the hero game's base. */
export const createHeroClient = (options: ClientOptions): HeroClient => clientOf<HeroPaths>(options, idempotentOperations.hero);
