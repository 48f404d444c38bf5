import { describe, expect, it } from 'vitest';
import { retryAfterCodes } from '../core/http/error-catalogue.js';
import { codesOf } from '../core/http/operation-codes.js';
import { operationAt } from './support/contract-answers.js';
import { errorAnswersDir, readErrorAnswers, removeEndedRunErrorAnswers } from './support/error-answers.js';

/**
 * Every error the suite made an operation answer is documented for it (docs/api.md, "Error codes"): this file runs
 * in a group of its own after every other test file (vitest.config.ts) and reads the error answers of the whole run
 * (test/support/error-answers.ts); each code must be one the operation's document lists for the status it was
 * answered with. 500s (faults, `server.internal`) are no operation's contract.
 */

describe("the run's error answers", () => {
  it('every code an operation answered in the whole run is one its OpenAPI document lists for that status', () => {
    removeEndedRunErrorAnswers();
    const dir = errorAnswersDir();
    expect(dir).toBeDefined();
    const answers = readErrorAnswers(dir!).filter(([, , status]) => status !== 500);
    const undocumented = answers.flatMap(([method, path, status, code]) => {
      const op = operationAt(method, path)?.op;
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
