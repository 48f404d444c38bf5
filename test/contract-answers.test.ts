import { describe, expect, it } from 'vitest';
import { routeTable } from '../functions/routes/index.js';
import { contractAnswersDir, readContractAnswers, removeEndedRunContractAnswers } from './support/contract-answers.js';

/**
 * Every answer the suite received, on every base and group, departs in nothing from the OpenAPI document the
 * clients are generated from (test/support/contract-answers.ts checks each as it is made). This file runs in a
 * group of its own after every other test file (vitest.config.ts).
 */
describe("the run's answers against the OpenAPI document", () => {
  it('every status, required header, media type and JSON body the suite received is as the document gives it', () => {
    removeEndedRunContractAnswers();
    const dir = contractAnswersDir();
    expect(dir).toBeDefined();
    const { checked, violations } = readContractAnswers(dir!);
    const operations = new Set(checked.map((entry) => entry.slice(0, entry.lastIndexOf(' '))));
    // Operations by name: a partner store operation is one name in each region.
    const all = new Set(routeTable.flatMap((group) => Object.values(group.ops).map((op) => op.name))).size;
    console.log(`contract answers: ${checked.length} (operation, status) checked on ${operations.size} of ${all} operations; ${violations.length} violations`);
    expect(violations.sort()).toEqual([]);
    // Not vacuous: the suite calls nearly every operation.
    expect(operations.size, 'no answer checked: run this file with the whole suite (npm test)').toBeGreaterThan(all * 0.8);
  });
});
