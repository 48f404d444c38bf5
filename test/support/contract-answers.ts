import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Context, Hono } from 'hono';
import { TrieRouter } from 'hono/router/trie-router';
import { basePathOf } from '../../core/http/app.js';
import { routePathOf, type Base, type OperationSpec } from '../../core/http/operation.js';
import { routeTable } from '../../functions/routes/index.js';
import { servedDocument, validatorOf } from './openapi-check.js';
import { removeEndedRunFolders, runFolder } from './transaction-journal.js';

/**
 * Every answer of a whole test run checked against the OpenAPI document clients are generated from
 * (test/contract-answers.test.ts reads the findings): the status is one the operation's document lists, every
 * header the document requires for it is there, a Retry-After is sent only where the document names it, it
 * carries `X-Content-Type-Options: nosniff`, the media type is one it lists, and a JSON body validates against its schema (JSON Schema 2020-12, ajv). Each
 * group app's `basePath` app gets a middleware, in every test process, that checks the answer after the
 * handler, the error responder or the not-found answer made it. 500s are no operation's contract (faults).
 * Each process writes what it checked and found to its file in a folder of the run, as the error answers are.
 */
const PREFIX = 'server-contract-answers-';
const INSTALLED = Symbol.for('game-platform.contract-answers');

export interface ContractFindings {
  /** `operation status` of every answer checked, once each. */
  checked: string[];
  /** What departed from the document, once each. */
  violations: string[];
}

export const contractAnswersDir = () => runFolder(PREFIX);

/** Installs the checking once per process; answers `save`, which writes this process's findings to its file in `dir`. */
export function recordContractAnswers(dir: string): () => void {
  const global = globalThis as Record<symbol, unknown>;
  const found = (global[INSTALLED] ??= install()) as { checked: Set<string>; violations: Set<string> };
  mkdirSync(dir, { recursive: true });
  return () => writeFileSync(join(dir, `${process.pid}.json`), JSON.stringify({ checked: [...found.checked], violations: [...found.violations] }));
}

/** The operation a matched route path (with its base's path) is of, and its base. */
export function operationAt(method: string, routePath: string): { op: OperationSpec; base: Base } | undefined {
  for (const group of routeTable) {
    for (const op of Object.values(group.ops)) {
      // The path `/` is the base itself (routePathOf): `/v2-testing`, and `/` at the host root.
      const own = op.path === '/' ? '' : op.path;
      if (op.method !== method || !routePath.endsWith(own)) continue;
      const prefix = own === '' && routePath === '/' ? '' : routePath.slice(0, routePath.length - own.length);
      const base = prefix === '' ? 'root' : /^\/hero-[^/]+$/.test(prefix) ? 'hero' : /^\/[^/]+$/.test(prefix) ? 'main' : undefined;
      if (base === group.base) return { op, base };
    }
  }
  return undefined;
}

function install() {
  const found = { checked: new Set<string>(), violations: new Set<string>() };
  const basePath = Hono.prototype.basePath;
  Hono.prototype.basePath = function (this: Hono, path: string) {
    const app = basePath.call(this, path);
    app.use('*', async (c, next) => {
      await next();
      await check(c, found).catch((error: Error) => found.violations.add(`${c.req.method} ${c.req.path}: the check failed: ${error.message}`));
    });
    return app;
  };
  return found;
}

/** The served document, plain JSON. */
type Document = Record<string, any>;
const documents = new Map<string, Document>();

/**
 * The served document a base's operation is in: the hero document, or the main one (which holds the root's
 * operations too). Its paths are relative to the base, so one document of each serves every stage.
 */
function documentOf(base: Base): Document {
  const which = base === 'hero' ? 'hero' : 'main';
  if (!documents.has(which)) documents.set(which, servedDocument(basePathOf(which, 'v2-testing'), which));
  return documents.get(which)!;
}

export type Found = { checked: Set<string>; violations: Set<string> };

/** The answer a group app made, checked against the operation its matched route is of. */
async function check(c: Context, found: Found) {
  const route = [...c.req.matchedRoutes].reverse().find((r) => r.method !== 'ALL');
  const at = route && operationAt(c.req.method, route.path);
  if (at) await checkAnswer(at, c.res, found);
}

/** An answer of an operation checked against its document: what `found` records. */
async function checkAnswer({ op, base }: { op: OperationSpec; base: Base }, res: Response, found: Found) {
  const status = res.status;
  if (status === 500) return;
  const path = op.path.replace(/:(\w+)/g, '{$1}');
  const name = `${op.name} ${status}`;
  found.checked.add(name);
  const response = documentOf(base).paths[path]?.[op.method.toLowerCase()]?.responses?.[String(status)];
  if (!response) {
    found.violations.add(`${name}: the status is not documented`);
    return;
  }
  for (const [header, spec] of Object.entries<{ required?: boolean }>(response.headers ?? {})) {
    if (spec.required && !res.headers.has(header)) found.violations.add(`${name}: the required ${header} header is missing`);
  }
  if (res.headers.has('retry-after') && !response.headers?.['Retry-After']) found.violations.add(`${name}: Retry-After is sent but not documented`);
  // Every answer is taken as its media type only (core/http/answer-headers.ts).
  if (res.headers.get('x-content-type-options') !== 'nosniff') found.violations.add(`${name}: no X-Content-Type-Options: nosniff`);
  const type = res.headers.get('content-type')?.split(';')[0]?.trim();
  if (!response.content) {
    if (type && res.body) found.violations.add(`${name}: a ${type} body where the document gives none`);
    return;
  }
  const media = type ? response.content[type] : undefined;
  if (!media) {
    found.violations.add(`${name}: ${type ?? 'no content type'}, the document gives ${Object.keys(response.content).join(', ')}`);
    return;
  }
  if (type !== 'application/json' || !media.schema) return;
  const validate = validatorOf(media.schema);
  if (!validate(await res.clone().json())) {
    const [first] = validate.errors ?? [];
    found.violations.add(`${name}: the body departs from its schema at ${first?.instancePath || '/'} (${first?.message})`);
  }
}

/** Every operation under its base's path, routed by Hono's router as the group apps route them. */
let operations: TrieRouter<{ op: OperationSpec; base: Base }> | undefined;

/** The operation a request's URL path is of (`/v2-testing/account/nonce`, `/hero-testing/heroes/nft/0x…`). */
function operationOfUrl(method: string, pathname: string): { op: OperationSpec; base: Base } | undefined {
  if (!operations) {
    operations = new TrieRouter();
    for (const group of routeTable) {
      for (const op of Object.values(group.ops))
        operations.add(op.method, routePathOf(basePathOf(group.base, 'v2-testing'), op.path), { op, base: group.base });
    }
  }
  return operations.match(method, pathname)[0][0]?.[0];
}

/**
 * A fetch whose answers are checked against the document like the group apps' (for a client calling a server
 * in another process, `npm start`): recorded with this process's findings.
 */
export function contractCheckedFetch(
  inner: (request: Request) => Promise<Response> = (request) => fetch(request),
  found = (globalThis as Record<symbol, unknown>)[INSTALLED] as Found | undefined,
) {
  return async (request: Request): Promise<Response> => {
    const response = await inner(request);
    const at = operationOfUrl(request.method, new URL(request.url).pathname);
    if (found && at)
      await checkAnswer(at, response.clone(), found).catch((error: Error) =>
        found.violations.add(`${request.method} ${request.url}: the check failed: ${error.message}`),
      );
    return response;
  };
}

/**
 * What departs from the document in one answer, checked as the run's answers are: the operation is the one at
 * `method` and the request's URL path (`/v2-testing/account/user/orderComplete`); [] when it conforms.
 */
export async function answerViolations(method: string, pathname: string, response: Response): Promise<string[]> {
  const at = operationOfUrl(method, pathname);
  if (!at) return [`${method} ${pathname}: no operation there`];
  const found: Found = { checked: new Set(), violations: new Set() };
  await checkAnswer(at, response, found);
  return [...found.violations];
}

/** Every process's findings in `dir`, merged. */
export function readContractAnswers(dir: string): ContractFindings {
  if (!existsSync(dir)) return { checked: [], violations: [] };
  const all = readdirSync(dir).map((file) => JSON.parse(readFileSync(join(dir, file), 'utf8')) as ContractFindings);
  return { checked: [...new Set(all.flatMap((f) => f.checked))], violations: [...new Set(all.flatMap((f) => f.violations))] };
}

/** Removes the folders of runs whose main process has ended. */
export const removeEndedRunContractAnswers = () => removeEndedRunFolders(PREFIX);
