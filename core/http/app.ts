import { Hono, type Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { heroBasePath, mainBasePath } from '../platform/stages.js';
import type { Deps } from '../deps.js';
import { DomainError, OAuthError } from '../platform/errors.js';
import { headersOf, statusOfKind } from './error-statuses.js';
import { codeOfHttpException } from './errors.js';
import { logError } from '../platform/log.js';
import { RedirectAnswer } from '../platform/redirect.js';
import { noteOperation } from '../platform/request-context.js';
import { withItemsReadAhead } from '../platform/read-ahead.js';
import { tableUnavailable } from '../platform/table-failures.js';
import { ANSWER_HEADERS, answerHeaders } from './answer-headers.js';
import { authenticate, type BearerVerifiers } from './auth.js';
import { errorBody, errorEnvelopeOf, successBody, type ErrorEnvelope } from './envelopes.js';
import type { Base, FirstReads, Handlers, OperationSpec, RouteGroup } from './operation.js';
import type { PolicedOperation } from './policy.js';
import { parseOrThrow, singleQuery } from './validation.js';
import { idempotencyKeyOf } from '../platform/idempotency-key.js';
import { applyJsonBodyRules, parseJsonBody, unsupportedType } from './json-body.js';
import { applyMultipartSizeLimit, readMultipartBody } from './multipart-body.js';
import { readFormBody } from './form-body.js';

/**
 * The policy layer (policy.ts) loads with the first request that needs it: it reads the table, and a function
 * whose operations are all open (meta) should not load the table's client at all.
 */
let policyModule: Promise<typeof import('./policy.js')> | undefined;
const policy = () => (policyModule ??= import('./policy.js'));

export function basePathOf(base: Base, stage: string): string {
  return base === 'hero' ? heroBasePath(stage) : base === 'root' ? '' : mainBasePath(stage);
}

/** The operation a request was routed to, for the error responder (an operation's declared `errorData`). */
const operationOf = new WeakMap<Context, OperationSpec>();

/** The `data` an operation declares for an error status in its envelope (OperationSpec `errorData`), if any. */
function errorDataOf(c: Context, status: number): unknown {
  return operationOf.get(c)?.errorData?.[status as keyof OperationSpec['errors']];
}

/** Maps any error to the envelope of the path it happened on. Unexpected errors are logged and answered 500. */
export function errorResponder(base: Base, basePath: string) {
  return async (error: unknown, c: Context) => {
    const envelope = operationOf.get(c)?.errorEnvelope ?? errorEnvelopeOf(base, c.req.path.slice(basePath.length));
    if (error instanceof DomainError) return answer(c, envelope, error);
    if (error instanceof HTTPException && error.status < 500) {
      const status = error.status as ContentfulStatusCode;
      return c.json(errorBody(envelope, status, error.message || 'bad request', codeOfHttpException(status), errorDataOf(c, status)), status);
    }
    const unavailable = tableUnavailable(error);
    if (unavailable) {
      await logError('table unavailable', { method: c.req.method, path: c.req.path, error: (error as Error).name });
      return answer(c, envelope, unavailable);
    }
    await logError('unhandled error', { method: c.req.method, path: c.req.path, error });
    return c.json(errorBody(envelope, 500, 'internal error', 'server.internal'), 500);
  };
}

/** A domain error in its envelope: the status of its kind, the headers of its data, its code beside the message. */
function answer(c: Context, envelope: ErrorEnvelope, error: DomainError) {
  const status = statusOfKind[error.kind];
  for (const [name, value] of Object.entries(headersOf(error))) c.header(name, value);
  const oauthCode = error instanceof OAuthError ? error.oauthCode : undefined;
  return c.json(errorBody(envelope, status, error.message, error.code, errorDataOf(c, status), oauthCode), status);
}

export function notFoundResponder(base: Base, basePath: string) {
  return (c: Context) => {
    // No middleware runs for a path no route matches: the answer's headers are set here.
    for (const [name, value] of Object.entries(ANSWER_HEADERS)) c.header(name, value);
    // The base with a trailing slash is the base, whose home page is its operation `/` (where the reference's
    // "try it" sends it: the document's server and the path joined).
    if (basePath !== '' && c.req.path === `${basePath}/` && (c.req.method === 'GET' || c.req.method === 'HEAD')) return c.redirect(basePath, 308);
    return c.json(
      errorBody(errorEnvelopeOf(base, c.req.path.slice(basePath.length)), 404, `no route for ${c.req.method} ${c.req.path}`, 'route.not_found'),
      404,
    );
  };
}

async function readBody(c: Context, op: OperationSpec, form: Record<string, string> | undefined): Promise<unknown> {
  if (!op.body) return undefined;
  if (op.body === 'multipart') return readMultipartBody(c);
  if (form) return parseOrThrow(op.body, form, 'body');
  // The Content-Type and the size were checked before (json-body.ts); a body without a Content-Type is refused here.
  const text = await c.req.text();
  if (text.trim() === '') return parseOrThrow(op.body, {}, 'body');
  if (c.req.header('content-type') === undefined) throw unsupportedType(undefined);
  return parseOrThrow(op.body, parseJsonBody(text), 'body');
}

/** The handler's result, or the redirect it asked for when the operation declares one. */
async function answerOf(op: OperationSpec, run: () => Promise<unknown>): Promise<unknown> {
  try {
    return await run();
  } catch (error) {
    if (op.redirect && error instanceof RedirectAnswer) return error;
    throw error;
  }
}

/**
 * Builds one operation group's Hono app: every operation of the route table gets its route, with auth,
 * validation at the edge and the envelope of its path. Handlers hold no HTTP: they take parsed input and
 * return the record.
 */
export function createGroupApp<G extends RouteGroup>(
  deps: Deps,
  routes: G,
  handlers: Handlers<G>,
  options: { verifiers?: BearerVerifiers; reads?: NoInfer<FirstReads<G>> } = {},
): Hono {
  const verifiers = options.verifiers ?? {};
  const basePath = basePathOf(routes.base, deps.stage);
  // Every answer on the base gets the answer headers; a request outside it, its 404 from notFoundResponder.
  const app = new Hono().basePath(basePath);
  app.use('*', answerHeaders);
  app.onError(errorResponder(routes.base, basePath));
  app.notFound(notFoundResponder(routes.base, basePath));

  for (const [name, op] of Object.entries(routes.ops) as [string, OperationSpec][]) {
    const handler = (handlers as Record<string, (input: unknown) => Promise<unknown>>)[name]!;
    const reads = (options.reads as Record<string, PolicedOperation['reads']> | undefined)?.[name];
    const formBody = op.bodyType === 'form';
    const jsonBody = op.body !== undefined && op.body !== 'multipart' && !formBody;
    // One handler per operation (each is one route, as infra routes it: test/infra.test.ts).
    app.on(op.method, op.path, async (c) => {
      operationOf.set(c, op);
      // The operation names the request's metrics and log lines (core/platform/request-context.ts).
      noteOperation(routes.group, name);
      // OAuth endpoints: no response of theirs, success or error, may be cached (RFC 6749 §5.1, §5.2).
      if (op.errorEnvelope === 'oauth') c.header('Cache-Control', 'no-store');
      // A JSON-body operation checks the Content-Type and the size before anything reads the body (415, 413).
      if (jsonBody) await applyJsonBodyRules(c);
      // A multipart body's size too (413), before the token is verified; its media type and parts are read after.
      else if (op.body === 'multipart') await applyMultipartSizeLimit(c);
      // A form body's media type and size too, and it is read then (its parameters may authenticate the client).
      const form = formBody ? await readFormBody(c) : undefined;
      const auth = await authenticate(c, op.auth, deps, verifiers);
      const params = op.params ? parseOrThrow(op.params, c.req.param(), 'path') : undefined;
      const query = op.query ? parseOrThrow(op.query, singleQuery(c), 'query') : undefined;
      const body = await readBody(c, op, form);
      // A malformed Idempotency-Key is bad input like a malformed field: 400 before the policy reads anything.
      const idempotencyKey = op.headers?.['Idempotency-Key'] ? idempotencyKeyOf(c.req.header('idempotency-key')) : undefined;
      const ahead =
        op.auth === 'open'
          ? undefined
          : await (await policy()).enforcePolicy(deps, { method: op.method, auth: op.auth, reads }, auth!, { query, params, body }, idempotencyKey);
      const run = () => handler({ query, params, body, auth, deps, req: c.req });
      const result = await answerOf(op, ahead ? () => withItemsReadAhead(ahead.keys, ahead.items, run) : run);
      if (result instanceof RedirectAnswer) return c.body(null, 302, { Location: result.location, 'Cache-Control': 'no-store' });
      if (op.raw) return result as Response;
      if (op.page) return c.body(result as string, op.status, { 'Content-Type': 'text/html; charset=utf-8', ...op.page.headers });
      return c.json(successBody(op.envelope, op.status, result) as object, op.status);
    });
  }
  return app;
}

/**
 * Serves several group apps from one Hono app (the local server, and the meta function that answers on both
 * bases). A path no app knows gets a 404 in the envelope of the base and path it was asked on.
 */
export function composeApps(stage: string, apps: Hono[]): Hono {
  const root = new Hono();
  // A path no app knows is answered by the root: its answer carries the same headers.
  root.use('*', answerHeaders);
  for (const app of apps) root.route('/', app);
  const hero = basePathOf('hero', stage);
  root.notFound((c) => {
    const base: Base = c.req.path.startsWith(`${hero}/`) || c.req.path === hero ? 'hero' : 'main';
    return notFoundResponder(base, basePathOf(base, stage))(c);
  });
  return root;
}
