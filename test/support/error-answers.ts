import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Hono, type Context, type ErrorHandler } from 'hono';
import { removeEndedRunFolders, runFolder } from './transaction-journal.js';

/**
 * Every error answer of a whole test run, as `METHOD route-path status code retry-after` (the last `1` when the
 * answer carried a Retry-After header; test/error-answers.test.ts checks each
 * against the OpenAPI document). Each group app sets its error responder with `onError` on the app `basePath` made
 * (core/http/app.ts createGroupApp); this wraps every such responder, in every test process, to note what it
 * answered and the route the failing handler was matched by. Each process writes what it saw to its file in a
 * folder of the run after each test file, like the response inspection (test/support/response-inspection.ts).
 */
const PREFIX = 'server-error-answers-';
const INSTALLED = Symbol.for('game-platform.error-answers');

export const errorAnswersDir = () => runFolder(PREFIX);

/** Installs the wrapping once per process; answers `save`, which writes what this process saw to its file in `dir`. */
export function recordErrorAnswers(dir: string): () => void {
  const global = globalThis as Record<symbol, unknown>;
  const seen = (global[INSTALLED] ??= install()) as Set<string>;
  mkdirSync(dir, { recursive: true });
  return () => writeFileSync(join(dir, `${process.pid}.json`), JSON.stringify([...seen]));
}

function install(): Set<string> {
  const seen = new Set<string>();
  const basePath = Hono.prototype.basePath;
  Hono.prototype.basePath = function (this: Hono, path: string) {
    const app = basePath.call(this, path);
    // The field keeps Hono's default handler as it is (route() compares it); a handler set later is wrapped.
    let handler = (app as unknown as { errorHandler: ErrorHandler }).errorHandler;
    Object.defineProperty(app, 'errorHandler', {
      get: () => handler,
      set: (set: ErrorHandler) => (handler = noting(set, seen)),
      configurable: true,
    });
    return app;
  };
  return seen;
}

function noting(handler: ErrorHandler, seen: Set<string>): ErrorHandler {
  return async (error, c) => {
    const response = await handler(error, c);
    await note(c, response, seen).catch(() => undefined);
    return response;
  };
}

async function note(c: Context, response: Response, seen: Set<string>) {
  if (!response.headers.get('content-type')?.includes('json')) return;
  const body = (await response.clone().json()) as { error?: unknown; error_code?: unknown; error_description?: unknown };
  const code = 'error_description' in body ? body.error_code : body.error;
  seen.add(`${c.req.method} ${c.req.routePath} ${response.status} ${String(code)} ${response.headers.has('retry-after') ? 1 : 0}`);
}

/** Every answer noted in `dir`: `[method, route path, status, code, carried Retry-After]`, once each. */
export function readErrorAnswers(dir: string): [string, string, number, string, boolean][] {
  if (!existsSync(dir)) return [];
  const lines = new Set(readdirSync(dir).flatMap((file) => JSON.parse(readFileSync(join(dir, file), 'utf8')) as string[]));
  return [...lines].map((line) => {
    const [method, path, status, code, retryAfter] = line.split(' ') as [string, string, string, string, string];
    return [method, path, Number(status), code, retryAfter === '1'];
  });
}

/** Removes the folders of runs whose main process has ended. */
export const removeEndedRunErrorAnswers = () => removeEndedRunFolders(PREFIX);
