import { describe, expect, it } from 'vitest';
import type { OperationSpec } from '../core/http/operation.js';
import { retryAfterCodes } from '../core/http/error-catalogue.js';
import { codesOf } from '../core/http/operation-codes.js';
import { routeTable } from '../functions/routes/index.js';
import { errorAnswersDir, readErrorAnswers, removeEndedRunErrorAnswers } from './support/error-answers.js';

/**
 * Every error the suite made an operation answer is documented for it (docs/api.md, "Error codes"): this file runs
 * in a group of its own after every other test file (vitest.config.ts) and reads the error answers of the whole run
 * (test/support/error-answers.ts); each code must be one the operation's document lists for the status it was
 * answered with. 500s (faults, `server.internal`) are no operation's contract.
 */

/** The operation a matched route path is of: the path inside its base, under the base the path's prefix is. */
function operationAt(method: string, routePath: string): OperationSpec | undefined {
  for (const group of routeTable) {
    for (const op of Object.values(group.ops)) {
      if (op.method !== method || !routePath.endsWith(op.path)) continue;
      const prefix = routePath.slice(0, routePath.length - op.path.length);
      const base = prefix === '' ? 'root' : /^\/hero-[^/]+$/.test(prefix) ? 'hero' : /^\/[^/]+$/.test(prefix) ? 'main' : undefined;
      if (base === group.base) return op;
    }
  }
  return undefined;
}

describe("the run's error answers", () => {
  it('every code an operation answered in the whole run is one its OpenAPI document lists for that status', () => {
    removeEndedRunErrorAnswers();
    const dir = errorAnswersDir();
    expect(dir).toBeDefined();
    const answers = readErrorAnswers(dir!).filter(([, , status]) => status !== 500);
    const undocumented = answers.flatMap(([method, path, status, code]) => {
      const op = operationAt(method, path);
      if (!op) return [`${method} ${path} ${status} ${code}: no operation has this route`];
      return codesOf(op)
        .get(status)
        ?.includes(code as never)
        ? []
        : [`${op.name} (${method} ${path}) answered ${status} ${code}`];
    });
    const operations = new Set(answers.map(([method, path]) => `${method} ${path}`));
    console.log(`error answers: ${answers.length} (operation, status, code) seen on ${operations.size} routes`);
    expect(undocumented.sort()).toEqual([]);
    // Not vacuous: the suite's tests of refusals answer most operations' errors.
    expect(operations.size, 'no error answer noted: run this file with the whole suite (npm test)').toBeGreaterThan(50);
  });

  it('an answer carries Retry-After exactly when its code is declared with it, as the OpenAPI document says', () => {
    const dir = errorAnswersDir();
    expect(dir).toBeDefined();
    const answers = readErrorAnswers(dir!).filter(([, , status]) => status !== 500);
    const wrong = answers
      .filter(([, , , code, retryAfter]) => retryAfterCodes.has(code) !== retryAfter)
      .map(([method, path, status, code, retryAfter]) => `${method} ${path} ${status} ${code} ${retryAfter ? 'with' : 'without'} Retry-After`);
    expect(wrong.sort()).toEqual([]);
    // Not vacuous: the suite makes the table busy and throttles sign-ins.
    const seen = new Set(answers.filter(([, , , , retryAfter]) => retryAfter).map(([, , , code]) => code));
    expect([...seen]).toEqual(expect.arrayContaining(['table.busy', 'account.sign_in_throttled']));
  });
});
