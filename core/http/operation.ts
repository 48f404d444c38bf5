import type * as z from 'zod/mini';
import type { HonoRequest } from 'hono';
import type { Deps } from '../deps.js';
import type { TokenClaims, TokenKind } from '../platform/tokens.js';
import type { ItemKey } from '../platform/read-ahead.js';
import type { SuccessEnvelope } from './envelopes.js';
import type { StoreTokenRule } from '../partner-store/bearer.js';
import type { ErrorCode } from './error-catalogue.js';
import type { Tag } from './tags.js';

/**
 * An operation's contract: where it is routed, who may call it, what it takes and what it answers. The
 * route tables in functions/routes are made of these; the same objects drive the Hono apps, the API Gateway
 * routes in infra and the OpenAPI documents, so the three cannot drift apart.
 */
export type GroupName = 'inner' | 'boards' | 'admin-console' | 'outer' | 'withoutkey' | 'chain' | 'third-pay' | 'pay' | 'partner-store' | 'hero' | 'meta';

/**
 * Where an operation's path is: under the main base (`/<stage>`), the hero base (`/hero-<environment>`), or at
 * the root of the main API's host (`root`: what a standard puts outside any base path, such as RFC 8414 §3.1's
 * `/.well-known/oauth-authorization-server/<issuer path>`, and the home page `/`). Root operations are documented
 * with the main base.
 */
export type Base = 'main' | 'hero' | 'root';
export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** A field of the validated input an ownership rule is about, e.g. `body.projectName` or `query.userId`. */
export type FieldRef = `${'body' | 'query' | 'params'}.${string}`;

/**
 * Which records a caller may touch (docs/security.md). The authorization layer (core/http/policy.ts) enforces
 * every rule but `record` before the handler runs:
 * - `own`: the operation acts only on the caller's own records, selected by the token's subject; nothing in the
 *   input names another's.
 * - `self`: the field names a user; a player token's subject must be that user (403). A server token may name
 *   any user: its `project` rule bounds what it touches; but not a player who deleted their account (404).
 * - `project`, `game`, `goods`: the field names one (404 when there is none); a merchant or server token's
 *   account must own it (403); for `project`, a game token's game must belong to the project's merchant (403).
 *   Absent optional fields are not checked.
 * - `record`: the field names a record (an order, a history entry, a bill) whose `owner` attribute must be the
 *   caller; the domain reads that record anyway, so the rule is checked where it is read, by the one shared
 *   check `assertRecordOwner` (core/access/records.ts), and answers 404 so ids cannot be probed.
 * - `any`: the operation reaches any record for the reason given (admins, a catalogue, a server's lookup).
 */
export type Ownership =
  | { readonly rule: 'own' }
  | { readonly rule: 'self' | 'project' | 'game' | 'goods'; readonly field: FieldRef }
  | { readonly rule: 'record'; readonly field: FieldRef; readonly record: string; readonly owner: string }
  | { readonly rule: 'any'; readonly why: string };

/** A token operation's policy: who may call it and which records it may touch. */
export interface TokenRule {
  /** The token kinds accepted (any one of them). */
  readonly tokens: readonly TokenKind[];
  /**
   * Restricted to admin console accounts. An admin operation is the platform's: the suspension of a merchant the
   * admin account owns does not refuse it (core/http/policy.ts `accountChecks`).
   */
  readonly role?: 'admin';
  /** Every rule must hold; at least one is declared (test/policy.test.ts walks every route). */
  readonly owns: readonly Ownership[];
  /**
   * Moves value (tickets, orders, rewards, payouts): the state of a console or server token's account (its
   * merchant's suspension, its revocations) may be at most VALUE_STATE_MS old (core/access/principals.ts
   * valueMovingState). Player tokens carry no account state to read.
   */
  readonly movesValue?: boolean;
  /** A suspended merchant's console token may still call it: reads of its own records, so it sees its status. */
  readonly whileSuspended?: boolean;
  /**
   * A deleted player's own token may still call it: the account deletion itself, whose retry after a lost answer
   * or a crash comes with the token the deletion's start already refuses everywhere else.
   */
  readonly whileDeleted?: boolean;
  /**
   * Token kinds recognized and refused with 403 and this reason (`auth.kind_refused`), where "not this kind of
   * token" (401) would hide the rule: a game server's token on a player's own data rights.
   */
  readonly refused?: Readonly<Partial<Record<TokenKind, string>>>;
  /** Partner store tokens (with `tokens: ['store']`): which region's, and which kinds and scope (core/partner-store/bearer.ts). */
  readonly store?: StoreTokenRule;
}

/** `open` (no token: catalogue reads, sign-in, signed callbacks), or a token policy. */
export type AuthRule = 'open' | TokenRule;

type Schema = z.ZodMiniType;

export interface OperationSpec {
  /** The operation's catalogue name (docs/api.md, "The compatibility contract"), used as the OpenAPI operationId. */
  readonly name: string;
  readonly method: Method;
  /** Hono path inside the base, e.g. `/merchant/create` or `/account/vendor/goods/:goodsId`. */
  readonly path: string;
  readonly auth: AuthRule;
  /**
   * The section of the API reference it is listed under, by what it is for (core/http/tags.ts), whichever group
   * serves it: the groups are how the operations are deployed, not how a reader looks for them.
   */
  readonly tag: Tag;
  readonly summary: string;
  readonly description?: string;
  readonly query?: Schema;
  readonly params?: Schema;
  /** A JSON body schema, or `multipart` for file uploads (described by `multipartFields`). */
  readonly body?: Schema | 'multipart';
  /**
   * How a schema `body` is sent: JSON (the default), or `form` (`application/x-www-form-urlencoded`, as OAuth's
   * token endpoint takes it: each parameter once, an empty value as absent; core/http/form-body.ts).
   */
  readonly bodyType?: 'json' | 'form';
  /**
   * The envelope of this operation's errors when not its path's: `oauth` for the OAuth endpoints (RFC 6749 §5.2
   * `{error, error_description}`; every response of the operation, success or error, carries
   * `Cache-Control: no-store`).
   */
  readonly errorEnvelope?: 'oauth';
  readonly multipartFields?: Record<string, string>;
  /** Optional request headers the handler reads (name -> what it does), for the reference. */
  readonly headers?: Record<string, string>;
  readonly status: 200 | 201;
  readonly envelope: SuccessEnvelope;
  /** The record inside the envelope (`data` for merchant and paged envelopes), or the whole bare body. */
  readonly response: Schema;
  /** Error statuses this operation can answer, with what causes each (for the reference). */
  readonly errors: Readonly<Partial<Record<400 | 401 | 403 | 404 | 409 | 413 | 415 | 422 | 429 | 503, string>>>;
  /**
   * The codes the handler can answer (its domain's, core/<domain>/errors.ts), each of a status `errors` lists. What
   * the HTTP layer answers for the spec (bodies, tokens, the policy, the table) is not listed: core/http/operation-codes.ts
   * derives it. The OpenAPI document's error responses list exactly both, per status.
   */
  readonly codes?: readonly ErrorCode[];
  /**
   * The `data` an error of a merchant-path operation carries instead of null, per status: where the contract
   * fixes an error body that resembles the success body (gamelist's 401: `{total: "0", games: []}`). It must be a
   * valid `response` record (the OpenAPI document checks it); the error responder (core/http/app.ts) and the
   * document (core/http/openapi.ts) both use it.
   */
  readonly errorData?: Readonly<Partial<Record<keyof OperationSpec['errors'], unknown>>>;
  /** The operation never reads or writes the table (no 503 for the table's failures is documented for it). */
  readonly tableFree?: boolean;
  /**
   * What a 302 the operation answers means (the OAuth authorization endpoint's error redirects); none by default.
   * The domain asks for it by throwing a RedirectAnswer (core/platform/redirect.ts).
   */
  readonly redirect?: string;
  /**
   * The success answer is an HTML page (a text `response`): the handler returns its text, answered as
   * `text/html; charset=utf-8` with these headers (its Content-Security-Policy, caching).
   */
  readonly page?: { readonly headers: Readonly<Record<string, string>> };
  /** A non-JSON success response (the docs page, raw files): the handler returns a Response itself. */
  readonly raw?: boolean;
  /** The media types a raw operation's success answers (by default text/html for a text schema, else JSON). */
  readonly mediaTypes?: readonly string[];
}

export interface RouteGroup<Ops extends Record<string, OperationSpec> = Record<string, OperationSpec>> {
  /** The function that serves the operations (functions/<group>.ts, one Lambda). */
  readonly group: GroupName;
  readonly base: Base;
  readonly ops: Ops;
}

/**
 * The URL path an operation is served at: its base's path (`/v2-testing`, `/hero-testing`, or nothing at the host
 * root), then its own. The path `/` is the base itself (`/v2-testing`, and `/` at the host root), as Hono joins them.
 */
export function routePathOf(basePath: string, path: string): string {
  return `${basePath}${path === '/' ? '' : path}` || '/';
}

export function defineGroup<const Ops extends Record<string, OperationSpec>>(group: GroupName, base: Base, ops: Ops): RouteGroup<Ops> {
  return { group, base, ops };
}

type Infer<S> = S extends Schema ? z.infer<S> : undefined;

export interface HandlerInput<O extends OperationSpec> {
  query: Infer<O['query']>;
  params: Infer<O['params']>;
  body: O['body'] extends 'multipart' ? Record<string, string | File> : Infer<O['body']>;
  /** The verified token's claims; undefined on open operations. */
  auth: O['auth'] extends 'open' ? undefined : TokenClaims;
  deps: Deps;
  req: HonoRequest;
}

export type HandlerOutput<O extends OperationSpec> = O['raw'] extends true
  ? Response
  : O['page'] extends object
    ? string
    : O['envelope'] extends 'paged'
      ? { data: z.input<O['response']>; totalPage: number }
      : z.input<O['response']>;

/** What an operation's first reads are built from: its validated input, and the Idempotency-Key when one is sent. */
export interface ReadsRequest<O extends OperationSpec = OperationSpec> {
  query: Infer<O['query']>;
  params: Infer<O['params']>;
  body: HandlerInput<O>['body'];
  idempotencyKey?: string;
}

/**
 * The items each operation's handler reads first, declared beside the handlers (functions/<group>.ts) by the
 * domain's own function, the one the handler reads them with: when the authorization layer reads fresh anyway (a
 * value-moving call's account state, a write's deletion mark, a store session's user), it reads these in the same
 * batch and the handler's read of them is answered from it (core/platform/read-ahead.ts). One request saved.
 */
export type FirstReads<G extends RouteGroup> = {
  [K in keyof G['ops']]?: (request: ReadsRequest<G['ops'][K]>, caller: TokenClaims, deps: Deps) => ItemKey[];
};

export type Handlers<G extends RouteGroup> = {
  [K in keyof G['ops']]: (input: HandlerInput<G['ops'][K]>) => Promise<HandlerOutput<G['ops'][K]>>;
};
